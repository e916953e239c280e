/**
 * The fmp4 package's elementary-stream fixtures (../../fmp4/test/fixtures, made by its make.sh with
 * Debian ffmpeg 5.1) and its loaders, reused so both muxers are checked against the same streams.
 */
export {
  aacStream,
  alawStream,
  videoStream,
  type AudioStream,
  type VideoStream,
} from '../../../fmp4/test/helpers/streams.js';
export { cleanup, decodeErrors, ffprobe, hasFfmpeg, tmpFile } from '../../../fmp4/test/helpers/ffprobe.js';
