/**
 * The codec the HLS player reports for the toolbar: hls.js describes the server's muxed fMP4 track
 * as "mp4a.40.2,avc1.42C016"; the toolbar shows the video codec, as the other transports do.
 */
import { describe, expect, it } from 'vitest';
import { videoCodec } from '../src/components/player/hls';

describe('videoCodec', () => {
  it('picks the video codec of a muxed track', () => {
    expect(videoCodec('mp4a.40.2,avc1.42C016')).toBe('avc1.42C016');
    expect(videoCodec('avc1.42C016, mp4a.40.2')).toBe('avc1.42C016');
    expect(videoCodec('hvc1.1.6.L93.B0')).toBe('hvc1.1.6.L93.B0');
  });

  it('gives nothing for an audio-only track or none', () => {
    expect(videoCodec('mp4a.40.2')).toBeUndefined();
    expect(videoCodec(undefined)).toBeUndefined();
  });
});
