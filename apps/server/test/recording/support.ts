/** Helpers of the recording tests: an independent fMP4 walker, ffprobe, a camera and its channel. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/index.js';

export interface TopBox {
  type: string;
  start: number;
  size: number;
}

/** Top-level boxes of a buffer; throws on a size that runs past the end. */
export function topBoxes(buf: Buffer): TopBox[] {
  const out: TopBox[] = [];
  let p = 0;
  while (p < buf.length) {
    const size = buf.readUInt32BE(p);
    const type = buf.toString('latin1', p + 4, p + 8);
    if (size < 8 || p + size > buf.length) throw new Error(`bad box ${type} size ${size} at ${p}`);
    out.push({ type, start: p, size });
    p += size;
  }
  return out;
}

function childBoxes(buf: Buffer, start: number, end: number): TopBox[] {
  const out: TopBox[] = [];
  let p = start;
  while (p + 8 <= end) {
    const size = buf.readUInt32BE(p);
    out.push({ type: buf.toString('latin1', p + 4, p + 8), start: p, size });
    p += size;
  }
  return out;
}

/** Per fragment: the video track's (track 1) duration in seconds, from trun sample durations (90 kHz). */
export function fragmentDurations(file: string): number[] {
  const buf = fs.readFileSync(file);
  const out: number[] = [];
  for (const moof of topBoxes(buf).filter((b) => b.type === 'moof')) {
    for (const traf of childBoxes(buf, moof.start + 8, moof.start + moof.size).filter((b) => b.type === 'traf')) {
      const kids = childBoxes(buf, traf.start + 8, traf.start + traf.size);
      const tfhd = kids.find((k) => k.type === 'tfhd')!;
      if (buf.readUInt32BE(tfhd.start + 12) !== 1) continue;
      const trun = kids.find((k) => k.type === 'trun')!;
      const flags = buf.readUInt32BE(trun.start + 8) & 0xffffff;
      const count = buf.readUInt32BE(trun.start + 12);
      let p = trun.start + 16 + (flags & 1 ? 4 : 0) + (flags & 4 ? 4 : 0);
      const per = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length * 4;
      let d = 0;
      for (let i = 0; i < count; i++, p += per) d += buf.readUInt32BE(p);
      out.push(d / 90000);
    }
  }
  return out;
}

export function ffprobe(file: string): { streams: { codec_name: string; width?: number; height?: number; nb_read_frames?: string }[]; format: { duration: string } } {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' }));
}

/** Decodes the whole file; throws on any decoding error. */
export function decodes(file: string) {
  execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']);
}

export async function addCamera(t: TestApp, token: string, url: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token }, payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: url } });
  if (res.statusCode !== 200) throw new Error(`adddevice: ${res.body}`);
  return res.json().EasyDarwin.Body.DeviceID as string;
}

export async function channelPk(t: TestApp, device: string, channel = '1'): Promise<number> {
  return (await t.ctx.inventory.channels.require(device, channel)).id;
}

/**
 * An RTSP device nobody answers (port 9, discard) and its channel's key: for tests that write index
 * rows and files themselves and need a channel to hang them on.
 */
export async function silentCamera(t: TestApp, token: string): Promise<{ dev: string; pk: number }> {
  const dev = await addCamera(t, token, 'rtsp://127.0.0.1:9/c');
  return { dev, pk: await channelPk(t, dev) };
}

/**
 * A test app for tests that write index rows directly: reconciliation at start drops rows whose files
 * are missing, and the first retention pass deletes old rows, so both are over before it is returned
 * (a slow database, as PostgreSQL in CI, otherwise saw rows vanish mid-test).
 */
export async function startIndexTestApp(): Promise<TestApp> {
  const t = await startTestApp();
  await t.ctx.recording.ready;
  await t.ctx.recording.retention();
  return t;
}
