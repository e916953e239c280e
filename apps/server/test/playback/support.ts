/** Helpers of the playback tests: one recording of the GStreamer camera, a WS playback client, an fMP4 timeline check. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { sleep, startTestApp, until, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { startCamera, type CameraOptions } from '../fixtures/camera.js';
import { addCamera, channelPk } from '../recording/support.js';
import { localStamp } from '../../src/services/recording/time.js';
import { playbackOptions } from '../../src/services/playback/index.js';
import type { PlaybackServiceOptions } from '../../src/services/playback/service.js';

export interface Recorded {
  t: TestApp;
  admin: string;
  dev: string;
  pk: number;
  rows: { id: number; start_at: string; end_at: string; path: string; bytes: number | string }[];
  from: Date;
  to: Date;
  tmp: string;
}

/** Records `seconds` of the test camera (segments of 3 s; `camera`: its codec, audio...) on an app listening on a port. */
export async function recordCamera(seconds = 10, camera: CameraOptions = {}, playback?: PlaybackServiceOptions): Promise<Recorded> {
  const cam = await startCamera(camera);
  const t = await startTestApp({ listen: true });
  if (playback) playbackOptions.set(t.ctx, playback);
  try {
    const admin = await initialise(t);
    await t.ctx.config.set('record', { SegmentSeconds: 3, MinFreeBytes: 0 });
    await t.ctx.recording.ready;
    const dev = await addCamera(t, admin, cam.url);
    const pk = await channelPk(t, dev);
    const start = await t.app.inject({ url: `/api/v1/realtimerecord/start?device=${dev}&channel=1`, headers: { token: admin } });
    if (start.statusCode !== 200) throw new Error(start.body);
    await until(() => t.ctx.db.selectFrom('recordings').select('id').where('channel_pk', '=', pk).executeTakeFirst(), 15000);
    await sleep(seconds * 1000);
    await t.app.inject({ url: `/api/v1/realtimerecord/stop?device=${dev}&channel=1`, headers: { token: admin } });
    const rows = await t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).orderBy('start_at').execute();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'playback-test-'));
    return { t, admin, dev, pk, rows, from: new Date(rows[0].start_at), to: new Date(rows[rows.length - 1].end_at), tmp };
  } finally {
    await cam.stop();
  }
}

export const stampOf = (ms: number) => localStamp(new Date(ms));

export interface Played {
  messages: Record<string, unknown>[];
  /** Binary frames in order (init segments and fragments). */
  binary: Buffer[];
  /** ms from open to the 'ended' state. */
  elapsed: number;
  ws: WebSocket;
}

