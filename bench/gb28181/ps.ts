/**
 * PS demux throughput (issue 6 figure "PS demux throughput, MB/s per core").
 *
 * Stream: a 1080p25 H.264 clip (ffmpeg testsrc2 with temporal noise, x264 veryfast ~4 Mbit/s, GOP 50,
 * no B-frames; made once into the temp folder) with G.711 A-law audio (20 ms PES), muxed into a
 * Program Stream as GB28181 cameras send it (`@opencvr/ps` PsMuxer: pack header per frame, system
 * header + PSM before keyframes, PES ≤ 64 KiB) and cut into 1400-byte RTP payloads.
 *
 * Measured: CPU seconds of this process (process.cpuUsage, user + system; the demuxer is
 * synchronous, one thread) to push every payload through PsDemuxer (RTP marker → endOfFrame at each
 * frame's last payload) and the frames through PsTrackAssembler into hub access units, repeated
 * until at least `seconds` of CPU; MB/s per core = PS bytes / CPU seconds.
 *
 * Baseline, same run: ffmpeg 5.1 reading the same PS file and discarding the packets
 * four times over in one file (`ffmpeg -threads 1 -f mpeg -i FILE -map 0 -c copy -f null -`; the
 * copies keep its start-up a small share), its CPU seconds taken from the
 * children times of the shell that waited for it (/proc/PID/stat cutime + cstime), repeated as many
 * times as needed for at least `seconds` of CPU too.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { h264NalType, isH264Vcl, joinAnnexB, splitAnnexB } from '@opencvr/codec';
import { PsDemuxer, PsMuxer, PsTrackAssembler, StreamType } from '@opencvr/ps';
import type { Figure } from '../lib/figures';

const FPS = 25;

function ensureClip(): string {
  const file = path.join(os.tmpdir(), 'opencvr-bench-gb-1080p25.h264');
  if (fs.existsSync(file) && fs.statSync(file).size > 1e6) return file;
  const tmp = `${file}.${process.pid}.tmp`;
  const r = spawnSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1920x1080:rate=${FPS}`,
      '-t',
      '10',
      '-vf',
      'noise=alls=12:allf=t',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-b:v',
      '4M',
      '-maxrate',
      '4.4M',
      '-bufsize',
      '8M',
      '-g',
      '50',
      '-keyint_min',
      '50',
      '-sc_threshold',
      '0',
      '-bf',
      '0',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'h264',
      tmp,
    ],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('ffmpeg could not make the 1080p clip');
  fs.renameSync(tmp, file);
  return file;
}

function accessUnits(es: Uint8Array): Uint8Array[][] {
  const units: Uint8Array[][] = [];
  let cur: Uint8Array[] = [];
  let vcl = false;
  for (const n of splitAnnexB(es)) {
    const t = h264NalType(n);
    const starts = t === 9 || t === 7 || t === 8 || t === 6 || (isH264Vcl(n) && (n[1] & 0x80) !== 0);
    if (vcl && starts) {
      units.push(cur);
      cur = [];
      vcl = false;
    }
    cur.push(n);
    if (isH264Vcl(n)) vcl = true;
  }
  if (cur.length) units.push(cur);
  return units;
}

/** The clip as GB-style PS, in RTP-sized payloads with the marker on each frame's last. */
function gbPayloads(clip: string): { payloads: { data: Uint8Array; marker: boolean }[]; bytes: number; file: string } {
  const mux = new PsMuxer([
    { streamId: 0xe0, streamType: StreamType.h264 },
    { streamId: 0xc0, streamType: StreamType.pcma },
  ]);
  const audio = new Uint8Array(160).fill(0xd5);
  const frames: Uint8Array[] = [];
  accessUnits(new Uint8Array(fs.readFileSync(clip))).forEach((u, i) => {
    const pts = 90000 + i * 3600;
    frames.push(mux.frame({ streamId: 0xe0, pts, keyframe: u.some((n) => h264NalType(n) === 5), data: joinAnnexB(u) }));
    for (let k = 0; k < 2; k++) frames.push(mux.frame({ streamId: 0xc0, pts: pts + k * 1800, data: audio }));
  });
  const payloads: { data: Uint8Array; marker: boolean }[] = [];
  let bytes = 0;
  for (const f of frames) {
    for (let at = 0; at < f.length; at += 1400)
      payloads.push({ data: f.subarray(at, at + 1400), marker: at + 1400 >= f.length });
    bytes += f.length;
  }
  const file = path.join(os.tmpdir(), `opencvr-bench-gb-1080p25-${process.pid}.ps`);
  // Four copies in one file, so ffmpeg's start-up (~50 ms) is a small part of each baseline run.
  const once = Buffer.concat(frames);
  fs.writeFileSync(file, Buffer.concat([once, once, once, once]));
  return { payloads, bytes, file };
}

