/**
 * Crash safety at start (reconciliation), retention and the path checks, on files made by ffmpeg's
 * fragmented MP4 muxer (an independent producer) and on index rows written by hand.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { scanMp4 } from '../../src/services/recording/mp4-scan.js';
import { reconcile } from '../../src/services/recording/reconcile.js';
import { safeJoin, segmentPath, UnsafePathError } from '../../src/services/recording/paths.js';
import { rootsOnDisk, runRetention } from '../../src/services/recording/retention.js';
import { localDay } from '../../src/services/recording/time.js';
import { decodes, ffprobe, topBoxes } from './support.js';

let t: TestApp;
let root: string;
let fixture: string;

/** A 6 s fragmented MP4 (one fragment per second), made once per test file. */
function makeFixture(dir: string) {
  const file = path.join(dir, 'fixture.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-t', '6', '-c:v', 'libx264', '-g', '15', '-pix_fmt', 'yuv420p', '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4', file]);
  return file;
}

beforeEach(async () => {
  t = await startTestApp();
  await initialise(t);
  await t.ctx.recording.ready;
  root = path.join(t.settings.dataDir, 'records');
  fixture = makeFixture(t.settings.dataDir);
});
afterEach(async () => {
  await t.close();
});

const log = { info: () => undefined, warn: () => undefined };

/** A channel row to hang recordings on. */
let cams = 0;
async function channel(): Promise<number> {
  cams++;
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: await adminToken() }, payload: { DeviceName: `Cam${cams}`, DeviceType: 'RTSP', RtspUrl: `rtsp://127.0.0.1:9/none${cams}` } });
  if (res.statusCode !== 200) throw new Error(res.body);
  const dev = res.json().EasyDarwin.Body.DeviceID as string;
  return (await t.ctx.inventory.channels.require(dev, '1')).id;
}
let tokenCache: string | undefined;
async function adminToken() {
  if (!tokenCache) {
    const { login, STRONG } = await import('../api/support.js');
    tokenCache = (await login(t, 'admin', STRONG)).token!;
  }
  return tokenCache;
}
beforeEach(() => {
  tokenCache = undefined;
});

