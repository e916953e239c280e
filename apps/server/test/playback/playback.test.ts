/**
 * Playback over WebSocket and MP4 download against ~10 s recorded from the GStreamer camera
 * (320x240 H.264, 15 fps, a keyframe every 2 s) in segments of 3 s: start at the keyframe at or before
 * the second asked for, one continuous timeline across segment files (ffprobe decodes it all),
 * speed, pause/resume, playState, seek; downloads of a range and of one row with names, lengths and
 * byte ranges; refusals of odd ids, channels and tampered rows without reading outside the record
 * folder; the role check.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { channelFileName } from '@opencvr/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeOperator } from '../api/support.js';
import { PlaybackSession } from '../../src/services/playback/session.js';
import { SegmentReader, scanSegment } from '../../src/services/playback/segment-reader.js';
import { sleep, until } from '../helpers/index.js';
import { decodeErrors, ffprobeJson, playWs, recordCamera, stampOf, videoTimeline, type Recorded } from './support.js';

const topBoxes = (b: Buffer) => {
  const out: string[] = [];
  for (let p = 0; p + 8 <= b.length; p += b.readUInt32BE(p)) out.push(b.toString('latin1', p + 4, p + 8));
  return out;
};

let R: Recorded;
beforeAll(async () => {
  R = await recordCamera(10);
}, 90000);
afterAll(async () => {
  await R?.t.close();
  if (R?.tmp) fs.rmSync(R.tmp, { recursive: true, force: true });
});

const get = (url: string, token = R.admin, headers: Record<string, string> = {}) => R.t.app.inject({ url, headers: { token, ...headers } });

async function openPlayback(fromMs: number, toMs: number, token = R.admin) {
  const res = await get(`/api/v1/devices/record/playback?channel=${R.dev}:1&stime=${stampOf(fromMs)}&etime=${stampOf(toMs)}&protocol=ws_m4s`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as { URL: string; request_id: string; StartAt: string; EndAt: string };
}

const fromStamp = (s: string) => new Date(+s.slice(0, 4), +s.slice(4, 6) - 1, +s.slice(6, 8), +s.slice(8, 10), +s.slice(10, 12), +s.slice(12, 14)).getTime();

describe('recording under test', () => {
  it('has several segments', () => {
    expect(R.rows.length).toBeGreaterThanOrEqual(3);
  });
});

describe('WS playback', () => {
  let ref1x: { bytes: number; fragments: number; elapsed: number };

  it('starts at the keyframe at or before the second asked for, and is one continuous stream across segment files', async () => {
    const mid = Math.ceil((R.from.getTime() + 4500) / 1000) * 1000;
    const end = Math.floor(R.to.getTime() / 1000) * 1000;
    const body = await openPlayback(mid, end);
    expect(body.URL).toMatch(/^\/ws_m4s\/playback\/[0-9a-f]{32}\.mp4\?play_token=/);
    expect(body.request_id).toMatch(/^[0-9a-f]{32}$/);
    const startAt = fromStamp(body.StartAt);
    expect(startAt).toBeLessThanOrEqual(mid);
    expect(mid - startAt).toBeLessThanOrEqual(2000); // one GOP (2 s), second resolution
    const played = await playWs(R.t.baseUrl!, body.URL, { timeoutMs: 30000 });
    const inits = played.messages.filter((m) => m.type === 'init');
    expect(inits).toHaveLength(1);
    expect(inits[0].mime).toMatch(/^video\/mp4; codecs="avc1\.[0-9a-f]{6}"$/);
    const all = Buffer.concat(played.binary);
    const timeline = videoTimeline(all);
    expect(timeline.length).toBeGreaterThan(3);
    // continuous: every fragment starts where the previous ended; sequence numbers run on
    expect(timeline[0].base).toBe(0);
    for (let i = 1; i < timeline.length; i++) {
      expect(timeline[i].base).toBe(timeline[i - 1].base + timeline[i - 1].duration);
      expect(timeline[i].seq).toBe(timeline[i - 1].seq + 1);
    }
    const file = path.join(R.tmp, 'ws.mp4');
    fs.writeFileSync(file, all);
    expect(decodeErrors(file)).toBe('');
    const probe = ffprobeJson(file);
    const frames = Number(probe.streams[0].nb_read_frames);
    const seconds = timeline.reduce((n, f) => n + f.duration, 0) / 90000;
    expect(Math.abs(frames - seconds * 15)).toBeLessThanOrEqual(3);
    // the media covers from the keyframe to the end asked for (fragments ≤ 1 s)
    expect(seconds).toBeGreaterThanOrEqual((end - mid) / 1000 - 1);
    expect(seconds).toBeLessThanOrEqual((end - startAt) / 1000 + 2);
    ref1x = { bytes: all.length, fragments: timeline.length, elapsed: played.elapsed };
    // 1x plays in about real time (one second of media is sent ahead)
    expect(played.elapsed).toBeGreaterThan((seconds - 1.5) * 1000 * 0.8);
    // the socket closed → the session is gone
    played.ws.close();
    await until(async () => (await get(`/api/v2/playState?request_id=${body.request_id}`)).statusCode === 404, 5000);
  }, 40000);

  it('speed 4 sends the same content about four times faster', async () => {
    expect(ref1x).toBeDefined();
    const mid = Math.ceil((R.from.getTime() + 4500) / 1000) * 1000;
    const end = Math.floor(R.to.getTime() / 1000) * 1000;
    const body = await openPlayback(mid, end);
    const sp = await get(`/api/v1/playbackspeed?request_id=${body.request_id}&speed=4`);
    expect(sp.statusCode, sp.body).toBe(200);
    expect(sp.json().EasyDarwin.Body.Speed).toBe(4);
    const played = await playWs(R.t.baseUrl!, body.URL);
    const all = Buffer.concat(played.binary);
    expect(all.length).toBe(ref1x.bytes);
    expect(videoTimeline(all)).toHaveLength(ref1x.fragments);
    expect(ref1x.elapsed / played.elapsed).toBeGreaterThan(2);
    played.ws.close();
  }, 30000);

  it('pause stops delivery, resume continues; playState reports state, speed and position; seek restarts with a new init; bad speeds refused', async () => {
    const from = Math.ceil(R.from.getTime() / 1000) * 1000;
    const end = Math.floor(R.to.getTime() / 1000) * 1000;
    const body = await openPlayback(from, end);
    const id = body.request_id;
    const state = async () => {
      const res = await get(`/api/v2/playState?request_id=${id}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { code: number; msg: string; data: { state: string; speed: number; position: string; startAt: string; endAt: string } };
    };
    expect((await state()).data.state).toBe('waiting');
    let count = 0;
    const received: Record<string, unknown>[] = [];
    const done = playWs(R.t.baseUrl!, body.URL, {
      stop: (p) => {
        count = p.binary.length;
        received.splice(0, received.length, ...p.messages);
        return false;
      },
    });
    await until(() => count >= 4, 10000);
    const s1 = await state();
    expect(s1).toMatchObject({ code: 200, data: { state: 'playing', speed: 1, startAt: stampOf(from), endAt: stampOf(end) } });
    const pos = fromStamp(s1.data.position);
    expect(pos).toBeGreaterThanOrEqual(from - 2000);
    expect(pos).toBeLessThanOrEqual(end);

    const pause = await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=pause`);
    expect(pause.statusCode, pause.body).toBe(200);
    expect((await state()).data.state).toBe('paused');
    await sleep(300);
    const atPause = count;
    const posPaused = (await state()).data.position;
    // Paused for 2 s: no more media, and the position stands still (one wait for both).
    await sleep(2000);
    expect(count).toBe(atPause);
    expect((await state()).data.position).toBe(posPaused);

    expect((await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=resume`)).statusCode).toBe(200);
    await until(() => count > atPause, 5000);
    expect((await state()).data.state).toBe('playing');

    expect((await get(`/api/v1/playbackspeed?request_id=${id}&scale=2`)).statusCode).toBe(200);
    expect((await state()).data.speed).toBe(2);
    expect((await get(`/api/v1/playbackspeed?request_id=${id}&speed=3`)).statusCode).toBe(400);
    expect((await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=scale&scale=16`)).statusCode).toBe(200);
    expect((await state()).data.speed).toBe(16);

    // seek back to the start: a second init, then fragments again
    const seek = await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=seek&time=${stampOf(from + 1000)}`);
    expect(seek.statusCode, seek.body).toBe(200);
    const played = await done;
    expect(received.filter((m) => m.type === 'init')).toHaveLength(2);
    expect(received.filter((m) => m.type === 'state' && m.state === 'ended')).toHaveLength(1);
    // Why it ended: in the opener's language on the socket (Chinese here), in the asker's from playState.
    expect(played.messages.at(-1)).toMatchObject({ type: 'state', state: 'ended', reason: '已播放到所选时间范围或录像的结尾' });
    expect((await state()).data).toMatchObject({ state: 'ended', reason: '已播放到所选时间范围或录像的结尾' });
    const en = await get(`/api/v2/playState?request_id=${id}&lang=en-US`);
    expect(en.json().data.reason).toBe('the end of the range or of the recordings');
    // the seek's run alone decodes: the last init and what follows it
    const lastInit = played.binary.map((b) => b.toString('latin1', 4, 8)).lastIndexOf('ftyp');
    const file = path.join(R.tmp, 'seek.mp4');
    fs.writeFileSync(file, Buffer.concat(played.binary.slice(lastInit)));
    expect(decodeErrors(file)).toBe('');
    played.ws.close();
    // unknown sessions
    expect((await get('/api/v2/playState?request_id=0123456789abcdef0123456789abcdef')).json()).toMatchObject({ code: 404 });
    expect((await get('/api/v1/devices/record/playback/control?request_id=zz&command=pause')).statusCode).toBe(400);
  }, 40000);

  it('two sessions of the same channel are independent: one paused, sped up or stopped leaves the other as it was', async () => {
    const from = Math.ceil(R.from.getTime() / 1000) * 1000;
    const end = Math.floor(R.to.getTime() / 1000) * 1000;
    const a = await openPlayback(from, end);
    const b = await openPlayback(from, end);
    expect(a.request_id).not.toBe(b.request_id);
    const state = async (id: string) => (await get(`/api/v2/playState?request_id=${id}`)).json();
    const count = { a: 0, b: 0 };
    const playA = playWs(R.t.baseUrl!, a.URL, { stop: (p) => ((count.a = p.binary.length), false) });
    const playB = playWs(R.t.baseUrl!, b.URL, { stop: (p) => ((count.b = p.binary.length), false) });
    await until(() => count.a >= 2 && count.b >= 2, 10000);

    expect((await get(`/api/v1/devices/record/playback/control?request_id=${a.request_id}&command=pause`)).statusCode).toBe(200);
    expect((await get(`/api/v1/playbackspeed?request_id=${b.request_id}&speed=2`)).statusCode).toBe(200);
    await sleep(300);
    const aPaused = count.a;
    const bBefore = count.b;
    await until(() => count.b > bBefore, 5000);
    expect(count.a).toBe(aPaused);
    expect((await state(a.request_id)).data).toMatchObject({ state: 'paused', speed: 1 });
    expect((await state(b.request_id)).data).toMatchObject({ state: 'playing', speed: 2 });

    // a stopped: its socket closes, its session is gone; b plays to its end
    expect((await get(`/api/v1/devices/record/playback/control?request_id=${a.request_id}&command=stop`)).statusCode).toBe(200);
    await playA;
    expect((await state(a.request_id)).code).toBe(404);
    const played = await playB;
    expect(played.messages.at(-1)).toMatchObject({ type: 'state', state: 'ended' });
    const file = path.join(R.tmp, 'second-session.mp4');
    fs.writeFileSync(file, Buffer.concat(played.binary));
    expect(decodeErrors(file)).toBe('');
    played.ws.close();
  }, 40000);

  it('a session without a socket ends by itself; a second socket is refused; a bad token is refused', async () => {
    const { playbackOf } = await import('../../src/services/playback/index.js');
    const svc = playbackOf(R.t.ctx, R.t.app.log);
    const body = await openPlayback(R.from.getTime() + 1000, R.to.getTime());
    expect(svc.get(body.request_id)).toBeDefined();
    const wrong = body.URL.replace(/play_token=.*/, 'play_token=abc.def');
    await expect(playWs(R.t.baseUrl!, wrong, { timeoutMs: 3000 })).rejects.toThrow(/401/);
    const first = playWs(R.t.baseUrl!, body.URL, { stop: (p) => p.binary.length >= 2 });
    const p1 = await first;
    await expect(playWs(R.t.baseUrl!, body.URL, { timeoutMs: 3000 })).rejects.toThrow(/409/);
    p1.ws.close();
    await until(() => !svc.get(body.request_id), 5000);
    // no socket: closed after the idle time (shortened here)
    const s = svc.create(R.pk, 1, R.from.getTime(), R.to.getTime());
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const s2 = svc.create(R.pk, 1, R.from.getTime(), R.to.getTime());
      vi.advanceTimersByTime(61_000);
      expect(svc.get(s2.id)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    s.close();
    expect(svc.get(s.id)).toBeUndefined();
  }, 30000);
});

