/**
 * H.265 that a browser says it plays (MediaSource.isTypeSupported true) but cannot decode: the
 * WS-fMP4 engine tells it as unsupported (onUnsupported with the MIME type), so the live player and
 * the playback page go to the server's H.264 leg, instead of a fatal "media error". An H.264 decode
 * error stays a failure, and so do errors of other kinds. Doubles: helpers/mse-doubles.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { EngineEvents } from '../src/components/player/engine';
import { MediaSourceDouble, settle, startLiveEngine, withMseDoubles } from './helpers/mse-doubles';

const AVC = 'video/mp4; codecs="avc1.42c00d,mp4a.40.2"';
const HEVC = 'video/mp4; codecs="hvc1.1.6.L93.b0,mp4a.40.2"';

let unsupported: string[] = [];
let failures: string[] = [];
const events = (): EngineEvents => ({
  onInfo: () => undefined,
  onState: () => undefined,
  onBytes: () => undefined,
  onPlaying: () => undefined,
  onUnsupported: (mime) => void unsupported.push(mime),
  onFailure: (kind) => void failures.push(kind),
});

withMseDoubles();
beforeEach(() => {
  unsupported = [];
  failures = [];
});

const start = () => startLiveEngine(events());

describe('H.265 the browser cannot decode after all', () => {
  it('a decode error of the H.265 stream is unsupported, not a failure', async () => {
    const { video, ws } = start();
    ws.init(HEVC, false, 3);
    await settle();
    video.error = { code: 3, message: 'PIPELINE_ERROR_DECODE' };
    video.fire('error');
    expect(unsupported).toEqual([HEVC]);
    expect(failures).toEqual([]);
  });

  it('addSourceBuffer refusing the H.265 type is unsupported', async () => {
    MediaSourceDouble.refusedTypes.add(HEVC);
    const { ws } = start();
    ws.init(HEVC, false, 3);
    await settle();
    expect(unsupported).toEqual([HEVC]);
    expect(failures).toEqual([]);
  });

  it('a camera that turns H.265 under a playing H.264 stream: the decode error after changeType is unsupported', async () => {
    const { video, ws } = start();
    ws.init(AVC, false, 5);
    await settle();
    ws.init(HEVC, true, 3);
    await settle();
    video.error = { code: 3, message: 'decode' };
    video.fire('error');
    expect(unsupported).toEqual([HEVC]);
    expect(failures).toEqual([]);
  });

  it('an H.264 decode error stays a failure', async () => {
    const { video, ws } = start();
    ws.init(AVC, false, 3);
    await settle();
    video.error = { code: 3, message: 'decode' };
    video.fire('error');
    expect(unsupported).toEqual([]);
    expect(failures).toEqual(['fatal']);
  });

  it('a network error of an H.265 stream stays a failure', async () => {
    const { video, ws } = start();
    ws.init(HEVC, false, 3);
    await settle();
    video.error = { code: 2, message: 'network' };
    video.fire('error');
    expect(unsupported).toEqual([]);
    expect(failures).toEqual(['fatal']);
  });
});
