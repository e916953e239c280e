/**
 * Channel thumbnails without a camera: the hub's cached keyframe read without subscribing, the store's
 * confined file names and its restart read, and the refresher's order and bounds (one decode at a
 * time, the stalest stream first, the sub stream of a channel, no variant, a failing stream does
 * not hold up the others, none made for a card nobody looks at) with a counting runner; one real ffmpeg decode scaled to a card's width.
 * With fake timers: no timer is armed while nothing is due (nobody looks, or every looked-at picture is
 * fresh), and a card asking, channelsnap or a refresh falling due still gets its picture on time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeJpeg, runProcess, snapshotArgs, type Runner } from '../../src/media/snapshot.js';
import { StreamHub, type MediaSource, type SourceSink } from '../../src/media/hub.js';
import { ThumbnailStore } from '../../src/services/media/thumbnail-store.js';
import { ChannelThumbnails } from '../../src/services/media/thumbnails.js';
import { sleep, until } from '../helpers/index.js';
import { videoStream } from '../../../../packages/fmp4/test/helpers/streams.js';

const H264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);

function fakeHub(key: string, onDemand = false) {
  let sink: SourceSink | undefined;
  const source: MediaSource = { start: (s) => void (sink = s), stop: () => undefined };
  const hub = new StreamHub(key, () => source, { onDemand, graceMs: 60_000, retryMinMs: 10, retryMaxMs: 10, maxGopUnits: 100 });
  return { hub, sink: () => sink! };
}

/** A hub that is live with a keyframe cached. */
function liveHub(key: string) {
  const h = fakeHub(key);
  h.sink().tracks([H264.track]);
  for (const u of H264.units.slice(0, 3)) h.sink().unit(0, u);
  return h.hub;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thumbs-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('StreamHub.cachedKeyframe', () => {
  it('a copy of the cached keyframe with its track; no viewer added, none before a keyframe', () => {
    const { hub, sink } = fakeHub('stream_1_0', true);
    hub.touch();
    expect(hub.cachedKeyframe()).toBeUndefined();
    sink().tracks([H264.track]);
    expect(hub.cachedKeyframe()).toBeUndefined();
    const key = H264.units[0];
    if (key.kind !== 'video') throw new Error('video');
    sink().unit(0, key);
    sink().unit(0, H264.units[1]);
    const got = hub.cachedKeyframe()!;
    expect(got.track).toBe(H264.track);
    expect(got.unit.keyframe).toBe(true);
    expect(got.unit.nalus.map((n) => Buffer.from(n).toString('hex'))).toEqual(key.nalus.map((n) => Buffer.from(n).toString('hex')));
    // its own bytes: the hub's store may be reused
    expect(got.unit.nalus[0].buffer).not.toBe(key.nalus[0].buffer);
    expect(hub.viewers).toBe(0);
    hub.stop();
  });
});

describe('ThumbnailStore', () => {
  it('names files from a positive integer only, inside its folder', () => {
    const store = new ThumbnailStore(dir);
    expect(store.fileOf(12)).toBe(path.join(dir, '12.jpg'));
    for (const bad of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) expect(store.fileOf(bad)).toBeUndefined();
  });

  it('after a restart: knows what was written, drops deleted channels and half-written files', async () => {
    const a = new ThumbnailStore(dir);
    await a.write(1, JPEG);
    await a.write(2, JPEG);
    fs.writeFileSync(path.join(dir, '3.jpg.tmp'), 'half');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'kept');
    const b = new ThumbnailStore(dir);
    expect(b.writtenAt(1)).toBe(0);
    await b.load((pk) => pk === 1);
    expect(b.writtenAt(1)).toBe(a.writtenAt(1));
    expect(b.writtenAt(2)).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(['1.jpg', 'notes.txt']);
    expect((await b.stat(1))?.size).toBe(JPEG.length);
    expect(await b.stat(2)).toBeUndefined();
  });
});

