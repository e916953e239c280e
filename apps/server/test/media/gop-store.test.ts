/**
 * The hub's GOP store: copies of lent units, in chunks the store writes again GOP after GOP (those a
 * GOP did not reach go back to a shared pool), so a steady stream allocates no buffer once its first
 * GOPs are in.
 */
import { describe, expect, it } from 'vitest';
import type { AccessUnit, VideoAccessUnit } from '@opencvr/codec';
import { BytePool } from '@opencvr/codec';
import { H264Depacketiser, h264Payloads, newRtpView, readRtp, serializeRtp } from '@opencvr/rtp';
import { GOP_CHUNK_BYTES, GopStore } from '../../src/media/gop-store.js';

const pool = (maxIdle = 64 << 20) => new BytePool(GOP_CHUNK_BYTES, maxIdle);

const video = (pts: number, sizes: number[], keyframe = false): AccessUnit => ({
  kind: 'video',
  pts,
  dts: pts,
  keyframe,
  nalus: sizes.map((n, i) => new Uint8Array(n).fill((pts + i) & 0xff)),
});

describe('GopStore', () => {
  it('copies units whole (video NAL units and audio), independent of the lent bytes', () => {
    const store = new GopStore(pool());
    const lent = video(7, [3000, 12], true);
    const kept = store.copy(lent);
    if (lent.kind !== 'video' || kept.kind !== 'video') throw new Error('video');
    for (const n of lent.nalus) n.fill(0xee);
    expect(kept.nalus.map((n) => n.length)).toEqual([3000, 12]);
    expect(kept.nalus[0].every((b) => b === 7)).toBe(true);
    expect(kept.nalus[1].every((b) => b === 8)).toBe(true);
    expect(kept.keyframe).toBe(true);
    expect(kept.nalus[0].buffer).toBe(kept.nalus[1].buffer);
    const audio = store.copy({ kind: 'audio', pts: 3, data: Uint8Array.of(1, 2, 3) });
    expect(audio).toEqual({ kind: 'audio', pts: 3, data: Uint8Array.of(1, 2, 3) });
    const damaged = store.copy({ ...video(9, [10]), damaged: true } as AccessUnit);
    expect(damaged.kind === 'video' && damaged.damaged).toBe(true);
  });

  it('reuses its chunks GOP after GOP: no chunk made once the first GOP is in, every unit intact until the next keyframe', () => {
    const chunks = pool();
    const stores = [new GopStore(chunks), new GopStore(chunks)];
    let madeAfterFirst = -1;
    for (let gop = 0; gop < 6; gop++) {
      stores.forEach((store, s) => {
        store.reset();
        const units: AccessUnit[] = [];
        for (let i = 0; i < 50; i++) units.push(store.copy(video(gop * 100 + i + s, i === 0 ? [150_000] : [20_000 + i * 10], i === 0)));
        // Every unit of this GOP is still as it was copied (no chunk shared with another unit or store).
        units.forEach((u, i) => {
          if (u.kind !== 'video') throw new Error('video');
          expect(u.nalus[0].every((b) => b === ((gop * 100 + i + s) & 0xff))).toBe(true);
        });
        expect(store.heldBytes).toBeLessThan(150_000 + 49 * 20_500 + 2 * GOP_CHUNK_BYTES);
      });
      if (gop === 0) madeAfterFirst = chunks.stats.made;
    }
    // The second store's first GOP took chunks the first store had given back at its next keyframe, or new ones; after that, none.
    expect(chunks.stats.made).toBeLessThanOrEqual(madeAfterFirst + 5);
    const before = chunks.stats.made;
    for (const store of stores) {
      store.reset();
      for (let i = 0; i < 50; i++) store.copy(video(i, [20_000 + i * 10], i === 0));
    }
    expect(chunks.stats.made).toBe(before);
  });

  it('gives a unit larger than a chunk a chunk of its own size class, and reuses it for the next one', () => {
    const chunks = pool();
    const store = new GopStore(chunks);
    const big = store.copy(video(1, [GOP_CHUNK_BYTES * 3], true));
    expect(big.kind === 'video' && big.nalus[0].buffer.byteLength).toBe(GOP_CHUNK_BYTES * 4);
    store.reset();
    const made = chunks.stats.made;
    store.copy(video(2, [GOP_CHUNK_BYTES * 2 + 5], true));
    expect(chunks.stats.made).toBe(made);
  });

  it('keeps at most maxIdleBytes of free chunks when stores are released', () => {
    const chunks = pool(GOP_CHUNK_BYTES * 2);
    const stores = Array.from({ length: 4 }, () => new GopStore(chunks));
    for (const s of stores) s.copy(video(1, [1000], true));
    for (const s of stores) s.release();
    expect(stores.map((s) => s.heldBytes)).toEqual([0, 0, 0, 0]);
    expect(chunks.idleBytes).toBe(GOP_CHUNK_BYTES * 2);
    expect(chunks.stats.dropped).toBe(2);
  });

  it('keeps its chunks at a keyframe: many streams whose keyframes come together make no chunk after their first GOP, and the pool holds none idle', () => {
    // 16 stores of 5-chunk GOPs over a pool that keeps 8 chunks idle: given back all at once at each
    // keyframe, most were dropped and made again every GOP.
    const chunks = pool(GOP_CHUNK_BYTES * 8);
    const stores = Array.from({ length: 16 }, () => new GopStore(chunks));
    const gop = (n: number) => {
      for (const s of stores) s.reset();
      for (let i = 0; i < 50; i++) for (const s of stores) s.copy(video(n * 100 + i, i === 0 ? [150_000] : [20_000], i === 0));
    };
    gop(0);
    const made = chunks.stats.made;
    for (let n = 1; n < 5; n++) gop(n);
    expect(chunks.stats.made).toBe(made);
    expect(chunks.stats.dropped).toBe(0);
    expect(chunks.idleBytes).toBe(0);
  });

  it('gives back the chunks a smaller GOP did not reach, and every chunk when released', () => {
    const chunks = pool();
    const store = new GopStore(chunks);
    for (let i = 0; i < 50; i++) store.copy(video(i, i === 0 ? [150_000] : [20_000], i === 0));
    const big = store.heldBytes;
    store.reset();
    for (let i = 0; i < 10; i++) store.copy(video(100 + i, i === 0 ? [150_000] : [20_000], i === 0));
    store.reset();
    expect(store.heldBytes).toBe(2 * GOP_CHUNK_BYTES);
    expect(chunks.idleBytes).toBe(big - 2 * GOP_CHUNK_BYTES);
    store.release();
    expect(store.heldBytes).toBe(0);
    expect(chunks.idleBytes).toBe(big);
  });

  describe('leased: a depacketiser assembles the units in the store', () => {
    /** A NAL unit of `size` bytes (IDR when `key`), its body `fill`. */
    const nal = (size: number, fill: number, key: boolean) => {
      const n = new Uint8Array(size).fill(fill & 0xff);
      n[0] = key ? 0x65 : 0x41;
      return n;
    };
    /** Frame i of a stream with a keyframe every `gop` frames (150 KB; P-frames 20-24 KB). */
    const frame = (i: number, gop: number) => nal(i % gop === 0 ? 150_000 : 20_000 + ((i * 131) % 4000), i, i % gop === 0);

    /** Feeds frames as RTP through one scratch buffer (overwritten after each packet); `each` sees the units of each push. */
    function feed(d: H264Depacketiser, frames: number, gop: number, each: (u: VideoAccessUnit, i: number) => void, from = 0) {
      const scratch = new Uint8Array(2048);
      const view = newRtpView();
      let seq = 0;
      for (let i = from; i < from + frames; i++) {
        const payloads = h264Payloads([frame(i, gop)], 1400);
        payloads.forEach((payload, k) => {
          const p = serializeRtp({ marker: k === payloads.length - 1, payloadType: 96, sequenceNumber: seq++ & 0xffff, timestamp: i * 3600, ssrc: 1, csrc: [], padding: 0, payload });
          scratch.set(p);
          for (const u of d.pushView(readRtp(scratch, 0, p.length, view))) each(u, i);
          scratch.fill(0xee);
        });
      }
    }

    it('keeps every unit of the GOP where it was assembled, intact until the next keyframe, and makes no chunk after the first GOPs', () => {
      const chunks = pool();
      const store = new GopStore(chunks);
      const d = new H264Depacketiser();
      d.useMemory(store.lease());
      let gop: { u: VideoAccessUnit; i: number }[] = [];
      let made = -1;
      let most = 0;
      feed(d, 400, 50, (u, i) => {
        expect(store.holds(u)).toBe(true);
        if (u.keyframe) {
          // Every unit of the GOP that ends is as it was assembled, though the next ones were assembled meanwhile.
          for (const g of gop) expect(Array.from(g.u.nalus[0])).toEqual(Array.from(frame(g.i, 50)));
          store.reset(u);
          gop = [];
          if (i === 100) made = chunks.stats.made;
        }
        gop.push({ u, i });
        most = Math.max(most, store.heldBytes);
      });
      expect(gop).toHaveLength(50);
      expect(chunks.stats.made).toBe(made);
      // A GOP is ~1.26 MB: its chunks, one more for the bytes before the keyframe in its first chunk, and one of a larger class at most.
      expect(most).toBeLessThanOrEqual(150_000 + 49 * 24_000 + 3 * GOP_CHUNK_BYTES);
    });

    it('units not kept (no keyframe yet) leave the store no larger than a chunk or two', () => {
      const store = new GopStore(pool());
      const d = new H264Depacketiser();
      d.useMemory(store.lease());
      let units = 0;
      feed(d, 300, 1000, (u) => {
        expect(store.holds(u)).toBe(true);
        store.reset(); // the hub drops a unit before the first keyframe
        units++;
      }, 1);
      expect(units).toBe(300);
      expect(store.heldBytes).toBeLessThanOrEqual(2 * GOP_CHUNK_BYTES);
    });

    it('a unit assembled elsewhere is not held; release() ends the lease and gives every chunk back', () => {
      const chunks = pool();
      const store = new GopStore(chunks);
      expect(store.holds(video(1, [100], true))).toBe(false);
      store.lease();
      expect(store.isLeased).toBe(true);
      store.ensure(0, 1000);
      store.commit(1000);
      store.release();
      expect(store.isLeased).toBe(false);
      expect(store.heldBytes).toBe(0);
      expect(chunks.idleBytes).toBe(GOP_CHUNK_BYTES);
    });
  });
});
