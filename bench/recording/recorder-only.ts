/**
 * The recorder alone, in its own process (`node --import tsx bench/recording/recorder-only.ts N SECONDS DIR [copy]`):
 * N RecorderOutputs (apps/server/src/media/outputs/recorder.ts, the server's own) fed the live
 * benchmark's 1080p25 clip in real time (25 access units per second per stream; the NAL buffers are shared between the streams, as the
 * depacketiser copy belongs to the ingest), writing segment files under DIR with fdatasync as
 * in the server; the index is a no-op store (the server's index writes are one UPDATE per recorder
 * per second). As the hub does, units are given as kept (the clip's buffers never change) and
 * gopEnd() comes before each keyframe, so the recorder holds video by reference; with `copy` they are
 * given as lent, and copied. Prints {"cpuSeconds", "seconds", "bytes"} as JSON: what the recorder
 * itself costs, without the ingest and the rest of the server around it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { findParameterSets, splitAnnexB, videoTrackFromParameterSets, type AccessUnit } from '@opencvr/codec';
import { RecorderOutput } from '../../apps/server/src/media/outputs/recorder';
import { CLIP_H264, FPS } from './camera';

const n = Number(process.argv[2] ?? 16);
const seconds = Number(process.argv[3] ?? 30);
const dir = process.argv[4];
if (!dir) throw new Error('usage: recorder-only.ts N SECONDS DIR [copy]');
const kept = process.argv[5] !== 'copy';
const nalus = splitAnnexB(new Uint8Array(fs.readFileSync(CLIP_H264)));
const units: Uint8Array[][] = [[]];
for (const nal of nalus) {
  if ((nal[0] & 0x1f) === 9) units.push([]);
  else units[units.length - 1].push(nal);
}
const aus = units.filter((u) => u.length);
const ps = findParameterSets('h264', nalus);
if (!ps.sps || !ps.pps) throw new Error('no SPS/PPS in the clip');
const track = videoTrackFromParameterSets('h264', { sps: ps.sps, pps: ps.pps });
const recorders = Array.from({ length: n }, (_, i) => {
  const r = new RecorderOutput({
    channelPk: i + 1,
    root: dir,
    rootKey: '',
    segmentSeconds: 20,
    pathFor: (s, a) => path.join(String(i + 1), `${s.getTime()}-${a}.mp4`),
    store: { create: async () => 1, update: async () => undefined },
  });
  r.tracks([track]);
  return r;
});
const t0 = Date.now();
const c0 = process.cpuUsage();
const frameMs = 1000 / FPS;
for (let f = 0; f < seconds * FPS; f++) {
  const wait = t0 + f * frameMs - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const au = aus[f % aus.length];
  const keyframe = au.some((x) => (x[0] & 0x1f) === 5);
  const ticks = Math.round(f * (90000 / FPS));
  for (const r of recorders) {
    const unit: AccessUnit = { kind: 'video', pts: ticks, dts: ticks, keyframe, nalus: au };
    if (keyframe) r.gopEnd(0, unit);
    r.unit(0, unit, kept);
  }
}
await Promise.all(recorders.map((r) => r.stop()));
const c = process.cpuUsage(c0);
const bytes = recorders.reduce((s, r) => s + r.stats.bytes, 0);
console.log(JSON.stringify({ cpuSeconds: (c.user + c.system) / 1e6, seconds: (Date.now() - t0) / 1000, bytes }));
