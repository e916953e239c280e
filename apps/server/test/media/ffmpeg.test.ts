/**
 * The ffmpeg pieces: command lines pinned as golden strings, the supervisor (restart back-off, the
 * stderr tail as the reason, kill on stop), and the Annex-B reader that turns ffmpeg's stdout back
 * into pictures.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isH264Vcl, splitAnnexB } from '@opencvr/codec';
import { transcodeH264Args } from '../../src/media/ffmpeg/args.js';
import { Supervisor } from '../../src/media/ffmpeg/supervisor.js';
import { AnnexBAccessUnits } from '../../src/media/transcode-units.js';
import { LIVE_TRANSCODE } from '../../src/media/transcode.js';
import { until } from '../helpers/index.js';

describe('ffmpeg command lines', () => {
  it('H.265 → H.264 with the defaults', () => {
    expect(transcodeH264Args({ input: 'hevc' }).join(' ')).toBe(
      '-hide_banner -nostats -loglevel error -fflags +nobuffer -flags low_delay -f hevc -i pipe:0 -map 0:v:0 -an -sn -dn ' +
        '-c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p -profile:v high -crf 23 ' +
        '-g 50 -bf 0 -x264-params aud=1:repeat-headers=1 -fps_mode passthrough -f h264 pipe:1',
    );
  });

  it('with a bit rate, a size limit, a GOP and threads', () => {
    expect(transcodeH264Args({ input: 'h264', preset: 'ultrafast', bitrateKbps: 1500, maxHeight: 720, gop: 30, threads: 2 }).join(' ')).toBe(
      "-hide_banner -nostats -loglevel error -fflags +nobuffer -flags low_delay -f h264 -i pipe:0 -map 0:v:0 -an -sn -dn -vf scale=-2:'min(720,ih)' " +
        '-c:v libx264 -preset ultrafast -tune zerolatency -pix_fmt yuv420p -profile:v high -b:v 1500k -maxrate 1500k -bufsize 3000k ' +
        '-g 30 -bf 0 -x264-params aud=1:repeat-headers=1 -threads 2 -fps_mode passthrough -f h264 pipe:1',
    );
  });

  it('for playback: no probing (and no +nobuffer, which would drop what the probe read), steady parameter sets', () => {
    expect(transcodeH264Args({ input: 'h264', noProbe: true, steadyHeaders: true }).join(' ')).toBe(
      '-hide_banner -nostats -loglevel error -flags low_delay -probesize 32 -analyzeduration 0 -f h264 -i pipe:0 -map 0:v:0 -an -sn -dn ' +
        '-c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p -profile:v high -crf 23 ' +
        '-g 50 -bf 0 -x264-params aud=1:repeat-headers=1:chromaloc=0 -fps_mode passthrough -f h264 pipe:1',
    );
  });

  it('for the live H.264 leg: no probing, steady parameter sets, an IDR at each keyframe of the camera, FLV out', () => {
    expect(transcodeH264Args({ input: 'hevc', ...LIVE_TRANSCODE.encoder }).join(' ')).toBe(
      '-hide_banner -nostats -loglevel error -flags low_delay -probesize 32 -analyzeduration 0 -f hevc -i pipe:0 -map 0:v:0 -an -sn -dn ' +
        '-c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p -profile:v high -crf 23 ' +
        '-force_key_frames source -g 50 -bf 0 -x264-params aud=1:repeat-headers=1:chromaloc=0 -fps_mode passthrough -flush_packets 1 -f flv pipe:1',
    );
  });
});

describe('Supervisor', () => {
  it('restarts a failing process with a doubling delay and gives the stderr tail as the reason', async () => {
    const exits: [string, number | undefined][] = [];
    const s = new Supervisor({
      bin: '/bin/sh',
      args: ['-c', 'echo starting >&2; echo "Invalid data found when processing input" >&2; exit 3'],
      restartMinMs: 20,
      restartMaxMs: 70,
      onExit: (reason, next) => exits.push([reason, next]),
    });
    s.start();
    await until(() => exits.length >= 4, 5000, { everyMs: 10 });
    await s.stop();
    expect(exits.slice(0, 4).map((e) => e[1])).toEqual([20, 40, 70, 70]);
    expect(exits[0][0]).toBe('exited with code 3: Invalid data found when processing input');
    expect(s.stats.lastReason).toContain('code 3');
    expect(s.stats.starts).toBeGreaterThanOrEqual(4);
  });

  it('pipes stdin to stdout and kills the process on stop', async () => {
    const out: Buffer[] = [];
    let pid: number | undefined;
    let write: ((b: Uint8Array) => boolean) | undefined;
    const exits: [string, number | undefined][] = [];
    const s = new Supervisor({ bin: 'cat', args: [], onStart: (r) => ((pid = r.pid), (write = r.write)), onStdout: (c) => out.push(c), onExit: (r, n) => exits.push([r, n]) });
    s.start();
    expect(write!(Buffer.from('hello'))).toBe(true);
    await until(() => out.length > 0, 3000, { everyMs: 10 });
    expect(Buffer.concat(out).toString()).toBe('hello');
    await s.stop();
    expect(() => process.kill(pid!, 0)).toThrow();
    expect(exits).toHaveLength(1);
    expect(exits[0][1]).toBeUndefined(); // no restart after stop
    expect(write!(Buffer.from('late'))).toBe(false);
  });

  it('a missing program is an exit with a reason, retried', async () => {
    const exits: string[] = [];
    const s = new Supervisor({ bin: '/nonexistent/ffmpeg', args: [], restartMinMs: 10, onExit: (r) => exits.push(r) });
    s.start();
    await until(() => exits.length >= 2, 3000, { everyMs: 10 });
    await s.stop();
    expect(exits[0]).toBe('/nonexistent/ffmpeg not found');
  });
});

describe('AnnexBAccessUnits', () => {
  // x264 output of packages/codec/test/fixtures/make.sh (one slice per picture).
  const file = path.join(import.meta.dirname, '../../../../packages/codec/test/fixtures/h264-high-320x180.h264');
  const bytes = new Uint8Array(fs.readFileSync(file));
  const nalus = splitAnnexB(bytes);
  const pictures: string[][] = [];
  let cur: string[] = [];
  for (const n of nalus) {
    cur.push(Buffer.from(n).toString('hex'));
    if (isH264Vcl(n)) {
      pictures.push(cur);
      cur = [];
    }
  }

  for (const size of [1, 7, 188, 4096, bytes.length]) {
    it(`cuts an x264 stream read in ${size}-byte chunks into its pictures`, () => {
      const r = new AnnexBAccessUnits();
      const out: Uint8Array[][] = [];
      for (let at = 0; at < bytes.length; at += size) out.push(...r.push(bytes.subarray(at, at + size)));
      // every picture but the last comes out before the end of the stream
      expect(out).toHaveLength(pictures.length - 1);
      out.push(...r.flush());
      expect(out.map((p) => p.map((n) => Buffer.from(n).toString('hex')))).toEqual(pictures);
    });
  }
});
