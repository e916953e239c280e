import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessUnit, Track, VideoAccessUnit } from '@opencvr/codec';
import { H264Depacketiser, h264Payloads, newRtpView, readRtp, serializeRtp } from '@opencvr/rtp';
import { HubRegistry, StreamHub, type Subscriber } from '../../src/media/hub.js';
import { FakeSource, fakeSources, hubOptions as opts } from './fake-source.js';

const video: Track = {
  kind: 'video',
  codec: 'h264',
  sps: new Uint8Array([0x67]),
  pps: new Uint8Array([0x68]),
  width: 640,
  height: 360,
  codecString: 'avc1.42e01e',
  clockRate: 90000,
};
const frame = (pts: number, keyframe: boolean): AccessUnit => ({ kind: 'video', pts, dts: pts, keyframe, nalus: [new Uint8Array(10)] });

function recorder(): Subscriber & { got: string[] } {
  const got: string[] = [];
  return {
    got,
    tracks: (t) => got.push(`tracks:${t.length}`),
    unit: (_i, u) => got.push(`${u.kind === 'video' && u.keyframe ? 'K' : 'p'}${u.pts}`),
    state: (s) => got.push(`state:${s}`),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('StreamHub', () => {
  it('starts one source for many viewers and gives a late viewer the cached GOP from its keyframe', () => {
    const { sources, open } = fakeSources();
    const hub = new StreamHub('d/c/0', open, opts());
    const a = recorder();
    hub.subscribe(a);
    expect(sources).toHaveLength(1);
    expect(hub.state).toBe('connecting');
    const s = sources[0].sink!;
    s.tracks([video]);
    s.unit(0, frame(0, false)); // before any keyframe: not cached
    s.unit(0, frame(3600, true));
    s.unit(0, frame(7200, false));
    expect(hub.state).toBe('live');
    const b = recorder();
    hub.subscribe(b);
    expect(sources).toHaveLength(1);
    expect(b.got).toEqual(['state:live', 'tracks:1', 'K3600', 'p7200']);
    s.unit(0, frame(10800, true));
    s.unit(0, frame(14400, false));
    const c = recorder();
    hub.subscribe(c);
    expect(c.got).toEqual(['state:live', 'tracks:1', 'K10800', 'p14400']);
    expect(a.got.filter((x) => !x.startsWith('state'))).toEqual(['tracks:1', 'p0', 'K3600', 'p7200', 'K10800', 'p14400']);
    expect(hub.viewers).toBe(3);
  });

  it('stops an on-demand source a grace period after the last viewer, unless someone comes back or touches it', () => {
    const src = new FakeSource();
    const hub = new StreamHub('k', () => src, opts({ graceMs: 1000 }));
    const off = hub.subscribe(recorder());
    off();
    vi.advanceTimersByTime(900);
    const off2 = hub.subscribe(recorder());
    vi.advanceTimersByTime(5000);
    expect(src.stopped).toBe(false);
    off2();
    vi.advanceTimersByTime(800);
    hub.touch();
    vi.advanceTimersByTime(800);
    expect(src.stopped).toBe(false);
    vi.advanceTimersByTime(300);
    expect(src.stopped).toBe(true);
    expect(hub.state).toBe('stopped');
  });

  it('keeps an always-on source running without viewers', () => {
    const src = new FakeSource();
    const hub = new StreamHub('k', () => src, opts({ onDemand: false }));
    expect(src.sink).toBeDefined();
    const off = hub.subscribe(recorder());
    off();
    vi.advanceTimersByTime(60_000);
    expect(src.stopped).toBe(false);
    hub.stop();
    expect(src.stopped).toBe(true);
  });

  it('retries a failed source with doubling back-off, tells viewers, and resumes them', () => {
    const { sources, open } = fakeSources();
    const hub = new StreamHub('k', open, opts({ retryMinMs: 100, retryMaxMs: 400 }));
    const v = recorder();
    hub.subscribe(v);
    sources[0].sink!.failed('connection refused');
    expect(hub.state).toBe('retrying');
    expect(hub.reason).toBe('connection refused');
    expect(sources[0].stopped).toBe(true);
    vi.advanceTimersByTime(99);
    expect(sources).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sources).toHaveLength(2);
    sources[1].sink!.failed('timeout');
    vi.advanceTimersByTime(199);
    expect(sources).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sources).toHaveLength(3);
    // a stale source's late calls are ignored
    sources[0].sink!.unit(0, frame(1, true));
    const s = sources[2].sink!;
    s.tracks([video]);
    s.unit(0, frame(0, true));
    expect(hub.state).toBe('live');
    expect(v.got).toContain('state:retrying');
    expect(v.got.at(-1)).toBe('K0');
    expect(v.got.filter((x) => x === 'K1')).toEqual([]);
    expect(hub.stats.restarts).toBe(2);
  });

  it('keeps its own copy of lent units: the source may reuse its buffer once unit() returns, and a late viewer gets the GOP as sent', () => {
    const src = new FakeSource();
    const hub = new StreamHub('k', () => src, opts());
    const live: string[] = [];
    const bytesOf = (u: AccessUnit) => (u.kind === 'video' ? Array.from(u.nalus[0].subarray(0, 4)).join(',') : '');
    hub.subscribe({ tracks: () => undefined, unit: (_t, u) => live.push(bytesOf(u)) });
    src.sink!.tracks([video]);
    // One buffer for every unit, as the RTSP ingest lends its depacketiser's: overwritten after each call.
    const shared = new Uint8Array(5000);
    const send = (pts: number, keyframe: boolean) => {
      shared.fill(pts & 0xff);
      src.sink!.unit(0, { kind: 'video', pts, dts: pts, keyframe, nalus: [shared.subarray(0, 1000 + pts), shared.subarray(2000, 2100)] });
      shared.fill(0xee);
    };
    for (let gop = 0; gop < 3; gop++) for (let i = 0; i < 30; i++) send(gop * 30 + i, i === 0);
    expect(live[0]).toBe('0,0,0,0');
    expect(live.at(-1)).toBe('89,89,89,89');
    const late: AccessUnit[] = [];
    hub.subscribe({ tracks: () => undefined, unit: (_t, u) => late.push(u) });
    expect(late).toHaveLength(30);
    late.forEach((u, i) => {
      if (u.kind !== 'video') throw new Error('video expected');
      expect(u.pts).toBe(60 + i);
      expect(u.keyframe).toBe(i === 0);
      expect(u.nalus.map((n) => n.length)).toEqual([1000 + 60 + i, 100]);
      for (const n of u.nalus) expect(n.every((b) => b === 60 + i)).toBe(true);
    });
  });

  it('tells subscribers which units are kept, and that the GOP ends before its bytes are written over', () => {
    const src = new FakeSource();
    const hub = new StreamHub('d/c/0', () => src, opts({ maxGopUnits: 4 }));
    const log: string[] = [];
    /** The first byte of every kept unit, read again when the hub says the GOP ends. */
    let kept: { pts: number; first: number; bytes: Uint8Array }[] = [];
    hub.subscribe({
      tracks: () => log.push('tracks'),
      unit: (_t, u, isKept) => {
        log.push(`${u.pts}${isKept ? ' kept' : ''}`);
        if (isKept && u.kind === 'video') kept.push({ pts: u.pts, first: u.nalus[0][0], bytes: u.nalus[0] });
      },
      gopEnd: (track, next) => {
        log.push(`gopEnd ${track ?? '-'} ${next?.pts ?? '-'}`);
        for (const k of kept) expect(k.bytes[0], `unit ${k.pts} whole at gopEnd`).toBe(k.first);
        kept = [];
      },
    });
    const unit = (pts: number, keyframe: boolean): AccessUnit => ({ kind: 'video', pts, dts: pts, keyframe, nalus: [new Uint8Array(100).fill(pts)] });
    src.sink!.tracks([video]);
    src.sink!.unit(0, unit(1, false)); // before the first keyframe: lent
    src.sink!.unit(0, unit(2, true));
    src.sink!.unit(0, unit(3, false));
    src.sink!.unit(0, unit(4, true)); // written over the same chunk as 2 and 3
    for (let pts = 5; pts < 9; pts++) src.sink!.unit(0, unit(pts, false)); // 8 is past maxGopUnits: the GOP is dropped first
    src.sink!.tracks([video]); // a reconnect drops the cache
    src.sink!.unit(0, unit(9, false));
    src.sink!.unit(0, unit(10, true));
    hub.stop();
    expect(log).toEqual([
      'tracks',
      '1',
      '2 kept',
      '3 kept',
      'gopEnd 0 4',
      '4 kept',
      '5 kept',
      '6 kept',
      '7 kept',
      'gopEnd - -',
      '8 kept',
      'gopEnd - -',
      'tracks',
      '9',
      '10 kept',
      'gopEnd - -',
    ]);
  });

  it('keeps the units a source assembled in its memory without copying them, whole until the GOP ends', () => {
    // An RTSP-like source: RTP through one scratch buffer into a depacketiser that assembles in the hub's memory.
    const d = new H264Depacketiser();
    const src = new FakeSource();
    const hub = new StreamHub('d/c/0', () => src, opts({ maxGopUnits: 30 }));
    const nal = (i: number, key: boolean) => {
      const n = new Uint8Array(key ? 120_000 : 15_000 + ((i * 337) % 9000)).fill(i & 0xff);
      n[0] = key ? 0x65 : 0x41;
      return n;
    };
    const expected = (u: AccessUnit) => Array.from(nal(u.pts / 3600, u.kind === 'video' && u.keyframe));
    const emitted = new Set<AccessUnit>();
    let kept: VideoAccessUnit[] = [];
    const log: string[] = [];
    hub.subscribe({
      tracks: () => undefined,
      unit: (_t, u, isKept) => {
        if (u.kind !== 'video') return;
        expect(emitted.has(u), 'the very unit the depacketiser made').toBe(true);
        if (isKept) kept.push(u);
        else log.push(`lent ${u.pts / 3600}`);
      },
      gopEnd: (_t, next) => {
        for (const k of kept) expect(Array.from(k.nalus[0]), `unit ${k.pts / 3600} whole at gopEnd`).toEqual(expected(k));
        log.push(`gopEnd ${kept.length} ${next ? next.pts / 3600 : '-'}`);
        kept = [];
      },
    });
    src.sink!.tracks([video]);
    const memory = src.sink!.memory!(0);
    expect(memory).toBeDefined();
    d.useMemory(memory);
    const scratch = new Uint8Array(2048);
    const view = newRtpView();
    let seq = 0;
    // Frames 0-2 before the first keyframe; keyframes at 3, 28 and 63 (a GOP of 35 frames, past maxGopUnits).
    for (let i = 0; i < 80; i++) {
      const payloads = h264Payloads([nal(i, i === 3 || i === 28 || i === 63)], 1400);
      payloads.forEach((payload, k) => {
        const p = serializeRtp({ marker: k === payloads.length - 1, payloadType: 96, sequenceNumber: seq++, timestamp: i * 3600, ssrc: 1, csrc: [], padding: 0, payload });
        scratch.set(p);
        for (const u of d.pushView(readRtp(scratch, 0, p.length, view))) {
          emitted.add(u);
          src.sink!.unit(0, u);
        }
        scratch.fill(0xee);
      });
    }
    // A late viewer gets the GOP from keyframe 63 as it was sent.
    const late: AccessUnit[] = [];
    hub.subscribe({ tracks: () => undefined, unit: (_t, u) => void late.push(u) });
    expect(late.map((u) => u.pts / 3600)).toEqual(Array.from({ length: 17 }, (_, i) => 63 + i));
    for (const u of late) expect(Array.from((u as VideoAccessUnit).nalus[0])).toEqual(expected(u));
    hub.stop();
    expect(log).toEqual(['lent 0', 'lent 1', 'lent 2', 'gopEnd 25 28', 'gopEnd 30 -', 'gopEnd 5 63', 'gopEnd 17 -']);
  });

  it('bounds the cached GOP', () => {
    const src = new FakeSource();
    const hub = new StreamHub('k', () => src, opts({ maxGopUnits: 10 }));
    hub.subscribe(recorder());
    src.sink!.tracks([video]);
    src.sink!.unit(0, frame(0, true));
    for (let i = 1; i < 25; i++) src.sink!.unit(0, frame(i, false));
    const late = recorder();
    hub.subscribe(late);
    expect(late.got.length).toBeLessThanOrEqual(12);
  });
});

