/**
 * A symbolic link inside the record folder that points out of it (a file, or a channel's or day's
 * folder) confines nothing lexically: the index path stays inside while the file read or deleted is
 * elsewhere. Playback and download leave such a row out, removal refuses it, and the file outside is
 * neither read nor deleted. A link that stays inside the folder keeps working.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAdminApp } from '../api/admin-app.js';
import { silentCamera } from './support.js';
import { segmentPath } from '../../src/services/recording/paths.js';
import { reconcile } from '../../src/services/recording/reconcile.js';

const api = useAdminApp();
beforeEach(async () => {
  await api.t.ctx.recording.ready;
});

const camera = () => silentCamera(api.t, api.admin);

async function row(pk: number, start: Date, rel: string) {
  const r = await api.t.ctx.db
    .insertInto('recordings')
    .values({ channel_pk: pk, root: '', path: rel, start_at: start.toISOString(), end_at: new Date(start.getTime() + 60_000).toISOString(), duration_ms: 60_000, bytes: 1, important: 0, status: 'complete', created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

describe('symbolic links in the record folder', () => {
  it('one pointing out (file or folder) is neither played, downloaded nor deleted through; one inside still is', async () => {
    const { pk } = await camera();
    const root = path.join(api.t.settings.dataDir, 'records');
    const outside = path.join(api.t.settings.dataDir, 'outside');
    fs.mkdirSync(outside, { recursive: true });
    const secret = path.join(outside, 'secret.mp4');
    fs.writeFileSync(secret, 'secret');
    const day = new Date(Date.now() - 86400_000);
    day.setHours(8, 0, 0, 0);
    const at = (min: number) => new Date(day.getTime() + min * 60_000);

    // 1. the segment file itself is a link out
    const fileRel = segmentPath(pk, at(0));
    fs.mkdirSync(path.join(root, path.dirname(fileRel)), { recursive: true });
    fs.symlinkSync(secret, path.join(root, fileRel));
    const fileLink = await row(pk, at(0), fileRel);
    // 2. a folder on the way is a link out: <pk>/<day> -> outside/day
    const dirRel = segmentPath(pk + 1000, at(10));
    fs.mkdirSync(path.join(outside, 'day'), { recursive: true });
    const victim = path.join(outside, 'day', path.basename(dirRel));
    fs.writeFileSync(victim, 'victim');
    fs.mkdirSync(path.join(root, String(pk + 1000)), { recursive: true });
    fs.symlinkSync(path.join(outside, 'day'), path.join(root, path.dirname(dirRel)));
    const dirLink = await row(pk, at(10), dirRel);
    // 3. a link that stays inside the folder
    const inRel = segmentPath(pk, at(20));
    const target = path.join(root, 'moved.mp4');
    fs.writeFileSync(target, 'inside');
    fs.symlinkSync(target, path.join(root, inRel));
    const inside = await row(pk, at(20), inRel);

    const listed = await api.t.ctx.recording.segmentsBetween(pk, at(-1), at(30));
    expect(listed.map((s) => s.id)).toEqual([inside]);

    for (const id of [fileLink, dirLink]) {
      const dl = await api.get(`/api/v1/download/${id}/0`);
      expect(dl.statusCode, dl.body).toBe(404);
      expect(dl.body).not.toContain('secret');
      const rm = await api.get(`/api/v1/record/remove?id=${id}&lang=en-US`);
      expect(rm.statusCode, rm.body).toBe(400);
      expect(rm.json().msg).toBe('Invalid parameter id: the recording file is outside the record folder');
    }
    expect(fs.readFileSync(secret, 'utf8')).toBe('secret');
    expect(fs.readFileSync(victim, 'utf8')).toBe('victim');
    // removedaily leaves the two rows (kept) and removes the one inside
    const period = `${day.getFullYear()}${String(day.getMonth() + 1).padStart(2, '0')}${String(day.getDate()).padStart(2, '0')}`;
    const dev = (await api.t.ctx.db.selectFrom('channels').select(['parent_device_id', 'channel_id']).where('id', '=', pk).executeTakeFirstOrThrow()).parent_device_id;
    const rd = await api.get(`/api/v1/record/removedaily?device=${dev}&channel=1&period=${period}`);
    expect(rd.json().EasyDarwin.Body).toEqual({ Removed: 1, Kept: 2 });
    expect(fs.existsSync(victim)).toBe(true);
    expect(fs.existsSync(secret)).toBe(true);
  });
});

describe('reconciliation at start and symbolic links', () => {
  it('an unknown file reached through a link out of the folder (a linked file, a linked day folder) is neither indexed, cut nor removed', async () => {
    const { pk } = await camera();
    const root = path.join(api.t.settings.dataDir, 'records');
    const outside = path.join(api.t.settings.dataDir, 'outside');
    fs.mkdirSync(outside, { recursive: true });
    // A fragmented MP4 with a torn tail (the scan cuts such a file back to its last whole fragment).
    const whole = path.join(outside, 'whole.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=15', '-t', '3', '-c:v', 'libx264', '-g', '15', '-pix_fmt', 'yuv420p', '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4', whole]);
    const torn = Buffer.concat([fs.readFileSync(whole), Buffer.from([0, 0, 1, 0, 0x6d, 0x6f, 0x6f, 0x66])]);
    const tornOutside = path.join(outside, 'torn.mp4');
    fs.writeFileSync(tornOutside, torn);
    const junkOutside = path.join(outside, 'day', '120000.mp4');
    fs.mkdirSync(path.dirname(junkOutside), { recursive: true });
    fs.writeFileSync(junkOutside, 'not a recording');
    const day = new Date(Date.now() - 86400_000);
    day.setHours(11, 0, 0, 0);
    // <pk>/<day>/110000.mp4 -> outside/torn.mp4; <pk+1000>/<day> -> outside/day
    const fileRel = segmentPath(pk, day);
    fs.mkdirSync(path.join(root, path.dirname(fileRel)), { recursive: true });
    fs.symlinkSync(tornOutside, path.join(root, fileRel));
    const dirRel = path.dirname(segmentPath(pk + 1000, day));
    fs.mkdirSync(path.join(root, String(pk + 1000)), { recursive: true });
    fs.symlinkSync(path.dirname(junkOutside), path.join(root, dirRel));

    const roots = await api.t.ctx.recording.roots();
    const report = await reconcile({
      db: api.t.ctx.db,
      root: roots,
      fileOf: (r) => api.t.ctx.recording.fileOfWith(roots.allowed, r),
      log: { info: () => undefined, warn: () => undefined },
    });
    expect(report).toMatchObject({ orphansIndexed: 0, orphansRemoved: 0, refused: 2 });
    expect(fs.readFileSync(tornOutside).equals(torn)).toBe(true);
    expect(fs.readFileSync(junkOutside, 'utf8')).toBe('not a recording');
    expect(await api.t.ctx.db.selectFrom('recordings').select('id').execute()).toEqual([]);
  });
});
