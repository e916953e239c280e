/**
 * The set-up of the kill -9 tests (kill.test.ts, kill-longest-fragments.test.ts): the real server
 * process (node --import tsx src/main.ts) recording a real camera manually on its own storage, killed
 * and restarted as a test asks, and the check of the segment a kill interrupted. `useKillRig()`
 * registers the afterEach that stops the server, the camera and the storage.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import { openDatabase, type Db } from '../../src/db/index.js';
import { createTestStorage, until, type TestStorage } from '../helpers/index.js';
import { md5, STRONG } from '../api/support.js';
import { freePort, startCamera, type Camera } from '../fixtures/camera.js';
import { decodes, ffprobe } from './support.js';
import { CRASH_LOSS_MS } from '../../src/media/outputs/recorder.js';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

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

export function useKillRig() {
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

  /** A camera and fresh storage, and a server on them recording the camera manually, restarted as the test asks. */
  async function recordingServer(extraEnv: NodeJS.ProcessEnv = {}) {
    cam = await startCamera();
    storage = await createTestStorage();
    const data = storage;
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
    const dev = (await post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url }, token)).EasyDarwin.Body.DeviceID;
    await get(`/api/v1/realtimerecord/start?device=${dev}&channel=1`, token);
    db = await openDatabase({ dataDir: data.dataDir, databaseUrl: data.databaseUrl });
    const opened = db;
    return {
      start,
      /** The server's database, opened beside it. */
      db: opened,
      /** The segment being recorded now (other than `except`, a segment killed before). */
      recordingRow: (except = -1) =>
        until(() => opened.kysely.selectFrom('recordings').selectAll().where('status', '=', 'recording').where('id', '!=', except).executeTakeFirst(), 20000),
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
          const r = await opened.kysely.selectFrom('recordings').selectAll().where('id', '=', id).executeTakeFirst();
          return r?.status === 'complete' ? r : undefined;
        }, 20000),
      /** The interrupted segment: indexed as its file holds it, playable, ending within CRASH_LOSS_MS of the kill; its file. */
      checkClosed(fixed: { path: string; end_at: string | Date; duration_ms: number | string; bytes: number | string }, killedAt: number) {
        const lostMs = killedAt - new Date(fixed.end_at).getTime();
        console.log(`kill -9: interrupted segment ${fixed.path} closed at ${fixed.duration_ms} ms; ${lostMs} ms before the kill`);
        expect(Math.abs(lostMs)).toBeLessThanOrEqual(CRASH_LOSS_MS);
        const file = path.join(data.dataDir, 'records', fixed.path);
        expect(fs.statSync(file).size).toBe(Number(fixed.bytes));
        const probe = ffprobe(file);
        expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
        expect(Math.abs(Number(probe.format.duration) * 1000 - Number(fixed.duration_ms))).toBeLessThan(200);
        decodes(file);
        return file;
      },
    };
  }
  return { recordingServer };
}
