/**
 * Snapshot pieces without a camera: ffmpeg's command line (golden strings), the Annex-B input, the
 * concurrency bound, the cache and request sharing, the timeout that kills a hung process; and the
 * stream-status figures (bitrate window, frame rate, viewers per output).
 */
import { describe, expect, it } from 'vitest';
import { toHex, type Track } from '@opencvr/codec';
import {
  keyframeAnnexB,
  runProcess,
  snapshotArgs,
  SnapshotError,
  SnapshotService,
  type Runner,
} from '../../src/media/snapshot.js';
import { frameRate, OutputViewers, StreamStatsSampler } from '../../src/media/stats.js';
import { StreamHub, type MediaSource, type SourceSink } from '../../src/media/hub.js';
import { videoStream } from '../../../../packages/fmp4/test/helpers/streams.js';

const H264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
const H265 = videoStream('h265', 'h265-320x240-25fps-bf2.hevc');

function liveHub(key = 'stream_1_0') {
  let sink: SourceSink | undefined;
  const source: MediaSource = { start: (s) => void (sink = s), stop: () => undefined };
  const hub = new StreamHub(key, () => source, {
    onDemand: false,
    graceMs: 1000,
    retryMinMs: 10,
    retryMaxMs: 10,
    maxGopUnits: 100,
  });
  return { hub, sink: () => sink! };
}

describe('snapshot ffmpeg command line', () => {
  it('h264 and hevc (golden)', () => {
    expect(snapshotArgs('h264').join(' ')).toBe(
      '-hide_banner -loglevel error -nostdin -f h264 -i pipe:0 -frames:v 1 -f image2 -c:v mjpeg -q:v 4 pipe:1',
    );
    expect(snapshotArgs('h265', { quality: 2 }).join(' ')).toBe(
      '-hide_banner -loglevel error -nostdin -f hevc -i pipe:0 -frames:v 1 -f image2 -c:v mjpeg -q:v 2 pipe:1',
    );
  });

  it('input: parameter sets (VPS first for H.265), then the keyframe, with start codes', () => {
    const key = H264.units[0];
    if (key.kind !== 'video') throw new Error('video');
    const a = keyframeAnnexB(H264.track, key);
    expect(toHex(a.subarray(0, 5))).toBe(`00000001${toHex(H264.track.sps.subarray(0, 1))}`);
    const h = keyframeAnnexB(H265.track, H265.units[0]);
    expect(toHex(h.subarray(4, 5))).toBe(toHex(H265.track.vps!.subarray(0, 1)));
  });
});

describe('SnapshotService', () => {
  it('decodes the cached GOP keyframe with real ffmpeg, caches it, shares concurrent requests', async () => {
    const { hub, sink } = liveHub();
    sink().tracks([H264.track]);
    for (const u of H264.units.slice(0, 5)) sink().unit(0, u);
    const snaps = new SnapshotService();
    const [a, b] = await Promise.all([snaps.jpeg(hub), snaps.jpeg(hub)]);
    expect([...a.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(b).toBe(a);
    expect(await snaps.jpeg(hub)).toBe(a);
    expect(snaps.stats).toMatchObject({ runs: 1, cacheHits: 1 });
    expect(hub.viewers).toBe(0); // the probe subscriber left
    hub.stop();
  });

  it('never runs more than maxConcurrent at once', async () => {
    let running = 0;
    let peak = 0;
    const run: Runner = async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 30));
      running--;
      return { stdout: Buffer.from([0xff, 0xd8, 0xff, 0xd9]), stderr: '' };
    };
    const snaps = new SnapshotService({ run, maxConcurrent: 2 });
    const hubs = Array.from({ length: 7 }, (_, i) => liveHub(`stream_${i + 1}_0`));
    for (const h of hubs) {
      h.sink().tracks([H264.track]);
      h.sink().unit(0, H264.units[0]);
    }
    await Promise.all(hubs.map((h) => snaps.jpeg(h.hub)));
    expect(peak).toBe(2);
    expect(snaps.stats.runs).toBe(7);
    for (const h of hubs) h.hub.stop();
  });

  it('no keyframe in time / no video: a typed error', async () => {
    const { hub, sink } = liveHub();
    const snaps = new SnapshotService({ keyframeWaitMs: 50 });
    await expect(snaps.jpeg(hub)).rejects.toMatchObject({ code: 'no-video' });
    sink().tracks([H264.track]);
    await expect(snaps.jpeg(hub)).rejects.toMatchObject({ code: 'no-keyframe' });
    hub.stop();
  });

  it('the process runner kills a process past its deadline, and reports a failed exit', async () => {
    const started = Date.now();
    await expect(runProcess('sleep', ['10'], new Uint8Array(0), 200)).rejects.toBeInstanceOf(SnapshotError);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(runProcess('ffmpeg', snapshotArgs('h264'), Uint8Array.of(1, 2, 3), 5000)).rejects.toMatchObject({
      code: 'decode-failed',
    });
  });
});

describe('stream status', () => {
  it('bitrate over the window, frame rate from the unit rate, size and codec from the tracks', () => {
    let now = 1_000_000;
    const { hub, sink } = liveHub();
    const sampler = new StreamStatsSampler(5000, () => now);
    sink().tracks([H264.track]);
    sink().unit(0, H264.units[0]);
    const bytes0 = hub.stats.bytes;
    sampler.status(hub);
    for (let s = 0; s < 4; s++) {
      for (let i = 0; i < 25; i++)
        sink().unit(0, { kind: 'video', dts: 0, pts: 0, keyframe: false, nalus: [new Uint8Array(500)] });
      now += 1000;
      sampler.status(hub);
    }
    const st = sampler.status(hub, { FLV: 2, HLS: 1 });
    expect(hub.stats.bytes - bytes0).toBe(4 * 25 * 500);
    expect(st).toMatchObject({
      state: 'live',
      width: 320,
      height: 240,
      videoCodec: 'h264',
      fps: 25,
      bitrateKbps: 100,
      totalViewers: 3,
      viewers: { FLV: 2, HLS: 1 },
    });
    hub.stop();
  });

  it('frameRate with audio: the SPS timing when it has some, else less the audio packet rate', () => {
    const aac: Track = {
      kind: 'audio',
      codec: 'aac',
      sampleRate: 16000,
      channels: 1,
      config: Uint8Array.of(0x14, 0x08),
      codecString: 'mp4a.40.2',
      clockRate: 16000,
    };
    expect(frameRate([H264.track], 14.9)).toBe(14.9);
    const withVui = frameRate([H264.track, aac], 40.6);
    expect(withVui === 25 || Math.abs(withVui - (40.6 - 15.625)) < 1e-9).toBe(true);
    expect(frameRate([aac], 15)).toBe(0);
  });

  it('OutputViewers: per-connection counts and providers', () => {
    const v = new OutputViewers();
    const a = v.add('k', 'FLV');
    const b = v.add('k', 'FLV');
    v.add('k', 'WS_FMP4');
    const stop = v.provide('HLS', (key) => (key === 'k' ? 3 : 0));
    expect(v.of('k')).toEqual({ FLV: 2, WS_FMP4: 1, HLS: 3 });
    a();
    a();
    b();
    stop();
    expect(v.of('k')).toEqual({ WS_FMP4: 1 });
    expect(v.of('other')).toEqual({});
  });
});
