/**
 * The live H.264 leg of an H.265 camera loses no picture and starts on one: every picture written to
 * ffmpeg comes back, in order, with its own time (with +nobuffer and ffmpeg's 5 s probe, the pictures
 * the probe read were thrown away: 80 of them at 15 fps, and the rest took the lost ones' times), and
 * a viewer of the leg gets as many pictures as a viewer of the H.265 original opened beside it, the
 * first a keyframe, the times evenly spaced. An ffmpeg killed and restarted gives the same SPS, so the
 * console keeps its one init. Timings are reported by bench/live/h264-leg.ts, not tested.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AccessUnit, Track } from '@opencvr/codec';
import type { SourceSink, Subscriber } from '../../src/media/hub.js';
import { LIVE_TRANSCODE, TranscodeSource } from '../../src/media/transcode.js';
import { collectWs, until } from '../helpers/index.js';
import { useCamera } from '../fixtures/use-camera.js';
import { useAdminApp } from '../api/admin-app.js';
import { openCameraStream } from './open-stream.js';

const cam = useCamera({ codec: 'h265' });
const api = useAdminApp({ listen: true });

/** ffprobe of a viewer's WS-fMP4 bytes: each video frame's time and whether it is a keyframe. */
function framesOf(file: string, bytes: Buffer[]) {
  fs.writeFileSync(file, Buffer.concat(bytes));
  const out = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts_time,key_frame', '-of', 'json', file], { encoding: 'utf8' }));
  return (out.frames as { pts_time: string; key_frame: number }[]).map((f) => ({ t: Number(f.pts_time), key: f.key_frame === 1 }));
}

describe('live H.265 through the H.264 transcoder', () => {
  it('gives back every picture it was given, in order, each with its own time, the first a keyframe', async () => {
    const opened = await openCameraStream(api, cam.url, 'ws_m4s');
    const hub = api.t.ctx.streams.get(opened.Stream)!;
    // The transcoder's input is the camera's hub until `feeding` ends, then nothing: finish() then
    // lets ffmpeg write out what it holds, so every picture in has had its chance to come out.
    let feeding = true;
    const inPts: number[] = [];
    const parent = {
      subscribe: (sub: Subscriber) =>
        hub.subscribe({
          tracks: (t: Track[]) => sub.tracks(t),
          unit: (track: number, unit: AccessUnit, kept?: boolean) => {
            if (feeding) sub.unit(track, unit, kept);
          },
          state: (s, reason, why) => sub.state?.(s, reason, why),
        }),
    };
    const out: AccessUnit[] = [];
    const sink: SourceSink = {
      tracks: () => undefined,
      unit: (_track, unit) => out.push(unit),
      failed: (reason) => {
        throw new Error(reason);
      },
    };
    const source = new TranscodeSource(() => parent, LIVE_TRANSCODE);
    // The times of the pictures written to ffmpeg (the source's own counter says which were).
    const write = source.unit.bind(source);
    source.unit = (track, unit) => {
      const before = source.stats.in;
      write(track, unit);
      if (source.stats.in > before) inPts.push(unit.pts);
    };
    source.start(sink);
    await until(() => source.stats.in >= 60, 20000);
    feeding = false;
    await source.finish();
    source.stop();

    expect(source.stats.dropped).toBe(0);
    expect(out.length).toBe(inPts.length);
    expect(out.map((u) => u.pts)).toEqual(inPts);
    expect(out[0]).toMatchObject({ kind: 'video', keyframe: true });
  }, 60000);

  it('a restarted ffmpeg gives the same parameter sets: the leg announces its track once', async () => {
    const opened = await openCameraStream(api, cam.url, 'ws_m4s');
    const hub = api.t.ctx.streams.get(opened.Stream)!;
    const announced: Track[][] = [];
    const spsSeen = new Set<string>();
    let out = 0;
    const source = new TranscodeSource(() => hub, LIVE_TRANSCODE);
    source.start({
      tracks: (t) => announced.push(t),
      unit: (_track, unit) => {
        out++;
        if (unit.kind === 'video' && unit.keyframe) for (const n of unit.nalus) if ((n[0] & 0x1f) === 7) spsSeen.add(Buffer.from(n).toString('hex'));
      },
      failed: (reason) => {
        throw new Error(reason);
      },
    });
    try {
      await until(() => out >= 20, 20000);
      // The supervisor's run is private; its pid is what a crash would take away.
      const pid = (source as unknown as { run?: { pid?: number } }).run?.pid;
      expect(pid).toBeGreaterThan(0);
      process.kill(pid!, 'SIGKILL');
      await until(() => (source as unknown as { run?: { pid?: number } }).run?.pid !== pid && out >= 60, 20000);
    } finally {
      source.stop();
    }
    expect(announced).toHaveLength(1);
    expect(spsSeen.size).toBe(1);
  }, 60000);

  it('a viewer of the leg gets as many pictures as a viewer of the original beside it, from a keyframe, evenly timed', async () => {
    const opened = await openCameraStream(api, cam.url, 'ws_m4s');
    const base = api.t.baseUrl!.replace('http', 'ws');
    // The original is live (its cached GOP full) before both viewers open at the same moment.
    await until(() => (api.t.ctx.streams.get(opened.Stream)?.stats.keyframes ?? 0) >= 2, 20000);
    const [original, leg] = await Promise.all([collectWs(`${base}${opened.URLs.WS_FMP4}`, () => false, 6000), collectWs(`${base}${opened.URLs.WS_FMP4_H264}`, () => false, 6000)]);
    const dir = api.t.settings.dataDir;
    const h265 = framesOf(path.join(dir, 'original.mp4'), original.binary);
    const h264 = framesOf(path.join(dir, 'leg.mp4'), leg.binary);
    expect(h265.length).toBeGreaterThan(30);
    // Both start on the same cached GOP; the leg may still hold the last picture or two in ffmpeg.
    expect(h264.length).toBeGreaterThanOrEqual(h265.length - 3);
    expect(h264[0].key).toBe(true);
    const steps = h264.slice(1).map((f, i) => f.t - h264[i].t);
    const median = [...steps].sort((a, b) => a - b)[Math.floor(steps.length / 2)];
    expect(median).toBeGreaterThan(0);
    expect(steps.filter((s) => s <= 0 || s > 1.5 * median)).toEqual([]);
    execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', path.join(dir, 'leg.mp4'), '-f', 'null', '-']);
  }, 60000);
});
