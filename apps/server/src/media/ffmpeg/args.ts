/**
 * ffmpeg command lines as data (go2rtc's habit): pure functions from options to argument arrays,
 * each pinned by a golden-string test (test/media/ffmpeg-args.test.ts). Nothing here spawns.
 */

export interface TranscodeH264Options {
  /** The elementary stream written to ffmpeg's stdin. */
  input: 'h264' | 'hevc';
  /** x264 preset (speed against size). */
  preset?: 'ultrafast' | 'superfast' | 'veryfast' | 'faster' | 'fast' | 'medium';
  /** Target bit rate in kbit/s; constant quality (CRF 23) when absent. */
  bitrateKbps?: number;
  /** Keyframe interval in frames. */
  gop?: number;
  /** Scale down to this height (keeping the aspect ratio, even width); the source's size when absent. */
  maxHeight?: number;
  threads?: number;
  /**
   * Start on the first picture instead of probing seconds of input first (-probesize 32
   * -analyzeduration 0): the raw stream's parameter sets say all ffmpeg needs, and a live or played
   * back stream at a low bit rate would otherwise wait for ffmpeg's 5 s of analysis. Without +nobuffer
   * then: that flag throws away the packets the probe read (a whole first GOP of H.264 input; live
   * H.265 at 15 fps: 80 pictures, the first picture 3.6-5 s late, measured), and the pictures left
   * would be given the first pictures' times.
   */
  noProbe?: boolean;
  /**
   * An IDR wherever the input had a keyframe (-force_key_frames source), besides every `gop`
   * pictures: the output's GOPs follow the camera's, so a viewer joining the H.264 leg starts from a
   * cached GOP no older than the original's.
   */
  sourceKeyframes?: boolean;
  /**
   * FLV on stdout instead of Annex-B: a tag says its size, so a picture is whole when its last byte
   * comes (FlvVideoPictures), not when the next picture starts a frame interval later.
   */
  flvOutput?: boolean;
  /**
   * Parameter sets that do not follow the input's chroma siting (x264 chromaloc=0, which leaves it
   * out of the VUI): inputs of either codec then give the same SPS (a playback across a codec change
   * runs on with one init).
   */
  steadyHeaders?: boolean;
}

/**
 * Annex-B video on stdin → H.264 Annex-B (or FLV) on stdout, one picture out per picture in (no B-frames, no
 * frame-rate conversion, an access unit delimiter before each picture), so the caller can give each
 * output picture the time of its input picture.
 */
export function transcodeH264Args(o: TranscodeH264Options): string[] {
  const args = ['-hide_banner', '-nostats', '-loglevel', 'error'];
  if (o.noProbe) args.push('-flags', 'low_delay', '-probesize', '32', '-analyzeduration', '0');
  else args.push('-fflags', '+nobuffer', '-flags', 'low_delay');
  args.push('-f', o.input, '-i', 'pipe:0', '-map', '0:v:0', '-an', '-sn', '-dn');
  if (o.maxHeight) args.push('-vf', `scale=-2:'min(${o.maxHeight},ih)'`);
  args.push('-c:v', 'libx264', '-preset', o.preset ?? 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-profile:v', 'high');
  if (o.bitrateKbps) args.push('-b:v', `${o.bitrateKbps}k`, '-maxrate', `${o.bitrateKbps}k`, '-bufsize', `${o.bitrateKbps * 2}k`);
  else args.push('-crf', '23');
  if (o.sourceKeyframes) args.push('-force_key_frames', 'source');
  args.push('-g', String(o.gop ?? 50), '-bf', '0', '-x264-params', `aud=1:repeat-headers=1${o.steadyHeaders ? ':chromaloc=0' : ''}`);
  if (o.threads) args.push('-threads', String(o.threads));
  args.push('-fps_mode', 'passthrough');
  if (o.flvOutput) args.push('-flush_packets', '1', '-f', 'flv', 'pipe:1');
  else args.push('-f', 'h264', 'pipe:1');
  return args;
}

export interface PullOptions {
  /** The protocols ffmpeg may open for the source (PULL_PROTOCOLS of its scheme); the input script's pipe is added. */
  protocols: string;
  /** AAC copied as it is; other codecs turned into AAC; or no audio. */
  audio: 'copy' | 'aac' | 'none';
}

/**
 * A pulled stream (RTMP, HTTP-FLV, HLS, RTSPS) copied, not transcoded, into fragmented MP4 on stdout,
 * one fragment per video frame (`-frag_duration 1`: a fragment is cut at each new picture, its
 * duration known from the next one, so decode times run on without gaps, unlike frag_every_frame)
 * and flushed at once. Audio other than AAC is encoded to AAC at 64 kbit/s when asked (the mp4 muxer
 * holds no G.711 or Speex, and every output of the hub takes AAC).
 *
 * The source's address is not on the command line, which every local user may read (ps,
 * /proc/PID/cmdline) and which would show the channel's password or stream key: ffmpeg reads it from
 * stdin, as a one-file ffconcat script (pullInputScript). The concat demuxer opens that file with the
 * script's options and this protocol whitelist, and passes its packets on (`-auto_convert 0`: as they
 * are, no H.264 conversion to Annex B).
 */
export function pullArgs(o: PullOptions): string[] {
  const args = ['-hide_banner', '-nostats', '-loglevel', 'warning', '-fflags', '+nobuffer'];
  args.push('-f', 'concat', '-safe', '0', '-auto_convert', '0', '-protocol_whitelist', `pipe,${o.protocols}`, '-i', 'pipe:0', '-map', '0:v:0?');
  if (o.audio !== 'none') args.push('-map', '0:a:0?');
  args.push('-c:v', 'copy');
  if (o.audio === 'copy') args.push('-c:a', 'copy');
  else if (o.audio === 'aac') args.push('-c:a', 'aac', '-b:a', '64k');
  args.push('-sn', '-dn', '-f', 'mp4', '-movflags', '+empty_moov+default_base_moof', '-frag_duration', '1', '-flush_packets', '1', 'pipe:1');
  return args;
}

export interface PullInput {
  /** The source address, checked by pullUrl() (media/ingest/pull-url.ts): credentials in, no control characters. */
  url: string;
  /** HLS: the segment to start a live playlist at (negative: from its end), so a retry plays no segment twice (ingest/hls-played.ts). */
  hlsLiveStartIndex?: number;
}

/**
 * What a pull's ffmpeg reads on stdin (pullArgs): an ffconcat script of one file, the address quoted
 * (a quote inside it closed, escaped and reopened, as av_get_token reads it), with the options its
 * opening takes. `rw_timeout` ends a run whose server went silent.
 */
export function pullInputScript(o: PullInput): string {
  const lines = ['ffconcat version 1.0', `file '${o.url.replaceAll("'", "'\\''")}'`, 'option fflags +nobuffer'];
  lines.push('option rw_timeout 10000000');
  if (o.hlsLiveStartIndex !== undefined) lines.push(`option live_start_index ${Math.trunc(o.hlsLiveStartIndex)}`);
  return lines.join('\n') + '\n';
}
