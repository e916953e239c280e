/**
 * The recorder on a real camera (GStreamer → RTSP → hub → recorder): segments of SegmentSeconds cut
 * at keyframes, fragments ≤ 2 s written as they come, index rows contiguous, files read by ffprobe,
 * querydaily merging the segments into one range.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { sleep, until } from '../helpers/index.js';
import { localDay } from '../../src/services/recording/time.js';
import { addCamera, channelPk, decodes, ffprobe, fragmentDurations } from './support.js';
import { useAdminApp } from '../api/admin-app.js';
import { useCamera } from '../fixtures/use-camera.js';

const cam = useCamera();
const api = useAdminApp();
beforeEach(async () => {
  await api.t.ctx.config.set('record', { SegmentSeconds: 3, MinFreeBytes: 0 });
  await api.t.ctx.recording.ready;
});

describe('recording a live camera', () => {
  it('writes contiguous segments of ~3 s with fragments ≤ 2 s that ffprobe reads; querydaily merges them', async () => {
    const dev = await addCamera(api.t, api.admin, cam.url);
    const pk = await channelPk(api.t, dev);
    const start = await api.t.app.inject({ url: `/api/v1/realtimerecord/start?device=${dev}&channel=1`, headers: { token: api.admin } });
    expect(start.statusCode, start.body).toBe(200);
    // the row of the first segment appears while it is written (status recording)
    const first = await until(() => api.t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).executeTakeFirst(), 15000);
    expect(first.status).toBe('recording');
    expect(first.path).toMatch(new RegExp(`^${pk}/\\d{8}/\\d{6}\\.mp4$`));
    await sleep(8500);
    const stop = await api.t.app.inject({ method: 'POST', url: '/api/v1/realtimerecord/stop', headers: { token: api.admin }, payload: { id: `${dev}:1` } });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().EasyDarwin.Body.Recording).toBe(0);

    const rows = await api.t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).orderBy('start_at').execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const root = `${api.t.settings.dataDir}/records`;
    for (const [i, r] of rows.entries()) {
      expect(r.status).toBe('complete');
      const file = `${root}/${r.path}`;
      expect(fs.statSync(file).size).toBe(Number(r.bytes));
      const probe = ffprobe(file);
      expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
      expect(Number(probe.streams[0].nb_read_frames)).toBeGreaterThan(10);
      decodes(file);
      const frags = fragmentDurations(file);
      expect(frags.length).toBeGreaterThanOrEqual(2);
      for (const d of frags) expect(d).toBeLessThanOrEqual(2.0001);
      // the row's duration is the file's
      expect(Math.abs(frags.reduce((a, b) => a + b, 0) * 1000 - Number(r.duration_ms))).toBeLessThan(5);
      // the index ranges are contiguous (within 2 s), segments ~3 s cut at a keyframe (every 2 s)
      expect(new Date(r.end_at).getTime() - new Date(r.start_at).getTime()).toBe(Number(r.duration_ms));
      if (i < rows.length - 1) {
        expect(Number(r.duration_ms)).toBeGreaterThanOrEqual(2900);
        expect(Number(r.duration_ms)).toBeLessThanOrEqual(6500);
        const gap = new Date(rows[i + 1].start_at).getTime() - new Date(r.end_at).getTime();
        expect(Math.abs(gap)).toBeLessThanOrEqual(2000);
      }
    }

    const day = localDay(new Date(rows[0].start_at));
    const daily = await api.t.app.inject({ url: `/api/v1/record/querydaily?id=${dev}:1&period=${day}`, headers: { token: api.admin } });
    expect(daily.statusCode, daily.body).toBe(200);
    const list = daily.json().list as { startAt: string; endAt: string; duration: number; ids: number[] }[];
    expect(list).toHaveLength(1);
    expect(list[0].ids).toHaveLength(rows.length);
    const total = rows.reduce((n, r) => n + Number(r.duration_ms), 0) / 1000;
    expect(Math.abs(list[0].duration - total)).toBeLessThanOrEqual(3);
    expect(list[0].startAt).toMatch(/^\d{14}$/);
    const monthly = await api.t.app.inject({ url: `/api/v1/record/querymonthly?device=${dev}&channel=1&period=${day.slice(0, 6)}`, headers: { token: api.admin } });
    expect(monthly.body[Number(day.slice(6)) - 1]).toBe('1');
    expect(monthly.body).toMatch(/^[01]{28,31}$/);
    // segmentsBetween gives the files in order, for playback
    const files = await api.t.ctx.recording.segmentsBetween(pk, new Date(rows[0].start_at), new Date(rows[rows.length - 1].end_at));
    expect(files.map((f) => f.id)).toEqual(rows.map((r) => r.id));
    expect(files[0].file).toBe(`${root}/${rows[0].path}`);
  }, 60000);

  it('EnableRecord with no plan records; a plan outside its slot stops it; the hub is kept open', async () => {
    const dev = await addCamera(api.t, api.admin, cam.url);
    const pk = await channelPk(api.t, dev);
    const edit = await api.t.app.inject({ method: 'POST', url: '/api/v1/editchannel', headers: { token: api.admin }, payload: { ParentDeviceID: dev, ChannelID: '1', EnableRecord: 1 } });
    expect(edit.statusCode, edit.body).toBe(200);
    await api.t.ctx.recording.engine.kick();
    expect(api.t.ctx.recording.engine.active()).toEqual([pk]);
    await until(() => api.t.ctx.db.selectFrom('recordings').select('id').where('channel_pk', '=', pk).executeTakeFirst(), 15000);
    // a plan with an empty week: the channel is in a plan that never says "now"
    const plan = await api.t.app.inject({ method: 'POST', url: '/api/v1/setrecordplan', headers: { token: api.admin }, payload: { name: 'never', schedule: '{}', save_days: 7, channels: `${dev}:1` } });
    expect(plan.statusCode, plan.body).toBe(200);
    await api.t.ctx.recording.engine.kick();
    expect(api.t.ctx.recording.engine.active()).toEqual([]);
    const rows = await api.t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).execute();
    expect(rows.every((r) => r.status === 'complete')).toBe(true);
    // a plan covering the whole week: recording again
    const always = Object.fromEntries(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((d) => [d, [{ StartTime: '00:00:00', EndTime: '24:00:00' }]]));
    const upd = await api.t.app.inject({ method: 'POST', url: '/api/v1/setrecordplan', headers: { token: api.admin }, payload: { id: plan.json().EasyDarwin.Body.ID, name: 'never', schedule: JSON.stringify(always), save_days: 7, channels: `${dev}:1` } });
    expect(upd.statusCode, upd.body).toBe(200);
    await api.t.ctx.recording.engine.kick();
    expect(api.t.ctx.recording.engine.active()).toEqual([pk]);
  }, 60000);

  it('the segment being written: marked important it stays so when closed; removedaily of today keeps it; a new record folder takes the next segment and the old one stays readable', async () => {
    const dev = await addCamera(api.t, api.admin, cam.url);
    const pk = await channelPk(api.t, dev);
    const get = (url: string) => api.t.app.inject({ url, headers: { token: api.admin } });
    expect((await get(`/api/v1/realtimerecord/start?device=${dev}&channel=1`)).statusCode).toBe(200);
    const first = await until(() => api.t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).executeTakeFirst(), 15000);
    expect(first.status).toBe('recording');
    const oldFile = path.join(api.t.settings.dataDir, 'records', first.path);

    const mark = await get(`/api/v1/record/setimportant?id=${first.id}&important=1`);
    expect(mark.json().EasyDarwin.Body).toEqual({ Count: 1, Important: 1 });
    const today = localDay(new Date(first.start_at));
    const removed = await get(`/api/v1/record/removedaily?id=${dev}:1&period=${today}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().EasyDarwin.Body.Kept).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(oldFile)).toBe(true);
    expect(api.t.ctx.recording.engine.active()).toEqual([pk]);

    // the record folder changes while the segment is written: the recorder closes it and goes on in the new folder
    const folder = path.join(api.t.settings.dataDir, 'elsewhere');
    const moved = await api.t.app.inject({ method: 'POST', url: '/api/v1/recordpath', headers: { token: api.admin }, payload: { RecordPath: folder } });
    expect(moved.statusCode, moved.body).toBe(200);
    const next = await until(() => api.t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).where('root', '=', folder).executeTakeFirst(), 15000);
    expect(fs.existsSync(path.join(folder, next.path))).toBe(true);
    await until(async () => (await api.t.ctx.recording.index.get(first.id))?.status === 'complete', 10000);
    expect(await api.t.ctx.recording.index.get(first.id)).toMatchObject({ important: true, root: '' });
    await until(() => api.t.ctx.db.selectFrom('recordings').select('id').where('root', '=', folder).where('status', '=', 'complete').executeTakeFirst(), 15000);
    expect((await get(`/api/v1/realtimerecord/stop?device=${dev}&channel=1`)).statusCode).toBe(200);

    // the closed segment in the old folder: still listed, downloaded and played from there
    const rows = await api.t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).orderBy('start_at').execute();
    expect(rows.every((r) => r.status === 'complete')).toBe(true);
    const files = await api.t.ctx.recording.segmentsBetween(pk, new Date(rows[0].start_at), new Date(rows.at(-1)!.end_at));
    expect(files.map((f) => f.id)).toEqual(rows.map((r) => r.id));
    expect(files[0].file).toBe(oldFile);
    const dl = await get(`/api/v1/download/${first.id}/0`);
    expect(dl.statusCode, dl.body.slice(0, 200)).toBe(200);
    const got = path.join(api.t.settings.dataDir, 'first.mp4');
    fs.writeFileSync(got, dl.rawPayload);
    decodes(got);
    expect(Number(ffprobe(got).streams[0].nb_read_frames)).toBeGreaterThan(10);
  }, 60000);
});