describe('download', () => {
  it('a 5 s range downloads as one progressive MP4 of 5 s (an edit list starts it at the asked second although the samples start at the keyframe before) that ffmpeg decodes, named by channel and time', async () => {
    const start = Math.ceil((R.from.getTime() + 2500) / 1000) * 1000;
    const end = start + 5000;
    const url = `/api/v1/record/recordvideo/download/mp4/${R.dev}:1/${stampOf(start)}/${stampOf(end)}`;
    const res = await get(url);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const ch = await R.t.ctx.inventory.channels.require(R.dev, '1');
    const name = channelFileName(ch.name, [stampOf(start), stampOf(end)], 'mp4');
    expect(res.headers['content-disposition']).toContain('attachment;');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
    if (/^[A-Za-z0-9 ._()-]+$/.test(name)) expect(res.headers['content-disposition']).toContain(`filename="${name}"`);
    expect(topBoxes(res.rawPayload)).toEqual(['ftyp', 'moov', 'mdat']);
    const file = path.join(R.tmp, 'range.mp4');
    fs.writeFileSync(file, res.rawPayload);
    expect(decodeErrors(file)).toBe('');
    const probe = ffprobeJson(file);
    // exactly the asked range: within one frame (15 fps), although the samples start up to a GOP earlier
    expect(Math.abs(Number(probe.format.duration) - 5)).toBeLessThanOrEqual(1 / 15 + 0.001);
    expect(Math.abs(Number(probe.streams[0].nb_read_frames) - 5 * 15)).toBeLessThanOrEqual(1);
    expect(fromStamp(String(res.headers['x-record-start']))).toBeLessThanOrEqual(start);
    const bytes = await get(url, R.admin, { range: 'bytes=1000-20999' });
    expect(bytes.statusCode).toBe(206);
    expect(bytes.rawPayload.equals(res.rawPayload.subarray(1000, 21000))).toBe(true);

    // play/mp4: the fragmented join inline (one timeline from the keyframe), and byte ranges
    const play = await get(url.replace('/download/', '/play/'));
    expect(play.headers['content-disposition']).toMatch(/^inline;/);
    const pfile = path.join(R.tmp, 'play.mp4');
    fs.writeFileSync(pfile, play.rawPayload);
    expect(decodeErrors(pfile)).toBe('');
    const tl = videoTimeline(play.rawPayload);
    for (let i = 1; i < tl.length; i++) expect(tl[i].base).toBe(tl[i - 1].base + tl[i - 1].duration);
    const part = await get(url.replace('/download/', '/play/'), R.admin, { range: 'bytes=1000-20999' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-20999/${play.rawPayload.length}`);
    expect(part.rawPayload.equals(play.rawPayload.subarray(1000, 21000))).toBe(true);
    const tail = await get(url.replace('/download/', '/play/'), R.admin, { range: 'bytes=-100' });
    expect(tail.rawPayload.equals(play.rawPayload.subarray(play.rawPayload.length - 100))).toBe(true);
    const bad = await get(url.replace('/download/', '/play/'), R.admin, { range: `bytes=${play.rawPayload.length}-` });
    expect(bad.statusCode).toBe(416);
    // the m3u8 form: byte ranges of that play URL (structure only; no player reads it in this test)
    const m3u8 = await get(url.replace('/download/mp4/', '/play/m3u8/'));
    expect(m3u8.statusCode).toBe(200);
    expect(m3u8.body).toMatch(/#EXT-X-MAP:URI="[^"]+\/play\/mp4\/[^"]+",BYTERANGE="\d+@0"/);
    expect(m3u8.body).toContain('#EXT-X-ENDLIST');
  }, 30000);

  it('download/{id}/0 is the whole segment as one progressive MP4 (its samples, its length); download/{id}/{start} starts at start', async () => {
    const row = R.rows[1];
    const res = await get(`/api/v1/download/${row.id}/0`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const onDisk = fs.readFileSync(path.join(R.t.settings.dataDir, 'records', row.path));
    // the same sample bytes; sample tables instead of moofs
    expect(Math.abs(res.rawPayload.length - onDisk.length)).toBeLessThan(onDisk.length * 0.05);
    const whole = ffprobeJson(path.join(R.t.settings.dataDir, 'records', row.path));
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+_\d{14}_\d{14}\.mp4"/);
    const file = path.join(R.tmp, 'row.mp4');
    fs.writeFileSync(file, res.rawPayload);
    expect(decodeErrors(file)).toBe('');
    const probe = ffprobeJson(file);
    expect(probe.streams[0].nb_read_frames).toBe(whole.streams[0].nb_read_frames);
    expect(Math.abs(Number(probe.format.duration) - Number(whole.format.duration))).toBeLessThanOrEqual(1 / 15 + 0.001);
    const start = Math.ceil((new Date(row.start_at).getTime() + 1500) / 1000) * 1000;
    const part = await get(`/api/v1/download/${row.id}/${stampOf(start)}`);
    expect(part.statusCode, part.body.slice(0, 200)).toBe(200);
    expect(part.rawPayload.length).toBeLessThanOrEqual(res.rawPayload.length);
    expect(fromStamp(String(part.headers['x-record-start']))).toBeLessThanOrEqual(start);
    const pfile = path.join(R.tmp, 'row-part.mp4');
    fs.writeFileSync(pfile, part.rawPayload);
    const rowEnd = new Date(row.end_at).getTime();
    expect(Math.abs(Number(ffprobeJson(pfile).format.duration) - (rowEnd - start) / 1000)).toBeLessThanOrEqual(1 / 15 + 0.001);
    expect((await get(`/api/v1/download/${row.id}/20000101000000`)).statusCode).toBe(400);
    // Device-side downloads (GB28181) validate their name: tests in test/gb/records.test.ts.
    expect((await get('/api/v1/downloaddevicerecord/1/x/10')).statusCode).toBe(400);
  }, 30000);
});

describe('refusals', () => {
  it('odd ids and channels are refused; a row whose path leaves the record folder is refused; nothing outside the record folder is opened', async () => {
    const root = path.join(R.t.settings.dataDir, 'records');
    const opened: string[] = [];
    const realOpen = fsp.open.bind(fsp);
    const spyOpen = vi.spyOn(fsp, 'open').mockImplementation((...args: Parameters<typeof fsp.open>) => {
      opened.push(String(args[0]));
      return realOpen(...args);
    });
    const spyStat = vi.spyOn(fsp, 'stat');
    try {
      const s = stampOf(R.from.getTime());
      const e = stampOf(R.to.getTime());
      for (const url of [
        '/api/v1/download/..%2F..%2Fetc%2Fpasswd/0',
        '/api/v1/download/1%2F..%2F..%2Fx/0',
        '/api/v1/download/../../etc/passwd/0',
        '/api/v1/download/-1/0',
        '/api/v1/download/1e3/0',
        `/api/v1/download/${R.rows[0].id}/..%2F..`,
        `/api/v1/record/recordvideo/download/mp4/..:../${s}/${e}`,
        `/api/v1/record/recordvideo/download/mp4/..%2F..%2Fetc%2Fpasswd/${s}/${e}`,
        `/api/v1/record/recordvideo/play/mp4/${R.dev}:1%2F..%2F..%2Fetc/${s}/${e}`,
        `/api/v1/record/recordvideo/play/m3u8/..:../${s}/${e}`,
        `/api/v1/record/recordvideo/download/mp4/${R.dev}:1/..%2F..%2Fetc/${e}`,
        `/api/v1/devices/record/playback?channel=..:..&stime=${s}&etime=${e}`,
        `/api/v1/devices/record/playback?channel=..%2F..%2Fetc:1&stime=${s}&etime=${e}`,
      ]) {
        const res = await get(url);
        expect([400, 404], `${url} → ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
        expect(res.body).not.toContain('root:');
      }
      // a row whose path was tampered with to leave the record folder, or to name an unknown root
      const victim = R.rows[0];
      await R.t.ctx.db.updateTable('recordings').set({ path: '../../../../../../etc/passwd' }).where('id', '=', victim.id).execute();
      const res1 = await get(`/api/v1/download/${victim.id}/0`);
      expect(res1.statusCode).toBe(404);
      expect(res1.body).not.toContain('root:');
      // a range over it: the tampered row is left out, the others still play
      const res2 = await get(`/api/v1/record/recordvideo/download/mp4/${R.dev}:1/${s}/${e}`);
      expect(res2.statusCode).toBe(200);
      expect(res2.rawPayload.includes(Buffer.from('root:x:0:0'))).toBe(false);
      await R.t.ctx.db.updateTable('recordings').set({ path: victim.path, root: '/etc' }).where('id', '=', victim.id).execute();
      expect((await get(`/api/v1/download/${victim.id}/0`)).statusCode).toBe(404);
      const abs = path.resolve(root, '..', '..', 'outside.mp4');
      await R.t.ctx.db.updateTable('recordings').set({ path: abs, root: '' }).where('id', '=', victim.id).execute();
      expect((await get(`/api/v1/download/${victim.id}/0`)).statusCode).toBe(404);
      // put it back
      const orig = await R.t.ctx.db.selectFrom('recordings').select('root').where('id', '=', R.rows[1].id).executeTakeFirstOrThrow();
      await R.t.ctx.db.updateTable('recordings').set({ path: victim.path, root: orig.root }).where('id', '=', victim.id).execute();
      expect((await get(`/api/v1/download/${victim.id}/0`)).statusCode).toBe(200);
      const outside = [...opened, ...spyStat.mock.calls.map((c) => String(c[0]))].filter((f) => !path.resolve(f).startsWith(root + path.sep));
      expect(outside).toEqual([]);
      expect(opened.length).toBeGreaterThan(0);
    } finally {
      spyOpen.mockRestore();
      spyStat.mockRestore();
    }
  }, 30000);

  it('a user whose role does not include the channel gets 404 everywhere', async () => {
    const op = await makeOperator(R.t, R.admin, 'viewer1');
    const s = stampOf(R.from.getTime());
    const e = stampOf(R.to.getTime());
    for (const url of [
      `/api/v1/devices/record/playback?channel=${R.dev}:1&stime=${s}&etime=${e}`,
      `/api/v1/devices/record/playback?device=${R.dev}&channel=1&stime=${s}&etime=${e}`,
      `/api/v1/download/${R.rows[1].id}/0`,
      `/api/v1/record/recordvideo/download/mp4/${R.dev}:1/${s}/${e}`,
      `/api/v1/record/recordvideo/play/m3u8/${R.dev}:1/${s}/${e}`,
    ]) {
      const res = await get(url, op.token);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(404);
    }
    // another user's session cannot be steered or read
    const body = await openPlayback(R.from.getTime() + 1000, R.to.getTime());
    expect((await get(`/api/v2/playState?request_id=${body.request_id}`, op.token)).json()).toMatchObject({ code: 404 });
    expect((await get(`/api/v1/devices/record/playback/control?request_id=${body.request_id}&command=pause`, op.token)).statusCode).toBe(404);
    // without login: 401
    expect((await R.t.app.inject({ url: `/api/v1/download/${R.rows[1].id}/0` })).statusCode).toBe(401);
  }, 30000);

  it('a keep-alive (EasyCVR: the same call with url) answers the session it names, makes none, and only for its user', async () => {
    const { playbackOf } = await import('../../src/services/playback/index.js');
    const body = await openPlayback(R.from.getTime() + 1000, R.to.getTime());
    const sessions = playbackOf(R.t.ctx, R.t.app.log).size;
    const again = await get(`/api/v1/devices/record/playback?url=${encodeURIComponent(body.URL)}`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().EasyDarwin.Body).toMatchObject({ request_id: body.request_id, EndAt: body.EndAt, State: 'waiting' });
    expect(again.json().EasyDarwin.Body.URL).toMatch(new RegExp(`^/ws_m4s/playback/${body.request_id}\\.mp4\\?play_token=`));
    expect(playbackOf(R.t.ctx, R.t.app.log).size).toBe(sessions);
    const op = await makeOperator(R.t, R.admin, 'keeper1');
    expect((await get(`/api/v1/devices/record/playback?url=${encodeURIComponent(body.URL)}`, op.token)).statusCode).toBe(404);
    expect((await get(`/api/v1/devices/record/playback?url=/ws_m4s/playback/${'0'.repeat(32)}.mp4`)).statusCode).toBe(404);
    // without url, stime is still required
    const none = await get(`/api/v1/devices/record/playback?channel=${R.dev}:1&lang=en-US`);
    expect(none.statusCode).toBe(400);
    expect(none.json().msg).toBe('Invalid parameter stime: required');
  });

  it('when every session has its viewer and the bound is reached, a new playback is a clear 503, not an internal error', async () => {
    const { playbackOf, playbackOptions } = await import('../../src/services/playback/index.js');
    // the sessions earlier tests left without a socket go first: the bound is then the one below
    playbackOf(R.t.ctx, R.t.app.log).closeAll();
    playbackOptions.set(R.t.ctx, { maxSessions: 1 });
    let viewer: Awaited<ReturnType<typeof playWs>>['ws'] | undefined;
    try {
      const first = await openPlayback(R.from.getTime() + 1000, R.to.getTime());
      await playWs(R.t.baseUrl!, first.URL, { stop: (p) => p.binary.length > 0, onOpen: (ws) => (viewer = ws), timeoutMs: 10000 }).catch(() => undefined);
      const res = await get(`/api/v1/devices/record/playback?channel=${R.dev}:1&stime=${stampOf(R.from.getTime() + 1000)}&etime=${stampOf(R.to.getTime())}&lang=en-US`);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().msg).toBe('Too many recording playbacks at once (at most 1); try again later');
    } finally {
      viewer?.close();
      playbackOptions.delete(R.t.ctx);
    }
  }, 30000);
});