function cpuSeconds(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1e6;
}

/** CPU seconds of one ffmpeg run, from the waiting shell's children times. */
function ffmpegCpu(file: string): number {
  const r = spawnSync(
    'sh',
    [
      '-c',
      `ffmpeg -v error -threads 1 -f mpeg -i "$1" -map 0 -c copy -f null - </dev/null >/dev/null 2>&1; cat /proc/$$/stat`,
      'sh',
      file,
    ],
    {
      encoding: 'utf8',
    },
  );
  const fields = r.stdout.slice(r.stdout.lastIndexOf(')') + 2).split(' ');
  // After "(comm) ", field 3 is index 0: cutime is field 16, cstime 17.
  const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
  const hz = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  return ticks / hz;
}

export interface PsThroughput {
  figures: Figure[];
  /** For the log. */
  detail: string;
}

export async function measurePsDemux(seconds = 3): Promise<PsThroughput> {
  const clip = ensureClip();
  const { payloads, bytes, file } = gbPayloads(clip);
  try {
    // Warm-up (JIT), then measured passes.
    const pass = () => {
      const d = new PsDemuxer();
      const a = new PsTrackAssembler();
      let units = 0;
      for (const p of payloads) {
        for (const f of d.push(p.data)) units += a.push(f, d.streamMap).units.length;
        if (p.marker) for (const f of d.endOfFrame()) units += a.push(f, d.streamMap).units.length;
      }
      return units;
    };
    pass();
    let passes = 0;
    let units = 0;
    const start = process.cpuUsage();
    while (cpuSeconds(start) < seconds) {
      units += pass();
      passes++;
    }
    const cpu = cpuSeconds(start);
    const mbps = (bytes * passes) / 1e6 / cpu;

    let ffPasses = 0;
    let ffCpu = 0;
    while (ffCpu < seconds && ffPasses < 50) {
      ffCpu += ffmpegCpu(file);
      ffPasses++;
    }
    const baseline = ffCpu > 0 ? (4 * bytes * ffPasses) / 1e6 / ffCpu : null;
    const mbit = (bytes * 8) / 1e6 / (payloads.filter((p) => p.marker).length / 3 / FPS);
    return {
      figures: [
        {
          name: 'PS demux throughput, 1080p25 H.264 + G.711 GB-style PS in 1400-byte RTP payloads → hub access units (baseline: ffmpeg -f mpeg -c copy -f null, 1 thread)',
          value: Math.round(mbps * 10) / 10,
          unit: 'MB/s per core',
          baseline: baseline === null ? null : Math.round(baseline * 10) / 10,
          goal: null,
        },
        {
          name: '1080p25 GB streams one core can demux at this rate (stream ~ ' + mbit.toFixed(1) + ' Mbit/s)',
          value: Math.round((mbps * 8) / mbit),
          unit: 'streams',
          baseline: null,
          goal: null,
        },
      ],
      detail: `${passes} passes of ${(bytes / 1e6).toFixed(1)} MB (${payloads.length} payloads, ${units / passes} units each) in ${cpu.toFixed(2)} CPU-s; ffmpeg ${ffPasses} passes in ${ffCpu.toFixed(2)} CPU-s`,
    };
  } finally {
    fs.rmSync(file, { force: true });
  }
}
