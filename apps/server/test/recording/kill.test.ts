/**
 * kill -9 while recording, on the real server process (node --import tsx src/main.ts) and a real
 * camera: after a restart on the same data, the interrupted segment is indexed, complete, playable,
 * and ends within 2 s of the kill (issue 5); manual recording resumes by itself. The second test does
 * it at the longest fragments the server takes (RECORD_FRAGMENT_SECONDS = MAX_FRAGMENT_SECONDS), at
 * random moments, three kills in a row; crash-bound.test.ts checks the rule itself at every instant.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/index.js';
import { createTestStorage, sleep, until, type TestStorage } from '../helpers/index.js';
import { md5, STRONG } from '../api/support.js';
import { freePort, startCamera, type Camera } from '../fixtures/camera.js';
import { decodes, ffprobe, fragmentDurations } from './support.js';
import { CRASH_LOSS_MS, MAX_FRAGMENT_SECONDS } from '../../src/media/outputs/recorder.js';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

let cam: Camera | undefined;
let storage: TestStorage | undefined;
let child: ChildProcess | undefined;
let db: Db | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await exited(child, 5000);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await db?.close();
  await storage?.cleanup();
  await cam?.stop();
  child = db = storage = cam = undefined;
});

function exited(c: ChildProcess, ms: number) {
  return new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    const timer = setTimeout(resolve, ms);
    c.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function startServer(env: NodeJS.ProcessEnv): { proc: ChildProcess; output: () => string } {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: SERVER_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { proc, output: () => out };
}

/** A server on `storage` recording the camera manually, restarted as the test asks. */
async function recordingServer(camera: Camera, data: TestStorage, extraEnv: NodeJS.ProcessEnv = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: data.dataDir,
    DATABASE_URL: data.databaseUrl ?? '',
    LOG_LEVEL: 'warn',
    CHANNEL_CHECK_INTERVAL: '0',
    ...extraEnv,
  };
  const start = async () => {
    const s = startServer(env);
    child = s.proc;
    await until(async () => (await fetch(`${base}/api/v1/gethomeotherconfig`).catch(() => undefined))?.ok, 30000).catch((e) => {
      throw new Error(`${e}: ${s.output()}`);
    });
  };
  await start();
  const get = async (url: string, token?: string) => {
    const res = await fetch(`${base}${url}`, { headers: token ? { token } : {} });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${body}`);
    return JSON.parse(body);
  };
  const post = async (url: string, payload: object, token?: string) => {
    const res = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { token } : {}) }, body: JSON.stringify(payload) });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${body}`);
    return JSON.parse(body);
  };
  const first = (await get(`/api/v1/login?username=admin&password=${md5('admin')}`)).EasyDarwin.Body.Token;
  await post('/api/v1/setinitial', { SipPassword: 'sip12345', EhomePassword: 'ehome123', OldPassword: md5('admin'), NewPassword: STRONG }, first);
  const token = (await get(`/api/v1/login?username=admin&password=${md5(STRONG)}`)).EasyDarwin.Body.Token;
  const dev = (await post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: camera.url }, token)).EasyDarwin.Body.DeviceID;
  await get(`/api/v1/realtimerecord/start?device=${dev}&channel=1`, token);
  db = await openDatabase({ dataDir: data.dataDir, databaseUrl: data.databaseUrl });
  return {
    start,
    /** The segment being recorded now (other than `except`, a segment killed before). */
    recordingRow: (except = -1) =>
      until(() => db!.kysely.selectFrom('recordings').selectAll().where('status', '=', 'recording').where('id', '!=', except).executeTakeFirst(), 20000),
    /** kill -9 of the server; the instant of the kill. */
    async kill() {
      child!.kill('SIGKILL');
      const killedAt = Date.now();
      await exited(child!, 5000);
      expect(child!.signalCode).toBe('SIGKILL');
      return killedAt;
    },
    /** After a restart: the row closed by reconciliation from its file. */
    closed: (id: number) =>
      until(async () => {
        const r = await db!.kysely.selectFrom('recordings').selectAll().where('id', '=', id).executeTakeFirst();
        return r?.status === 'complete' ? r : undefined;
      }, 20000),
  };
}

/** The interrupted segment: indexed as its file holds it, playable, ending within CRASH_LOSS_MS of the kill. */
function checkClosed(fixed: { path: string; end_at: string | Date; duration_ms: number | string; bytes: number | string }, killedAt: number) {
  const lostMs = killedAt - new Date(fixed.end_at).getTime();
  console.log(`kill -9: interrupted segment ${fixed.path} closed at ${fixed.duration_ms} ms; ${lostMs} ms before the kill`);
  expect(Math.abs(lostMs)).toBeLessThanOrEqual(CRASH_LOSS_MS);
  const file = path.join(storage!.dataDir, 'records', fixed.path);
  expect(fs.statSync(file).size).toBe(Number(fixed.bytes));
  const probe = ffprobe(file);
  expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
  expect(Math.abs(Number(probe.format.duration) * 1000 - Number(fixed.duration_ms))).toBeLessThan(200);
  decodes(file);
  return file;
}

describe('kill -9 while recording', () => {
  it('loses at most the last fragment: the interrupted segment is closed at its last whole fragment on restart', async () => {
    cam = await startCamera();
    storage = await createTestStorage();
    const server = await recordingServer(cam, storage);
    const row = await server.recordingRow();
    await sleep(6000);
    const killedAt = await server.kill();
    // nothing closed the row: it is still 'recording'
    expect((await db!.kysely.selectFrom('recordings').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('recording');

    await server.start();
    const fixed = await server.closed(row.id);
    checkClosed(fixed, killedAt);
    expect(Number(fixed.duration_ms)).toBeGreaterThan(4000);
    // the manual recording resumes after the restart, in a new segment
    await server.recordingRow(row.id);
  }, 90000);

  it('at the longest fragments the server takes, killed at random moments three times: each interrupted segment ends within 2 s of its kill', async () => {
    // The camera's keyframes come every 2 s (30 frames at 15 fps): fragments of 1.5 s asked are cut at
    // 22 frames (1.47 s), then 8 frames up to the keyframe.
    cam = await startCamera();
    storage = await createTestStorage();
    const server = await recordingServer(cam, storage, { RECORD_FRAGMENT_SECONDS: String(MAX_FRAGMENT_SECONDS) });
    let before = -1;
    for (let kill = 0; kill < 3; kill++) {
      const row = await server.recordingRow(before);
      // a moment with no relation to the fragments' or the write rounds' phase
      const wait = 2500 + Math.floor(Math.random() * 3000);
      await sleep(wait);
      const killedAt = await server.kill();
      await server.start();
      const fixed = await server.closed(row.id);
      console.log(`kill ${kill + 1}: ${wait} ms after the row appeared`);
      const file = checkClosed(fixed, killedAt);
      const lengths = fragmentDurations(file);
      expect(Math.max(...lengths)).toBeLessThanOrEqual(MAX_FRAGMENT_SECONDS);
      expect(Math.max(...lengths)).toBeGreaterThan(1.4);
      before = row.id;
    }
  }, 150000);
});