async function insertRow(pk: number, rel: string, start: Date, over: Partial<{ status: 'recording' | 'complete'; important: number; durationMs: number; bytes: number; root: string }> = {}) {
  const durationMs = over.durationMs ?? 6000;
  return (
    await t.ctx.db
      .insertInto('recordings')
      .values({
        channel_pk: pk,
        root: over.root ?? '',
        path: rel,
        start_at: start.toISOString(),
        end_at: new Date(start.getTime() + (over.status === 'recording' ? 0 : durationMs)).toISOString(),
        duration_ms: over.status === 'recording' ? 0 : durationMs,
        bytes: over.bytes ?? 1000,
        important: over.important ?? 0,
        status: over.status ?? 'complete',
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

function place(rel: string, bytes?: Buffer) {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes ?? fs.readFileSync(fixture));
  return file;
}

/** Closes the app (keeping its storage) and builds a new one on the same data dir and database. */
async function restart() {
  await t.app.close();
  const built = await buildApp(t.settings);
  await built.app.ready();
  await built.ctx.recording.ready;
  const storage = t.storage;
  t = {
    ...t,
    ...built,
    async close() {
      await built.app.close();
      await storage.cleanup();
    },
  };
}

describe('reconciliation at start', () => {
  it('closes an interrupted segment at its last whole fragment, cutting a torn one; indexes or removes orphans; drops rows without a file', async () => {
    const pk = await channel();
    const start = new Date(Date.now() - 3600_000);
    const whole = fs.readFileSync(fixture);
    const boxes = topBoxes(whole);
    const moofs = boxes.filter((b) => b.type === 'moof');
    // the interrupted segment: init + 4 whole fragments + half of the 5th
    const cut = boxes[boxes.indexOf(moofs[4]) + 1].start + 20; // the 5th moof whole, its mdat cut after 12 bytes
    const torn = whole.subarray(0, cut);
    const relTorn = segmentPath(pk, start);
    const tornFile = place(relTorn, torn);
    const tornId = await insertRow(pk, relTorn, start, { status: 'recording' });
    // an interrupted segment with only its init segment: nothing playable
    const relEmpty = segmentPath(pk, new Date(start.getTime() + 60_000));
    const emptyFile = place(relEmpty, whole.subarray(0, moofs[0].start));
    const emptyId = await insertRow(pk, relEmpty, new Date(start.getTime() + 60_000), { status: 'recording' });
    // an orphan the index lost, and an unreadable one
    const orphanStart = new Date(start.getTime() + 120_000);
    const relOrphan = segmentPath(pk, orphanStart);
    place(relOrphan);
    const relJunk = segmentPath(pk, new Date(start.getTime() + 180_000));
    const junkFile = place(relJunk, Buffer.from('not an mp4 at all, just text'));
    // a row whose file is gone
    const goneId = await insertRow(pk, segmentPath(pk, new Date(start.getTime() + 240_000)), new Date(start.getTime() + 240_000));

    await restart();
    const report = t.ctx.recording.lastReconcile!;
    expect(report).toMatchObject({ repaired: 1, removedEmpty: 1, orphansIndexed: 1, orphansRemoved: 1, missingDropped: 1, refused: 0 });

    const row = await t.ctx.recording.index.get(tornId);
    expect(row).toMatchObject({ status: 'complete', durationMs: 4000, bytes: moofs[4].start });
    expect(row!.endAt.getTime() - row!.startAt.getTime()).toBe(4000);
    expect(fs.statSync(tornFile).size).toBe(moofs[4].start);
    expect(scanMp4(tornFile)).toMatchObject({ ok: true, torn: false, fragments: 4 });
    expect(Number(ffprobe(tornFile).streams[0].nb_read_frames)).toBe(60);
    decodes(tornFile);

    expect(await t.ctx.recording.index.get(emptyId)).toBeUndefined();
    expect(fs.existsSync(emptyFile)).toBe(false);
    expect(fs.existsSync(junkFile)).toBe(false);
    expect(await t.ctx.recording.index.get(goneId)).toBeUndefined();
    const orphan = await t.ctx.db.selectFrom('recordings').selectAll().where('path', '=', relOrphan).executeTakeFirstOrThrow();
    expect(orphan).toMatchObject({ status: 'complete', channel_pk: pk, duration_ms: 6000, start_at: new Date(Math.floor(orphanStart.getTime() / 1000) * 1000).toISOString() });
  });

  it('leaves alone what the recorder does not write: other names in a day folder, a folder past the channel ids', async () => {
    const pk = await channel();
    const day = localDay(new Date(Date.now() - 86400_000));
    const foreign = [`${pk}/${day}/notes.mp4`, `${pk}/${day}/clip 1.mp4`, `2147483648/${day}/120000.mp4`, `99999999999/${day}/120000.mp4`].map((rel) => place(rel, Buffer.from('not ours')));
    const ours = place(`${pk}/${day}/120000.mp4`, Buffer.from('ours, but unreadable'));
    const roots = await t.ctx.recording.roots();
    const report = await reconcile({ db: t.ctx.db, root: roots, fileOf: (r) => t.ctx.recording.fileOfWith(roots.allowed, r), log });
    expect(report).toMatchObject({ orphansIndexed: 0, orphansRemoved: 1 });
    expect(fs.existsSync(ours)).toBe(false);
    for (const f of foreign) expect(fs.readFileSync(f, 'utf8'), f).toBe('not ours');
  });

  it('keeps the index when the record folder is missing (an unmounted disk)', async () => {
    const pk = await channel();
    const id = await insertRow(pk, segmentPath(pk, new Date(Date.now() - 7200_000)), new Date(Date.now() - 7200_000));
    fs.rmSync(root, { recursive: true, force: true });
    await restart();
    expect(await t.ctx.recording.index.get(id)).toBeDefined();
  });
});

describe('retention', () => {
  it('deletes expired non-important segments by save days (plan or default), then the oldest first for space, never an important one', async () => {
    const pk = await channel();
    const other = await channel();
    const day = 86400_000;
    const now = Date.now();
    let n = 0;
    const mk = async (ch: number, ageDays: number, important = 0) => {
      const start = new Date(now - ageDays * day + n * 1000);
      const rel = segmentPath(ch, start, n++);
      place(rel);
      return { id: await insertRow(ch, rel, start, { important, bytes: 100 }), rel };
    };
    // pk is in a plan keeping 10 days; other has no plan (DefaultSaveDays 30)
    const dev = (await t.ctx.db.selectFrom('channels').select('parent_device_id').where('id', '=', pk).executeTakeFirstOrThrow()).parent_device_id;
    const plan = await t.app.inject({ method: 'POST', url: '/api/v1/setrecordplan', headers: { token: await adminToken() }, payload: { name: 'ten', schedule: { Monday: [{ StartTime: '00:00', EndTime: '24:00' }] }, save_days: 10, channels: [`${dev}:1`] } });
    expect(plan.statusCode, plan.body).toBe(200);
    const a12 = await mk(pk, 12);
    const a12i = await mk(pk, 12, 1);
    const a5 = await mk(pk, 5);
    const b40 = await mk(other, 40);
    const b20 = await mk(other, 20);
    const b20i = await mk(other, 20, 1);
    const b1 = await mk(other, 1);
    const writing = await insertRow(other, segmentPath(other, new Date(now - 50 * day)), new Date(now - 50 * day), { status: 'recording' });

    const ids = async () => (await t.ctx.db.selectFrom('recordings').select('id').orderBy('id').execute()).map((r) => r.id);
    const roots = await t.ctx.recording.roots();
    const base = {
      db: t.ctx.db,
      rootAbs: roots.abs,
      defaultSaveDays: 30,
      saveDays: await t.ctx.recording.plans.saveDaysByChannel(),
      fileOf: (r: { root: string; path: string }) => t.ctx.recording.fileOfWith(roots.allowed, r),
      log,
    };
    const r1 = await runRetention({ ...base, minFreeBytes: 0 });
    expect(r1).toMatchObject({ expired: 2, forSpace: 0 });
    expect(await ids()).toEqual([a12i.id, a5.id, b20.id, b20i.id, b1.id, writing].sort((x, y) => x - y));
    expect(fs.existsSync(path.join(root, a12.rel))).toBe(false);
    expect(fs.existsSync(path.join(root, b40.rel))).toBe(false);

    // the disk is short by 250 bytes: each deletion frees 100 → the three oldest non-important go
    let free = 1000;
    const spy = { ...base, minFreeBytes: 1250 };
    const before = new Set(await ids());
    // every deletion frees 100 bytes
    const r2 = await runRetention({
      ...spy,
      freeBytes: async () => free,
      fileOf: (r) => {
        free += 100;
        return base.fileOf(r);
      },
    });
    expect(r2.forSpace).toBe(3);
    const after = await ids();
    const gone = [...before].filter((x) => !after.includes(x));
    expect(gone.sort()).toEqual([b20.id, a5.id, b1.id].sort());
    // what is left: the important ones and the one being written, even though space is still short
    free = 0;
    const r3 = await runRetention({ ...spy, freeBytes: async () => free });
    expect(r3.forSpace).toBe(0);
    expect(await ids()).toEqual([a12i.id, b20i.id, writing].sort((x, y) => x - y));
    expect(fs.existsSync(path.join(root, a12i.rel))).toBe(true);
  });
});

describe('retention and a mark that comes meanwhile', () => {
  it('a segment marked important after a pass listed it, before its turn, is kept (file and row)', async () => {
    const pk = await channel();
    const start = new Date(Date.now() - 3600_000);
    const rels = [0, 1].map((i) => segmentPath(pk, new Date(start.getTime() + i * 6000)));
    rels.forEach((rel) => place(rel));
    const [first, second] = [await insertRow(pk, rels[0], start), await insertRow(pk, rels[1], new Date(start.getTime() + 6000))];
    const roots = await t.ctx.recording.roots();
    let reads = 0;
    const report = await runRetention({
      db: t.ctx.db,
      rootAbs: roots.abs,
      defaultSaveDays: 30,
      saveDays: new Map(),
      minFreeBytes: 1000,
      // The disk stays short of space. Read once before the pass lists the oldest two, then after each
      // deletion: after the first one's, the second is marked important (record/setimportant).
      freeBytes: async () => {
        if (++reads === 2) await t.ctx.recording.index.setImportant(second, true);
        return 0;
      },
      fileOf: (r) => t.ctx.recording.fileOfWith(roots.allowed, r),
      log,
    });
    expect(report.forSpace).toBe(1);
    expect(await t.ctx.recording.index.get(first)).toBeUndefined();
    expect(await t.ctx.recording.index.get(second)).toMatchObject({ important: true });
    expect(fs.existsSync(path.join(root, rels[1]))).toBe(true);
  });
});

describe('the keep-free guard and earlier record folders', () => {
  it('frees the record folder\'s disk: the segments of an earlier folder on another disk are not deleted for it', async () => {
    const pk = await channel();
    const other = path.join(t.settings.dataDir, 'other-disk');
    await t.ctx.config.set('record', { RecordPath: '', OldPaths: [other] });
    const start = new Date(Date.now() - 86400_000);
    // the earlier folder's segments are the oldest: the guard went through all of them first
    const olds: { id: number; file: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const rel = segmentPath(pk, new Date(start.getTime() - 3600_000 + i * 6000));
      const file = path.join(other, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.copyFileSync(fixture, file);
      olds.push({ id: await insertRow(pk, rel, new Date(start.getTime() - 3600_000 + i * 6000), { root: other }), file });
    }
    const rel = segmentPath(pk, start);
    place(rel);
    const current = await insertRow(pk, rel, start);
    const roots = await t.ctx.recording.roots();
    // the two folders on two disks (devices 1 and 2)
    const devOf = (dir: string) => (dir === other ? 2 : 1);
    expect(rootsOnDisk(roots.allowed, roots.key, devOf)).toEqual(['']);
    expect(rootsOnDisk(roots.allowed, roots.key, () => 1).sort()).toEqual(['', other].sort());
    let free = 0;
    const report = await runRetention({
      db: t.ctx.db,
      rootAbs: roots.abs,
      defaultSaveDays: 30,
      saveDays: new Map(),
      minFreeBytes: 1000,
      guardRoots: rootsOnDisk(roots.allowed, roots.key, devOf),
      // a deletion in the record folder frees its disk
      freeBytes: async () => free,
      fileOf: (r) => {
        if (r.root === '') free = 5000;
        return t.ctx.recording.fileOfWith(roots.allowed, r);
      },
      log,
    });
    expect(report.forSpace).toBe(1);
    expect(await t.ctx.recording.index.get(current)).toBeUndefined();
    for (const o of olds) {
      expect(await t.ctx.recording.index.get(o.id)).toBeDefined();
      expect(fs.existsSync(o.file)).toBe(true);
    }
  });
});

describe('paths outside the record root', () => {
  it('are refused by every function that serves or removes files', async () => {
    const pk = await channel();
    const outside = path.join(t.settings.dataDir, 'outside.mp4');
    fs.copyFileSync(fixture, outside);
    for (const bad of ['../outside.mp4', `${pk}/../../outside.mp4`, outside, '', 'a/\0b.mp4']) {
      expect(() => safeJoin(root, bad)).toThrow(UnsafePathError);
    }
    expect(safeJoin(root, `${pk}/20240101/000000.mp4`)).toBe(path.join(root, `${pk}/20240101/000000.mp4`));
    const start = new Date(Date.now() - 40 * 86400_000);
    const badId = await insertRow(pk, '../outside.mp4', start);
    const unknownRoot = await insertRow(pk, `${pk}/x.mp4`, new Date(start.getTime() + 1000), { root: '/etc' });
    // playback list leaves them out
    expect(await t.ctx.recording.segmentsBetween(pk, new Date(0), new Date())).toEqual([]);
    await expect(t.ctx.recording.fileOf({ root: '', path: '../outside.mp4' })).rejects.toThrow(UnsafePathError);
    await expect(t.ctx.recording.fileOf({ root: '/etc', path: 'passwd' })).rejects.toThrow(UnsafePathError);
    // removing by the API refuses, the file stays
    const res = await t.app.inject({ url: `/api/v1/record/remove?id=${badId}`, headers: { token: await adminToken() } });
    expect(res.statusCode).toBe(400);
    // removedaily and retention (expired by 40 days, then short of space) refuse too
    const day = localDay(start);
    const rd = await t.app.inject({ url: `/api/v1/record/removedaily?id=${(await t.ctx.db.selectFrom('channels').select('parent_device_id').where('id', '=', pk).executeTakeFirstOrThrow()).parent_device_id}:1&period=${day}`, headers: { token: await adminToken() } });
    expect(rd.statusCode, rd.body).toBe(200);
    expect(rd.json().EasyDarwin.Body).toMatchObject({ Removed: 0, Kept: 2 });
    const roots = await t.ctx.recording.roots();
    const r = await runRetention({ db: t.ctx.db, rootAbs: roots.abs, defaultSaveDays: 30, saveDays: new Map(), minFreeBytes: 10, freeBytes: async () => 0, fileOf: (x) => t.ctx.recording.fileOfWith(roots.allowed, x), log });
    expect(r.refused).toBeGreaterThanOrEqual(2);
    expect(fs.existsSync(outside)).toBe(true);
    expect(await t.ctx.recording.index.get(badId)).toBeDefined();
    expect(await t.ctx.recording.index.get(unknownRoot)).toBeDefined();
    // reconciliation refuses an interrupted row pointing outside
    await t.ctx.db.updateTable('recordings').set({ status: 'recording' }).where('id', '=', badId).execute();
    await restart();
    expect(t.ctx.recording.lastReconcile!.refused).toBe(1);
    expect(fs.statSync(outside).size).toBe(fs.statSync(fixture).size);
  });
});
