/**
 * Every record, plan and playback call with its parameters out of range, of the wrong type, or naming
 * what cannot exist (ids past the database's integers, dates that are not dates, a start after its
 * end): refused with a clear 4xx (400 for a bad value, 404 for a well-formed id of nothing), never an
 * internal error, and nothing changed: the index, the files, the plan and the record settings stay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAdminApp } from '../api/admin-app.js';
import { segmentPath } from '../../src/services/recording/paths.js';
import { localDay, localStamp } from '../../src/services/recording/time.js';

const api = useAdminApp();
beforeEach(async () => {
  await api.t.ctx.recording.ready;
});

/** Past PostgreSQL's integer (the ids' column), still a safe JavaScript integer. */
const BIG = '2147483648';

describe('refusals of the record, plan and playback calls', () => {
  it('answer 400 or 404, never 500, and change nothing', async () => {
    const res = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/c' });
    const dev = res.json().EasyDarwin.Body.DeviceID as string;
    const pk = (await api.t.ctx.inventory.channels.require(dev, '1')).id;
    const start = new Date(Date.now() - 86400_000);
    start.setHours(10, 0, 0, 0);
    const rel = segmentPath(pk, start);
    const file = path.join(api.t.settings.dataDir, 'records', rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'x');
    const seg = await api.t.ctx.db
      .insertInto('recordings')
      .values({ channel_pk: pk, root: '', path: rel, start_at: start.toISOString(), end_at: new Date(start.getTime() + 60_000).toISOString(), duration_ms: 60_000, bytes: 1, important: 0, status: 'complete', created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const schedule = JSON.stringify({ Monday: [{ StartTime: '08:00', EndTime: '09:00' }] });
    const plan = await api.post('/api/v1/setrecordplan', { name: 'p', schedule, save_days: 7, channels: `${dev}:1` });
    expect(plan.statusCode, plan.body).toBe(200);
    const planId = plan.json().EasyDarwin.Body.ID as number;

    const state = async () => ({
      rows: await api.t.ctx.db.selectFrom('recordings').selectAll().execute(),
      plan: (await api.get(`/api/v1/recordplaninfo?id=${planId}`)).json().EasyDarwin.Body,
      plans: (await api.body('/api/v1/recordplanlist')).Total,
      record: await api.t.ctx.config.get('record'),
      manual: await api.t.ctx.db.selectFrom('record_manual').selectAll().execute(),
      file: fs.existsSync(file),
    });
    const before = await state();

    const day = localDay(start);
    const s = localStamp(start);
    const e = localStamp(new Date(start.getTime() + 60_000));
    const ch = `id=${dev}:1`;
    const gets = [
      // record queries
      `/api/v1/record/querydaily?${ch}`,
      `/api/v1/record/querydaily?${ch}&period=20261131`,
      `/api/v1/record/querydaily?${ch}&period=2026-11-01`,
      `/api/v1/record/querydaily?${ch}&period=${day}&start=-1`,
      `/api/v1/record/querydaily?${ch}&period=${day}&start=abc`,
      `/api/v1/record/querydaily?${ch}&period=${day}&limit=0`,
      `/api/v1/record/querydaily?${ch}&period=${day}&limit=10000`,
      `/api/v1/record/querydaily?${ch}&period=${day}&limit=1.5`,
      `/api/v1/record/querydaily?id=${dev}&period=${day}`,
      `/api/v1/record/querydaily?id=${'a'.repeat(200)}:1&period=${day}`,
      `/api/v1/record/querydaily?device=${dev}&period=${day}`,
      `/api/v1/record/querymonthly?${ch}&period=202613`,
      `/api/v1/record/querymonthly?${ch}&period=000101`,
      `/api/v1/record/querymonthly?${ch}&period=abcdef`,
      `/api/v1/record/queryflags?period=${day.slice(0, 6)}`,
      `/api/v1/record/queryflags?period=${day.slice(0, 6)}&ids=nocolon`,
      `/api/v1/record/queryflags?period=${day.slice(0, 6)}&ids=${Array.from({ length: 501 }, (_, i) => `${dev}:${i}`).join(',')}`,
      `/api/v1/record/queryflags?period=202600&device=${dev}`,
      '/api/v1/record/querydevices?period=20260230',
      `/api/v1/record/querydevices?period=${day}&start=-1`,
      `/api/v1/record/querydevices?period=${day}&limit=0`,
      `/api/v1/record/querydevices?period=${day}&limit=100000`,
      // removals and marks
      '/api/v1/record/remove',
      '/api/v1/record/remove?id=0',
      '/api/v1/record/remove?id=-1',
      '/api/v1/record/remove?id=abc',
      '/api/v1/record/remove?id=1.5',
      `/api/v1/record/remove?id=${BIG}`,
      '/api/v1/record/remove?id=99999999999999999999',
      `/api/v1/record/removedaily?${ch}`,
      `/api/v1/record/removedaily?${ch}&period=20261131`,
      `/api/v1/record/removedaily?id=${dev}&period=${day}`,
      `/api/v1/record/setimportant?id=0`,
      `/api/v1/record/setimportant?id=${seg.id},,${seg.id}`,
      `/api/v1/record/setimportant?id=${seg.id},${BIG}`,
      `/api/v1/record/setimportant?id=${seg.id},999999999999`,
      `/api/v1/record/setimportant?id=${seg.id}&important=maybe`,
      `/api/v1/record/setimportant?device=${dev}&channel=1&starttime=${s}`,
      `/api/v1/record/setimportant?device=${dev}&channel=1&starttime=${e}&endtime=${s}`,
      `/api/v1/record/setimportant?device=${dev}&channel=1&starttime=${s}&endtime=${localStamp(new Date(start.getTime() + 40 * 86400_000))}`,
      `/api/v1/record/setimportant?device=${dev}&channel=1&starttime=2026113000000&endtime=${e}`,
      '/api/v1/realtimerecord/start',
      `/api/v1/realtimerecord/start?id=${dev}`,
      '/api/v1/realtimerecord/start?device=nodev&channel=1',
      // plans
      '/api/v1/recordplaninfo',
      '/api/v1/recordplaninfo?id=0',
      '/api/v1/recordplaninfo?id=abc',
      `/api/v1/recordplaninfo?id=${BIG}`,
      `/api/v1/delrecordplan?id=${BIG}`,
      '/api/v1/delrecordplan?id=-1',
      '/api/v1/recordplanlist?start=-1',
      '/api/v1/recordplanlist?limit=0',
      '/api/v1/recordplanlist?limit=abc',
      // playback
      `/api/v1/devices/record/playback?channel=${dev}:1`,
      `/api/v1/devices/record/playback?channel=${dev}:1&stime=20261131000000`,
      `/api/v1/devices/record/playback?channel=${dev}:1&stime=${e}&etime=${s}`,
      `/api/v1/devices/record/playback?channel=${dev}:1&stime=${s}&duration=0`,
      `/api/v1/devices/record/playback?channel=${dev}:1&stime=${s}&duration=-5`,
      `/api/v1/devices/record/playback?channel=${dev}:1&stime=${s}&duration=abc`,
      `/api/v1/devices/record/playback?channel=${dev}:1&stime=${s}&duration=604801`,
      `/api/v1/devices/record/playback?channel=${dev}:1&stime=${s}&protocol=rtsp`,
      `/api/v1/devices/record/playback?channel=nocolon&stime=${s}`,
      '/api/v1/devices/record/playback/control?request_id=xyz&command=pause',
      `/api/v1/devices/record/playback/control?request_id=${'0'.repeat(32)}&command=explode`,
      `/api/v1/devices/record/playback/control?request_id=${'0'.repeat(32)}&command=speed&speed=3`,
      `/api/v1/devices/record/playback/control?request_id=${'0'.repeat(32)}&command=seek&time=20261131000000`,
      `/api/v1/playbackspeed?request_id=${'0'.repeat(32)}&speed=3`,
      `/api/v1/playbackspeed?request_id=${'0'.repeat(32)}&speed=0`,
      `/api/v1/playbackspeed?request_id=${'0'.repeat(32)}&speed=-1`,
      `/api/v1/playbackspeed?request_id=${'0'.repeat(32)}&speed=32`,
      `/api/v1/playbackspeed?request_id=${'0'.repeat(32)}&speed=abc`,
      `/api/v1/playbackspeed?request_id=${'0'.repeat(32)}`,
      '/api/v1/playbackspeed?speed=2',
      '/api/v1/playState',
      `/api/v1/playState?request_id=${'z'.repeat(65)}`,
      // downloads
      `/api/v1/download/0/0`,
      `/api/v1/download/abc/0`,
      `/api/v1/download/${BIG}/0`,
      `/api/v1/download/${seg.id}/abc`,
      `/api/v1/download/${seg.id}/20261131000000`,
      `/api/v1/download/${seg.id}/19700101000000`,
      `/api/v1/record/recordvideo/download/mp4/${dev}:1/${e}/${s}`,
      `/api/v1/record/recordvideo/download/mp4/${dev}:1/${s}/${localStamp(new Date(start.getTime() + 8 * 86400_000))}`,
      `/api/v1/record/recordvideo/download/avi/${dev}:1/${s}/${e}`,
      `/api/v1/record/recordvideo/save/mp4/${dev}:1/${s}/${e}`,
      `/api/v1/record/recordvideo/download/mp4/${dev}/${s}/${e}`,
      `/api/v1/record/recordvideo/download/mp4/${dev}:1/20260229000000/20260301000000`,
    ];
    const posts: [string, object][] = [
      ['/api/v1/record/remove', { id: 'abc' }],
      ['/api/v1/record/remove', { id: Number(BIG) }],
      ['/api/v1/record/removedaily', { id: `${dev}:1`, period: 20261131 }],
      ['/api/v1/record/setimportant', { id: [seg.id, 'x'] }],
      ['/api/v1/record/setimportant', { id: [seg.id, Number(BIG)] }],
      ['/api/v1/record/setimportant', { id: [] }],
      ['/api/v1/record/setimportant', { id: `${seg.id}`, important: 'perhaps' }],
      ['/api/v1/setrecordplan', { name: '', schedule }],
      ['/api/v1/setrecordplan', { name: 'x'.repeat(129), schedule }],
      ['/api/v1/setrecordplan', { name: 'q', schedule, save_days: 0 }],
      ['/api/v1/setrecordplan', { name: 'q', schedule, save_days: 3651 }],
      ['/api/v1/setrecordplan', { name: 'q', schedule, save_days: 1.5 }],
      ['/api/v1/setrecordplan', { name: 'q', schedule, save_days: 'abc' }],
      ['/api/v1/setrecordplan', { name: 'q' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule: '[]' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule: '{"Monday":"all day"}' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule: '{"Monday":[{"StartTime":"08:00"}]}' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule: 'null' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule: '5' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule, enable: 'maybe' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule, channels: 'nocolon' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule, channels: '[{"DeviceID":1}]' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule, channels: '{"a":1}' }],
      ['/api/v1/setrecordplan', { name: 'q', schedule, channels: [{ DeviceID: dev }] }],
      ['/api/v1/setrecordplan', { id: Number(BIG), name: 'q', schedule }],
      ['/api/v1/setrecordplan', { id: planId, name: 'p', schedule, save_days: -1 }],
      ['/api/v1/checkpush', {}],
      ['/api/v1/checkpush', { schedule: '[]' }],
      ['/api/v1/checkpush', { schedule: '{"Monday":[{"StartTime":"08:00","EndTime":"99:00"}]}' }],
      ['/api/v1/delrecordplan', { id: 'abc' }],
      ['/api/v1/recordpath', {}],
      ['/api/v1/recordpath', { RecordPath: '' }],
      ['/api/v1/recordpath', { RecordPath: 'relative' }],
      ['/api/v1/recordpath', { RecordPath: path.join(api.t.settings.dataDir, 'r2'), SegmentSeconds: 0 }],
      ['/api/v1/recordpath', { RecordPath: path.join(api.t.settings.dataDir, 'r2'), SegmentSeconds: 3601 }],
      ['/api/v1/recordpath', { RecordPath: path.join(api.t.settings.dataDir, 'r2'), SegmentSeconds: 'abc' }],
      ['/api/v1/recordpath', { RecordPath: path.join(api.t.settings.dataDir, 'r2'), SegmentSeconds: 1.5 }],
      ['/api/v1/recordpath', { RecordPath: path.join(api.t.settings.dataDir, 'r2'), MinFreeBytes: -1 }],
      ['/api/v1/recordpath', { RecordPath: path.join(api.t.settings.dataDir, 'r2'), MinFreeBytes: 1e20 }],
      ['/api/v1/recordpath', { RecordPath: path.join(api.t.settings.dataDir, 'r2'), DefaultSaveDays: 0 }],
      ['/api/v1/recordpath', { RecordPath: path.join(api.t.settings.dataDir, 'r2'), DefaultSaveDays: 3651 }],
    ];
    const wrong: string[] = [];
    for (const url of gets) {
      const r = await api.get(url);
      if (r.statusCode !== 400 && r.statusCode !== 404) wrong.push(`GET ${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      else if (!r.json().msg) wrong.push(`GET ${url}: ${r.statusCode} without a message`);
    }
    for (const [url, body] of posts) {
      const r = await api.post(url, body);
      if (r.statusCode !== 400 && r.statusCode !== 404) wrong.push(`POST ${url} ${JSON.stringify(body).slice(0, 100)}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      else if (!r.json().msg) wrong.push(`POST ${url}: ${r.statusCode} without a message`);
    }
    expect(wrong).toEqual([]);
    expect(await state()).toEqual(before);
    expect(fs.existsSync(path.join(api.t.settings.dataDir, 'r2'))).toBe(false);
    // A free space to keep of the whole disk or more would have the guard delete every recording
    // (a slip of GB for MB in the form): refused at its field, the folder not made.
    const disk = fs.statfsSync(api.t.settings.dataDir);
    const whole = Number(disk.blocks) * Number(disk.bsize);
    const all = await api.post('/api/v1/recordpath?lang=en-US', { RecordPath: path.join(api.t.settings.dataDir, 'r3'), MinFreeBytes: whole });
    expect(all.statusCode, all.body).toBe(400);
    expect(all.json()).toMatchObject({ field: 'MinFreeBytes' });
    expect(all.json().reason).toMatch(/less than the size of the record folder's disk/);
    // said in the console's unit too (its field is in GB of 2^30 bytes), cut down, and in bytes
    expect(all.json().reason).toContain(`(${(Math.floor((whole / 2 ** 30) * 100) / 100).toFixed(2)} GB, ${whole} bytes)`);
    expect(fs.existsSync(path.join(api.t.settings.dataDir, 'r3'))).toBe(false);
    expect(await state()).toEqual(before);
    const some = await api.post('/api/v1/recordpath', { RecordPath: path.join(api.t.settings.dataDir, 'r3'), MinFreeBytes: Math.floor(whole / 1000) });
    expect(some.statusCode, some.body).toBe(200);

    // ids as a JSON array are ids, not the first one by coercion ([1] read as 1, [1, 2] refused)
    const marked = await api.post('/api/v1/record/setimportant', { id: [seg.id], important: 1 });
    expect(marked.json().EasyDarwin.Body).toEqual({ Count: 1, Important: 1 });
  }, 60000);
});