describe('ChannelThumbnails', () => {
  function service(run: Runner, hubs: StreamHub[], opts: Partial<ChannelThumbnails['opts']> = {}) {
    return new ChannelThumbnails(
      { dataDir: dir, hubs: () => hubs, channelIds: async () => [1, 2, 3, 4, 5, 6] },
      { run, gapMs: 5, refreshMs: 60_000, ...opts },
    );
  }

  it('one decode at a time, the stalest first, the sub stream of a channel, never a variant, each once per refresh', async () => {
    let running = 0;
    let peak = 0;
    const order: string[] = [];
    const hubs = [
      liveHub('stream_1_0'),
      liveHub('stream_1_1'),
      liveHub('stream_1_0_h264'),
      liveHub('stream_3_0'),
      liveHub('stream_2_0'),
      liveHub('stream_4_0'),
    ];
    const priorities = new Set<number | undefined>();
    const run: Runner = async (_cmd, _args, _stdin, _timeoutMs, niceness) => {
      running++;
      peak = Math.max(peak, running);
      order.push(current);
      priorities.add(niceness);
      await sleep(10);
      running--;
      return { stdout: JPEG, stderr: '' };
    };
    // The hub being decoded: the one whose keyframe was taken last.
    let current = '';
    for (const h of hubs) {
      const take = h.cachedKeyframe.bind(h);
      h.cachedKeyframe = () => ((current = h.key), take());
    }
    const svc = service(run, hubs);
    // Found by load() at start: channel 2's thumbnail is two hours old, 3's one hour, 4's recent (not
    // due); channel 1 has none.
    for (const pk of [2, 3, 4]) await svc.store.write(pk, JPEG);
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
    fs.utimesSync(svc.store.fileOf(2)!, hoursAgo(2), hoursAgo(2));
    fs.utimesSync(svc.store.fileOf(3)!, hoursAgo(1), hoursAgo(1));
    for (const pk of [1, 2, 3, 4]) svc.asked(pk);
    await svc.start();
    await until(() => svc.stats.made === 3);
    await sleep(50); // nothing more is due
    await svc.stop();
    expect(peak).toBe(1);
    expect([...priorities]).toEqual([10]); // ffmpeg at low CPU priority
    expect(order).toEqual(['stream_1_1', 'stream_2_0', 'stream_3_0']);
    expect(svc.stats.made).toBe(3);
    for (const pk of [1, 2, 3]) expect(fs.readFileSync(svc.store.fileOf(pk)!)).toEqual(JPEG);
    for (const h of hubs) h.stop();
  });

  it('a stream that fails is not tried again before refreshMs and does not hold up the others', async () => {
    const hubs = [liveHub('stream_1_0'), liveHub('stream_2_0')];
    let calls = 0;
    const run: Runner = async () => {
      calls++;
      // The first stream's decode fails.
      if (calls === 1) return { stdout: Buffer.from('not a jpeg'), stderr: '' };
      return { stdout: JPEG, stderr: '' };
    };
    const svc = service(run, hubs);
    for (const pk of [1, 2]) svc.asked(pk);
    await svc.start();
    await until(() => svc.stats.made === 1);
    await sleep(50);
    await svc.stop();
    expect(svc.stats).toEqual({ made: 1, failed: 1 });
    expect(calls).toBe(2);
    for (const h of hubs) h.stop();
  });

  it('only the pictures cards asked for lately are made: none for a stream nobody looks at, stale or missing', async () => {
    const hubs = [liveHub('stream_1_0'), liveHub('stream_2_0'), liveHub('stream_3_0'), liveHub('stream_4_0')];
    const made: string[] = [];
    let current = '';
    for (const h of hubs) {
      const take = h.cachedKeyframe.bind(h);
      h.cachedKeyframe = () => ((current = h.key), take());
    }
    const run: Runner = async () => (made.push(current), { stdout: JPEG, stderr: '' });
    const svc = service(run, hubs, { refreshMs: 60_000, interestMs: 60_000 });
    // 1 and 2 made ten minutes ago (past refreshMs), 3 and 4 never.
    for (const pk of [1, 2]) {
      await svc.store.write(pk, JPEG);
      const tenMinutesAgo = new Date(Date.now() - 600_000);
      fs.utimesSync(svc.store.fileOf(pk)!, tenMinutesAgo, tenMinutesAgo);
    }
    svc.asked(2);
    svc.asked(4);
    await svc.start();
    await until(() => svc.stats.made === 2);
    await sleep(50); // 1 and 3: nobody looks
    await svc.stop();
    expect(made).toEqual(['stream_4_0', 'stream_2_0']);
    for (const h of hubs) h.stop();
  });

  it('channelsnap puts a fresh stream first; a thumbnail younger than snapMinAgeMs is not made again', async () => {
    const hubs = [liveHub('stream_1_0')];
    let calls = 0;
    const run: Runner = async () => {
      calls++;
      return { stdout: JPEG, stderr: '' };
    };
    const svc = service(run, hubs, { snapMinAgeMs: 0 });
    svc.asked(1);
    await svc.start();
    await until(() => svc.stats.made === 1);
    // Not due by refreshMs; snapped() asks for it anyway.
    svc.snapped(hubs[0]);
    await until(() => svc.stats.made === 2);
    svc.opts.snapMinAgeMs = 60_000;
    svc.snapped(hubs[0]);
    await sleep(50);
    await svc.stop();
    expect(calls).toBe(2);
    hubs[0].stop();
  });

  describe('sleeps while nothing is due (fake timers)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    /**
     * Until `check` holds, with real I/O (the store's file writes) let run: fake timers leave
     * setImmediate and the clock of performance.now alone.
     */
    async function settle(check: () => boolean) {
      const end = performance.now() + 5000;
      while (!check() && performance.now() < end) await new Promise((r) => setImmediate(r));
      expect(check()).toBe(true);
    }

    it('no timer with no card asking; a card asking is served within gapMs, then none until its refresh is due', async () => {
      const hubs = [liveHub('stream_1_0')];
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
      let looks = 0;
      let calls = 0;
      const run: Runner = async () => (calls++, { stdout: JPEG, stderr: '' });
      const svc = new ChannelThumbnails(
        { dataDir: dir, hubs: () => (looks++, hubs), channelIds: async () => [1] },
        { run, gapMs: 500, refreshMs: 60_000, interestMs: 600_000 },
      );
      await svc.start();
      await vi.advanceTimersByTimeAsync(0); // the first look at start
      expect(looks).toBe(1);
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(looks).toBe(1);
      expect(calls).toBe(0);

      // The store dates a picture by its file's time (the real clock): the fake one is set back to it.
      vi.setSystemTime(performance.timeOrigin + performance.now());
      svc.asked(1);
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(499);
      expect(calls).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      await settle(() => svc.stats.made === 1);
      // The pause after the decode, one look that finds the picture fresh, then a timer for its refresh only.
      await vi.advanceTimersByTimeAsync(500);
      const afterMade = looks;
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(55_000);
      expect(looks).toBe(afterMade);
      expect(calls).toBe(1);
      // Still looked at (interestMs): made again once refreshMs has gone by.
      await vi.advanceTimersByTimeAsync(5_000);
      await settle(() => svc.stats.made === 2);
      expect(calls).toBe(2);
      await svc.stop();
      expect(vi.getTimerCount()).toBe(0);
      hubs[0].stop();
    });

    it('a looked-at channel with no stream is looked at every gapMs (a viewer may open it); channelsnap wakes a sleeping scheduler', async () => {
      const hubs: StreamHub[] = [];
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
      let looks = 0;
      const run: Runner = async () => ({ stdout: JPEG, stderr: '' });
      const svc = new ChannelThumbnails(
        { dataDir: dir, hubs: () => (looks++, hubs), channelIds: async () => [1] },
        { run, gapMs: 500, refreshMs: 60_000, interestMs: 600_000, snapMinAgeMs: 0 },
      );
      svc.asked(1);
      await svc.start();
      await vi.advanceTimersByTimeAsync(2_000);
      // Each look asks for the hubs twice (next() and nextDue()): at 0, 500, 1000, 1500 and 2000 ms.
      expect(looks).toBe(10);
      // The stream comes up (nothing tells the service): its picture within gapMs, then a sleep until its refresh.
      hubs.push(liveHub('stream_1_0'));
      await vi.advanceTimersByTimeAsync(500);
      await settle(() => svc.stats.made === 1);
      await vi.advanceTimersByTimeAsync(500);
      const before = looks;
      await vi.advanceTimersByTimeAsync(30_000);
      expect(looks).toBe(before);
      // channelsnap: made within gapMs although not due by refreshMs.
      svc.snapped(hubs[0]);
      await vi.advanceTimersByTimeAsync(500);
      await settle(() => svc.stats.made === 2);
      await svc.stop();
      hubs[0].stop();
    });
  });

  it('real ffmpeg: a JPEG scaled down to the card width, never up', async () => {
    expect(snapshotArgs('h264', { width: 160 }).join(' ')).toBe(
      "-hide_banner -loglevel error -nostdin -f h264 -i pipe:0 -frames:v 1 -vf scale='min(160,iw)':-2 -f image2 -c:v mjpeg -q:v 4 pipe:1",
    );
    const hubs = [liveHub('stream_1_0')];
    const svc = new ChannelThumbnails({ dataDir: dir, hubs: () => hubs, channelIds: async () => [1] }, { gapMs: 5, width: 160 });
    svc.asked(1);
    await svc.start();
    await until(() => svc.stats.made === 1 || svc.stats.failed);
    await svc.stop();
    expect(svc.stats.failed).toBe(0);
    const jpeg = fs.readFileSync(svc.store.fileOf(1)!);
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(jpegSize(jpeg)).toEqual({ width: 160, height: 120 });
    const big = await decodeJpeg(hubs[0].cachedKeyframe()!, { run: runProcess, ffmpeg: 'ffmpeg', timeoutMs: 5000, width: 640 });
    expect(jpegSize(big)).toEqual({ width: 320, height: 240 });
    hubs[0].stop();
  });
});

/** Width and height from a JPEG's SOF marker. */
function jpegSize(b: Buffer) {
  let i = 2;
  while (i + 9 < b.length) {
    const marker = b[i + 1];
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  return undefined;
}