describe('gaps and the segment reader', () => {
  it('a gap between recordings is skipped with a gap message; the timeline runs on', async () => {
    const all = await R.t.ctx.recording.segmentsBetween(R.pk, R.from, R.to);
    const missing = all[1];
    const sent: (string | Uint8Array)[] = [];
    const socket = { bufferedAmount: 0, readyState: 1, send: (d: string | Uint8Array) => void sent.push(d), close: () => undefined };
    const session = new PlaybackSession('test', R.pk, 1, R.from.getTime(), R.to.getTime(), {
      reader: new SegmentReader(),
      segments: async (a, b) => (await R.t.ctx.recording.segmentsBetween(R.pk, a, b)).filter((x) => x.id !== missing.id),
      leadSeconds: 1000,
    });
    session.attach(socket);
    await until(() => session.state === 'ended', 10000);
    const messages = sent.filter((d): d is string => typeof d === 'string').map((d) => JSON.parse(d));
    const gap = messages.find((m) => m.type === 'gap');
    expect(gap).toBeDefined();
    expect(gap.from).toBeLessThanOrEqual(missing.startAt.getTime() + 1000);
    expect(gap.to).toBeGreaterThanOrEqual(missing.endAt.getTime() - 1000);
    expect(messages.filter((m) => m.type === 'init')).toHaveLength(1);
    const tl = videoTimeline(Buffer.concat(sent.filter((d): d is Uint8Array => typeof d !== 'string')));
    for (let i = 1; i < tl.length; i++) expect(tl[i].base).toBe(tl[i - 1].base + tl[i - 1].duration);
    session.close();
  });

  it('lists fragments with time, duration, sync and byte ranges; caches by size and mtime; scans on a file that grew; ignores a torn tail', async () => {
    const seg = (await R.t.ctx.recording.segmentsBetween(R.pk, R.from, R.to))[1];
    const reader = new SegmentReader();
    const full = await reader.layout(seg.file);
    expect(full.fragments.length).toBeGreaterThanOrEqual(2);
    expect(full.fragments[0].sync).toBe(true);
    expect(full.validLength).toBe(fs.statSync(seg.file).size);
    const ts = full.info.primary.timescale;
    for (let i = 1; i < full.fragments.length; i++) {
      const [a, b] = [full.fragments[i - 1], full.fragments[i]];
      expect(b.offset).toBe(a.offset + a.length);
      expect(b.time).toBe(a.time + a.duration);
      expect(b.duration / ts).toBeLessThanOrEqual(2);
    }
    const durationMs = (full.fragments.reduce((n, f) => n + f.duration, 0) / ts) * 1000;
    expect(Math.abs(durationMs - seg.durationMs)).toBeLessThan(5);
    await reader.layout(seg.file);
    expect(reader.stats).toEqual({ scans: 1, hits: 1 });
    // a copy cut in the middle of its third fragment, then grown back
    const copy = path.join(R.tmp, 'growing.mp4');
    const bytes = fs.readFileSync(seg.file);
    const cut = full.fragments[Math.min(2, full.fragments.length - 1)];
    fs.writeFileSync(copy, bytes.subarray(0, cut.offset + 20));
    const part = await reader.layout(copy);
    expect(part.fragments).toHaveLength(full.fragments.indexOf(cut));
    expect(part.validLength).toBe(cut.offset);
    fs.writeFileSync(copy, bytes);
    const grown = await reader.layout(copy);
    expect(grown.fragments).toEqual(full.fragments);
    expect((await scanSegment(copy)).fragments).toEqual(full.fragments);
  });
});
