/**
 * The live WS-fMP4 player when the camera comes back (the hub retried its source): the server's new
 * init says `continues` (its times carry on), so the player keeps its MediaSource. The same codec
 * string is appended to the same SourceBuffer, a new one (another picture size, another avc1
 * profile/level) after changeType; H.265 after H.264, or a browser that refuses changeType, gets one
 * fresh MediaSource, played from where its media starts (not 0). An init without `continues` (an
 * older server) restarts as before. The socket, MediaSource and video element are doubles; the
 * decision itself is initSwitch.ts (initSwitch.test.ts).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { EngineEvents } from '../src/components/player/engine';
import { MediaSourceDouble, settle, startLiveEngine, withMseDoubles } from './helpers/mse-doubles';

const AVC_QVGA = 'video/mp4; codecs="avc1.42c00d,mp4a.40.2"';
const AVC_VGA = 'video/mp4; codecs="avc1.42c01e,mp4a.40.2"';
const HEVC = 'video/mp4; codecs="hvc1.1.6.L93.b0,mp4a.40.2"';
let playingCalls = 0;
const events = (): EngineEvents => ({ onInfo: () => undefined, onState: () => undefined, onBytes: () => undefined, onPlaying: () => void playingCalls++, onUnsupported: () => undefined, onFailure: () => undefined });

withMseDoubles();
beforeEach(() => {
  playingCalls = 0;
});

const start = () => startLiveEngine(events());

describe('the live player when the camera comes back', () => {
  it('another picture size: one MediaSource, the new init after changeType, the playhead runs on', async () => {
    const { video, engine, ws } = start();
    ws.init(AVC_QVGA, false, 10);
    await settle();
    expect(MediaSourceDouble.made).toHaveLength(1);
    const sb = MediaSourceDouble.made[0].buffers[0];
    expect(video.currentTime).toBeCloseTo(100, 6); // played from where the media starts
    video.currentTime = 100.3;
    ws.say({ type: 'state', state: 'retrying', reason: 'camera gone' });
    expect(playingCalls).toBe(1);
    ws.init(AVC_VGA, true, 10);
    await settle();
    expect(MediaSourceDouble.made).toHaveLength(1);
    expect(MediaSourceDouble.made[0].buffers).toHaveLength(1);
    expect(sb.changed).toEqual([AVC_VGA]);
    // Both init segments and all 20 frames went to the one SourceBuffer, in order.
    expect(sb.appended).toEqual([0, ...Array(10).fill(1), 0, ...Array(10).fill(1)]);
    expect(sb.range).toEqual([100, expect.closeTo(100.8, 6)]);
    expect(video.currentTime).toBeCloseTo(100.3, 6);
    // Playing again is said once the camera's media is in (the console's "reconnecting" ends there).
    expect(playingCalls).toBe(2);
    engine.stop();
  });

  it('the same codec string again: appended without changeType', async () => {
    const { engine, ws } = start();
    ws.init(AVC_QVGA, false, 5);
    await settle();
    ws.init(AVC_QVGA, true, 5);
    await settle();
    const [sb] = MediaSourceDouble.made[0].buffers;
    expect(MediaSourceDouble.made).toHaveLength(1);
    expect(sb.changed).toEqual([]);
    expect(sb.appended.filter((b) => b === 0)).toHaveLength(2);
    engine.stop();
  });

  it('H.265 after H.264: a fresh MediaSource, played from where its media starts', async () => {
    const { video, engine, ws } = start();
    ws.init(AVC_QVGA, false, 10);
    await settle();
    ws.init(HEVC, true, 5);
    await settle();
    expect(MediaSourceDouble.made).toHaveLength(2);
    const sb = MediaSourceDouble.made[1].buffers[0];
    expect(sb.type).toBe(HEVC);
    expect(sb.appended).toEqual([0, 1, 1, 1, 1, 1]);
    expect(sb.range![0]).toBeCloseTo(100.4, 6);
    expect(video.currentTime).toBeCloseTo(100.4, 6);
    engine.stop();
  });

  it('a browser that refuses changeType: one fresh MediaSource takes the new init and what follows', async () => {
    const { engine, ws } = start();
    ws.init(AVC_QVGA, false, 4);
    await settle();
    MediaSourceDouble.made[0].buffers[0].refuseChangeType = true;
    ws.init(AVC_VGA, true, 4);
    await settle();
    expect(MediaSourceDouble.made).toHaveLength(2);
    const sb = MediaSourceDouble.made[1].buffers[0];
    expect(sb.type).toBe(AVC_VGA);
    expect(sb.appended).toEqual([0, 1, 1, 1, 1]);
    engine.stop();
  });

  it('an init that does not say it continues starts over (a server whose times restart)', async () => {
    const { engine, ws } = start();
    ws.init(AVC_QVGA, false, 4);
    await settle();
    ws.init(AVC_QVGA, false, 4);
    await settle();
    expect(MediaSourceDouble.made).toHaveLength(2);
    engine.stop();
  });
});
