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
 *
 * With `writer` instead of a recorder each stream has only the segment writer the recorder writes
 * through (segment-writer.ts), and a second's access units are appended to it once a second, as the
 * recorder appends a fragment: the same bytes copied once into aligned chunks and written in as many
 * direct writes, with no muxing at all. What that costs is the floor under any recorder that keeps the crash bound with
 * these writes; what the recorder costs above it is the muxing (moof, sample tables, segment cuts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { findParameterSets, splitAnnexB, videoTrackFromParameterSets, type AccessUnit } from '@opencvr/codec';
import { RecorderOutput } from '../../apps/server/src/media/outputs/recorder';
import { openSegmentWriter, type SegmentWriter } from '../../apps/server/src/media/outputs/segment-writer';
import { CLIP_H264, FPS } from '../lib/camera';

const n = Number(process.argv[2] ?? 16);
const seconds = Number(process.argv[3] ?? 30);
const dir = process.argv[4];
if (!dir) throw new Error('usage: recorder-only.ts N SECONDS DIR [copy|writer]');
const mode = process.argv[5] ?? 'kept';
if (!['kept', 'copy', 'writer'].includes(mode)) throw new Error(`unknown mode ${mode}: copy or writer`);
const kept = mode !== 'copy';
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
/** The writer-only floor: a segment writer per stream, the units' bytes appended as they come. */
const writers: SegmentWriter[] =
  mode === 'writer'
    ? Array.from({ length: n }, (_, i) => {
        fs.mkdirSync(path.join(dir, String(i + 1)), { recursive: true });
        return openSegmentWriter(path.join(dir, String(i + 1), 'writer-only.bin'), {
          onError: (err) => {
            throw err;
          },
        });
      })
    : [];
const unitBytes = (au: Uint8Array[]) => au.reduce((sum, nal) => sum + nal.length, 0);
/** The NAL units of the current second, appended to every writer at its end. */
let second: Uint8Array[] = [];
const recorders = Array.from({ length: mode === 'writer' ? 0 : n }, (_, i) => {
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
  if (writers.length) {
    second.push(...au);
    if (second.length && (f + 1) % FPS === 0) {
      const length = unitBytes(second);
      for (const w of writers) w.append(second, length);
      second = [];
    }
  }
}
await Promise.all([...recorders.map((r) => r.stop()), ...writers.map((w) => w.close())]);
const c = process.cpuUsage(c0);
const bytes = recorders.reduce((s, r) => s + r.stats.bytes, 0) + writers.reduce((s, w) => s + w.bytes, 0);
console.log(JSON.stringify({ cpuSeconds: (c.user + c.system) / 1e6, seconds: (Date.now() - t0) / 1000, bytes }));
