/**
 * The live WS-fMP4 player when the camera comes back (the hub retried its source): the server's new
 * init says `continues` (its times carry on), so the player keeps its MediaSource. The same codec
 * string is appended to the same SourceBuffer, a new one (another picture size, another avc1
 * profile/level) after changeType; H.265 after H.264, or a browser that refuses changeType, gets one
 * fresh MediaSource, played from where its media starts (not 0). An init without `continues` (an
 * older server) restarts as before. The socket, MediaSource and video element are doubles; the
 * decision itself is initSwitch.ts (initSwitch.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startWsFmp4 } from '../src/components/player/wsFmp4';
import type { EngineEvents } from '../src/components/player/engine';

const AVC_QVGA = 'video/mp4; codecs="avc1.42c00d,mp4a.40.2"';
const AVC_VGA = 'video/mp4; codecs="avc1.42c01e,mp4a.40.2"';
const HEVC = 'video/mp4; codecs="hvc1.1.6.L93.b0,mp4a.40.2"';
/** A frame's length: the doubles' media clock advances by this per media byte. */
const FRAME = 0.04;

/** The server's media clock: it runs on across MediaSources (the timeline continues). */
let serverClock = 0;

class SourceBufferDouble extends EventTarget {
  mode = '';
  updating = false;
  range?: [number, number];
  changed: string[] = [];
  refuseChangeType = false;
  /** What was appended, a byte a box: 0 an init segment, 1 a frame. */
  appended: number[] = [];
  constructor(readonly type: string) {
    super();
  }
  get buffered() {
    const r = this.range;
    return { length: r ? 1 : 0, start: () => r![0], end: () => r![1] };
  }
  appendBuffer(data: ArrayBuffer) {
    for (const b of new Uint8Array(data)) {
      this.appended.push(b);
      if (b !== 1) continue;
      this.range ??= [serverClock, serverClock];
      this.range[1] += FRAME;
      serverClock += FRAME;
    }
    this.updating = true;
    queueMicrotask(() => {
      this.updating = false;
      this.dispatchEvent(new Event('updateend'));
    });
  }
  changeType(type: string) {
    if (this.refuseChangeType) throw new DOMException('not supported', 'NotSupportedError');
    this.changed.push(type);
  }
  remove() {}
}

class MediaSourceDouble extends EventTarget {
  static made: MediaSourceDouble[] = [];
  static isTypeSupported = () => true;
  readyState = 'open';
  buffers: SourceBufferDouble[] = [];
  constructor() {
    super();
    MediaSourceDouble.made.push(this);
  }
  addSourceBuffer(type: string) {
    const sb = new SourceBufferDouble(type);
    this.buffers.push(sb);
    return sb;
  }
  endOfStream() {
    this.readyState = 'ended';
  }
}

class SocketDouble {
  static last?: SocketDouble;
  binaryType = '';
  readyState = 1;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    SocketDouble.last = this;
  }
  close() {}
  say(msg: object) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  /** An init message and its init segment, then `frames` frames. */
  init(mime: string, continues: boolean, frames: number) {
    this.say({ type: 'init', mime, tracks: [{ kind: 'video', codecString: mime }], ...(continues ? { continues } : {}) });
    this.onmessage?.({ data: new Uint8Array([0]).buffer });
    for (let i = 0; i < frames; i++) this.onmessage?.({ data: new Uint8Array([1]).buffer });
  }
}

function videoDouble() {
  return {
    currentTime: 0,
    playbackRate: 1,
    paused: true,
    muted: false,
    error: null,
    src: '',
    play() {
      this.paused = false;
      return Promise.resolve();
    },
    requestVideoFrameCallback(cb: () => void) {
      queueMicrotask(cb);
    },
    addEventListener() {},
    removeEventListener() {},
    removeAttribute() {},
    load() {},
  };
}

let playingCalls = 0;
const events = (): EngineEvents => ({ onInfo: () => undefined, onState: () => undefined, onBytes: () => undefined, onPlaying: () => void playingCalls++, onUnsupported: () => undefined, onFailure: () => undefined });
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

beforeEach(() => {
  serverClock = 100; // a live timeline does not start at 0
  playingCalls = 0;
  MediaSourceDouble.made = [];
  vi.stubGlobal('WebSocket', SocketDouble);
  vi.stubGlobal('MediaSource', MediaSourceDouble);
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:media');
  vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function start() {
  const video = videoDouble();
  const engine = startWsFmp4(video as unknown as HTMLVideoElement, 'ws://server/ws_m4s/live/1_0.mp4', events());
  const ws = SocketDouble.last!;
  return { video, engine, ws };
}

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
