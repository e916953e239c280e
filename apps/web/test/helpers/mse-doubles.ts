/**
 * Doubles of what the WS-fMP4 engine (src/components/player/wsFmp4.ts) drives in a browser: the
 * MediaSource and its SourceBuffers, the WebSocket and the video element. Media is one byte a box
 * (0 an init segment, 1 a frame), and every frame advances the server's media clock by FRAME, which
 * runs on across MediaSources (a live timeline continues over a camera's reconnect).
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { startWsFmp4 } from '../../src/components/player/wsFmp4';
import type { EngineEvents } from '../../src/components/player/engine';

/** A frame's length: the doubles' media clock advances by this per media byte. */
export const FRAME = 0.04;

/** The server's media clock (set by installMseDoubles; a live timeline does not start at 0). */
export const clock = { now: 0 };

export class SourceBufferDouble extends EventTarget {
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
      this.range ??= [clock.now, clock.now];
      this.range[1] += FRAME;
      clock.now += FRAME;
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

export class MediaSourceDouble extends EventTarget {
  static made: MediaSourceDouble[] = [];
  static isTypeSupported = (_type: string) => true;
  /** Types addSourceBuffer refuses as a browser does for a codec it cannot play. */
  static refusedTypes = new Set<string>();
  readyState = 'open';
  buffers: SourceBufferDouble[] = [];
  constructor() {
    super();
    MediaSourceDouble.made.push(this);
  }
  addSourceBuffer(type: string) {
    if (MediaSourceDouble.refusedTypes.has(type)) throw new DOMException(`${type} not supported`, 'NotSupportedError');
    const sb = new SourceBufferDouble(type);
    this.buffers.push(sb);
    return sb;
  }
  endOfStream() {
    this.readyState = 'ended';
  }
}

export class SocketDouble {
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

/** A video element with listeners that `fire` can call (an 'error' with `error` set, say). */
export function videoDouble() {
  const listeners = new Map<string, Set<() => void>>();
  return {
    currentTime: 0,
    playbackRate: 1,
    paused: true,
    muted: false,
    error: null as { code: number; message: string } | null,
    src: '',
    play() {
      this.paused = false;
      return Promise.resolve();
    },
    requestVideoFrameCallback(cb: () => void) {
      queueMicrotask(cb);
    },
    addEventListener(type: string, cb: () => void) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(cb);
    },
    removeEventListener(type: string, cb: () => void) {
      listeners.get(type)?.delete(cb);
    },
    fire(type: string) {
      for (const cb of [...(listeners.get(type) ?? [])]) cb();
    },
    removeAttribute() {},
    load() {},
  };
}

/** Lets queued microtasks (appends, updateend) run. */
export async function settle() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** Puts the doubles in place of the browser's before each test of the file, and takes them away after. */
export function withMseDoubles() {
  beforeEach(() => {
    clock.now = 100;
    MediaSourceDouble.made = [];
    MediaSourceDouble.isTypeSupported = () => true;
    MediaSourceDouble.refusedTypes = new Set();
    vi.stubGlobal('WebSocket', SocketDouble);
    vi.stubGlobal('MediaSource', MediaSourceDouble);
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:media');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

/** A live WS-fMP4 engine on a video double; `ws` is the socket it opened. */
export function startLiveEngine(events: EngineEvents) {
  const video = videoDouble();
  const engine = startWsFmp4(video as unknown as HTMLVideoElement, 'ws://server/ws_m4s/live/1_0.mp4', events);
  return { video, engine, ws: SocketDouble.last! };
}