describe('HubRegistry', () => {
  it('shares a running hub by key and forgets a stopped one', () => {
    const reg = new HubRegistry();
    const src = new FakeSource();
    const a = reg.open('x', () => src, opts());
    expect(reg.open('x', () => new FakeSource(), opts())).toBe(a);
    a.subscribe(recorder());
    a.stop();
    expect(reg.get('x')).toBeUndefined();
    const b = reg.open('x', () => new FakeSource(), opts());
    expect(b).not.toBe(a);
    reg.stopAll();
    expect(reg.list()).toEqual([]);
  });
});

describe('a failing viewer', () => {
  it('is dropped without stopping delivery to the others', () => {
    const src = new FakeSource();
    const hub = new StreamHub('k', () => src, opts());
    const good = recorder();
    const errors: unknown[] = [];
    hub.onSubscriberError = (_s, e) => errors.push(e);
    hub.subscribe({ tracks: () => undefined, unit: () => { throw new Error('cannot package'); } });
    hub.subscribe(good);
    src.sink!.tracks([video]);
    src.sink!.unit(0, frame(0, true));
    src.sink!.unit(0, frame(1, false));
    expect(good.got.filter((x) => !x.startsWith('state'))).toEqual(['tracks:1', 'K0', 'p1']);
    expect(hub.viewers).toBe(1);
    expect(hub.stats.subscriberErrors).toBe(1);
    expect(errors).toHaveLength(1);
  });
});