/** Connects to a playback URL and collects what it sends until 'ended' (or `until` says stop). */
export function playWs(baseUrl: string, url: string, opts: { stop?: (p: Played) => boolean; timeoutMs?: number; onOpen?: (ws: WebSocket) => void } = {}): Promise<Played> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${url}`);
    const p: Played = { messages: [], binary: [], elapsed: 0, ws };
    const t0 = Date.now();
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error(`playback did not end in time: ${JSON.stringify(p.messages)}`));
    }, opts.timeoutMs ?? 30000);
    const finish = () => {
      clearTimeout(timer);
      p.elapsed = Date.now() - t0;
      resolve(p);
    };
    ws.on('open', () => opts.onOpen?.(ws));
    ws.on('message', (data, isBinary) => {
      if (isBinary) p.binary.push(Buffer.from(data as Buffer));
      else {
        const msg = JSON.parse(String(data));
        p.messages.push(msg);
        if (msg.type === 'state' && msg.state === 'ended') finish();
      }
      if (opts.stop?.(p)) finish();
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    ws.on('close', () => finish());
  });
}

export function ffprobeJson(file: string) {
  return JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' }),
  ) as { streams: { codec_name: string; nb_read_frames?: string; duration?: string }[]; format: { duration: string } };
}

/** ffmpeg decodes the whole file without an error message. */
export function decodeErrors(file: string): string {
  try {
    return execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
}

/** ffmpeg children of this test process that encode H.264: the H.264 legs' transcoders, live. */
export function transcoders(): number {
  let n = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('libx264')) n++;
    } catch {
      /* gone meanwhile */
    }
  }
  return n;
}

function boxes(buf: Buffer, start: number, end: number) {
  const out: { type: string; start: number; end: number }[] = [];
  for (let p = start; p + 8 <= end; ) {
    const size = buf.readUInt32BE(p);
    if (size < 8 || p + size > end) throw new Error(`bad box at ${p}`);
    out.push({ type: buf.toString('latin1', p + 4, p + 8), start: p, end: p + size });
    p += size;
  }
  return out;
}

/** Video (track 1) tfdt, duration (90 kHz) and mfhd sequence of every fragment of an fMP4 buffer. */
export function videoTimeline(buf: Buffer): { seq: number; base: number; duration: number }[] {
  const out: { seq: number; base: number; duration: number }[] = [];
  for (const moof of boxes(buf, 0, buf.length).filter((b) => b.type === 'moof')) {
    const kids = boxes(buf, moof.start + 8, moof.end);
    const mfhd = kids.find((k) => k.type === 'mfhd')!;
    for (const traf of kids.filter((k) => k.type === 'traf')) {
      const tk = boxes(buf, traf.start + 8, traf.end);
      const tfhd = tk.find((k) => k.type === 'tfhd')!;
      if (buf.readUInt32BE(tfhd.start + 12) !== 1) continue;
      const tfdt = tk.find((k) => k.type === 'tfdt')!;
      const base = buf[tfdt.start + 8] === 1 ? Number(buf.readBigUInt64BE(tfdt.start + 12)) : buf.readUInt32BE(tfdt.start + 12);
      const trun = tk.find((k) => k.type === 'trun')!;
      const flags = buf.readUInt32BE(trun.start + 8) & 0xffffff;
      const count = buf.readUInt32BE(trun.start + 12);
      let p = trun.start + 16 + (flags & 1 ? 4 : 0) + (flags & 4 ? 4 : 0);
      const per = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length * 4;
      let d = 0;
      for (let i = 0; i < count; i++, p += per) d += buf.readUInt32BE(p);
      out.push({ seq: buf.readUInt32BE(mfhd.start + 12), base, duration: d });
    }
  }
  return out;
}

/** Wall clock of a spliced recording: the first camera's part [from, change), the second's [resume, to). */
export interface SplicedRange {
  from: number;
  change: number;
  resume: number;
  to: number;
}

/**
 * One channel's recording that changes what the camera sends (picture size, codec) part-way: the two
 * cameras recorded at once in 3 s segments (the admin initialised here), then the index made `first`'s channel's recording: its
 * first two segments, then `second`'s segments that start after them (as one camera restarted with
 * other settings makes a part with a new init). Both cameras are stopped before this returns.
 */
export async function recordSpliced(
  t: TestApp,
  first: { url: string; stop(): Promise<void> },
  second: { url: string; stop(): Promise<void> },
  secondName: string,
): Promise<{ admin: string; dev: string; range: SplicedRange }> {
  try {
    const admin = await initialise(t);
    await t.ctx.config.set('record', { SegmentSeconds: 3, MinFreeBytes: 0 });
    await t.ctx.recording.ready;
    const dev = await addCamera(t, admin, first.url);
    const added = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: admin }, payload: { DeviceName: secondName, DeviceType: 'RTSP', RtspUrl: second.url } });
    const other = added.json().EasyDarwin.Body.DeviceID as string;
    const [pkA, pkB] = [await channelPk(t, dev), await channelPk(t, other)];
    for (const d of [dev, other]) {
      const res = await t.app.inject({ url: `/api/v1/realtimerecord/start?device=${d}&channel=1`, headers: { token: admin } });
      if (res.statusCode !== 200) throw new Error(res.body);
    }
    const rowsOf = (pk: number) => t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).orderBy('start_at').execute();
    await until(async () => (await rowsOf(pkA)).length >= 3 && (await rowsOf(pkB)).length >= 5, 40000);
    for (const d of [dev, other]) await t.app.inject({ url: `/api/v1/realtimerecord/stop?device=${d}&channel=1`, headers: { token: admin } });
    await sleep(500);
    const a = await rowsOf(pkA);
    const keep = a.slice(0, 2);
    const change = new Date(keep[1].end_at).getTime();
    const later = (await rowsOf(pkB)).filter((r) => new Date(r.start_at).getTime() >= change);
    if (!later.length) throw new Error('the second camera recorded nothing after the first one\'s two segments');
    await t.ctx.db.deleteFrom('recordings').where('id', 'in', a.slice(2).map((r) => r.id)).execute();
    await t.ctx.db.updateTable('recordings').set({ channel_pk: pkA }).where('id', 'in', later.map((r) => r.id)).execute();
    return { admin, dev, range: { from: new Date(keep[0].start_at).getTime(), change, resume: new Date(later[0].start_at).getTime(), to: new Date(later.at(-1)!.end_at).getTime() } };
  } finally {
    await first.stop();
    await second.stop();
  }
}
