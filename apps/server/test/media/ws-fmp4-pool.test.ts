/**
 * The WS-fMP4 output writes fragments into pooled buffers and gives each back once the socket has
 * written it: a viewer gets exactly the bytes a plain Fragmenter makes, though the buffers go round,
 * and a buffer is never handed out again while a send is still pending. Units come from the fmp4
 * package's H.264 fixture; the socket is a fake that completes sends later, as a real one does.
 */
import { describe, expect, it } from 'vitest';
import { LiveFragmenter } from '@opencvr/fmp4';
import { BufferPool, fragmentPool } from '../../src/media/outputs/buffer-pool.js';
import { WsFmp4Output, type WsLike } from '../../src/media/outputs/ws-fmp4.js';
import { WS_HEADROOM } from '../../src/media/outputs/ws-in-place.js';
import { videoStream } from '../../../../packages/fmp4/test/helpers/streams.js';

const H264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');

describe('BufferPool', () => {
  it('hands out a buffer big enough, takes it back, reuses the smallest that fits, bounds what it keeps', () => {
    const pool = new BufferPool(200_000);
    const a = pool.take(1000);
    expect(a.length).toBeGreaterThanOrEqual(1000);
    pool.give(a.subarray(0, 1000)); // a view comes back as the whole buffer
    expect(pool.idleBytes).toBe(a.length);
    const big = pool.take(100_000);
    expect(big).not.toBe(a);
    pool.give(big);
    const small = pool.take(500);
    expect(small.buffer).toBe(a.buffer);
    expect(pool.take(500)).toBe(big); // a bigger buffer is taken when it is the only one
    pool.give(small);
    pool.give(big);
    const extra = pool.take(150_000); // none idle fits: a new one
    pool.give(extra); // over the idle bound: dropped
    expect(pool.stats.dropped).toBe(1);
    expect(pool.idleBytes).toBe(a.length + big.length);
  });
});

describe('WsFmp4Output with pooled fragment buffers', () => {
  it('sends the same bytes as a plain LiveFragmenter; buffers are reused only after their send completed', async () => {
    const sent: Uint8Array[] = [];
    const pendingBuffers = new Set<ArrayBufferLike>();
    const completions: (() => void)[] = [];
    const ws: WsLike = {
      bufferedAmount: 0,
      readyState: 1,
      send(data, done) {
        if (typeof data === 'string') return;
        // A buffer must not come round again while the socket still holds it.
        expect(pendingBuffers.has(data.buffer)).toBe(false);
        pendingBuffers.add(data.buffer);
        sent.push(data.slice());
        completions.push(() => {
          pendingBuffers.delete(data.buffer);
          done?.();
        });
      },
    };
    const out = new WsFmp4Output(ws);
    out.tracks([H264.track]);
    await Promise.resolve(); // units after the tick of tracks() are live ones (not a cached GOP)
    const plain = new LiveFragmenter([H264.track]);
    const expected: Uint8Array[] = [plain.init];
    const made0 = fragmentPool.stats.made;
    for (let round = 0; round < 3; round++) {
      for (const u of H264.units) {
        const shifted = { ...u, pts: u.pts + round * 1_000_000, dts: u.dts + round * 1_000_000 };
        out.unit(0, shifted);
        const f = plain.push(shifted);
        if (f) expected.push(f.data);
        // The socket writes a little later: every other unit, the sends so far complete.
        if (u.dts % 2 === 0) for (const c of completions.splice(0)) c();
      }
    }
    for (const c of completions.splice(0)) c();
    expect(sent.length).toBe(expected.length);
    sent.forEach((b, i) => expect(Buffer.from(b).equals(Buffer.from(expected[i]))).toBe(true));
    // Fragments went round a few buffers rather than one each.
    expect(fragmentPool.stats.made - made0).toBeLessThan((expected.length - 1) / 2);
  });
});

describe('WsFmp4Output with a socket that sends in place', () => {
  it('sends every fragment (startup batch and per unit) in place, with room for the frame header before it', async () => {
    const inPlace: Uint8Array[] = [];
    const plainSends: (string | Uint8Array)[] = [];
    const ws: WsLike = {
      bufferedAmount: 0,
      readyState: 1,
      send: (data, done) => {
        plainSends.push(typeof data === 'string' ? data : data.slice());
        done?.();
      },
    };
    const out = new WsFmp4Output(ws, {
      maxBufferedBytes: 4 * 1024 * 1024,
      sendInPlace(p, done) {
        expect(p.byteOffset).toBeGreaterThanOrEqual(WS_HEADROOM);
        inPlace.push(p.slice());
        done();
      },
    });
    out.tracks([H264.track]);
    const units = H264.units.filter((u) => u.kind === 'video');
    for (const u of units.slice(0, 5)) out.unit(0, u); // the cached GOP: one batched fragment
    await Promise.resolve();
    for (const u of units.slice(5)) out.unit(0, u);
    const plain = new LiveFragmenter([H264.track]);
    const expected = [plain.batch(units.slice(0, 5).map((unit) => ({ track: 0, unit })))!.data];
    for (const u of units.slice(5)) expected.push(plain.push(u)!.data);
    // Only the control message and the init segment went through ws.send.
    expect(plainSends.length).toBe(2);
    expect(Buffer.from(plainSends[1] as Uint8Array).equals(Buffer.from(plain.init))).toBe(true);
    expect(inPlace.length).toBe(expected.length);
    inPlace.forEach((b, i) => expect(Buffer.from(b).equals(Buffer.from(expected[i]))).toBe(true));
  });
});

describe('WsFmp4Output startup batch', () => {
  it('keeps copies of the units it holds until its microtask: the lent bytes may be written over before it runs', async () => {
    const sent: Uint8Array[] = [];
    const ws: WsLike = { bufferedAmount: 0, readyState: 1, send: (data) => void (typeof data !== 'string' && sent.push(data.slice())) };
    const out = new WsFmp4Output(ws);
    out.tracks([H264.track]);
    const units = H264.units.slice(0, 10);
    // Each unit's bytes are lent: written over with garbage as soon as unit() returns.
    for (const u of units) {
      if (u.kind !== 'video') continue;
      const lent = u.nalus.map((n) => Uint8Array.from(n));
      out.unit(0, { ...u, nalus: lent });
      for (const n of lent) n.fill(0xee);
    }
    await Promise.resolve();
    const expected = new LiveFragmenter([H264.track]).batch(units.map((unit) => ({ track: 0, unit })));
    expect(sent.length).toBe(2); // init, then the batch
    expect(Buffer.from(sent[1]).equals(Buffer.from(expected!.data))).toBe(true);
  });
});
