/**
 * Recordings kept on a GB28181 device, through the whole server, against the TS device double on
 * loopback (SIP over UDP; media over UDP or TCP): RecordInfo answered in many pages and aggregated
 * (querydaily/querymonthly with recordType=Device, devices/record/files), a time-out reported with what
 * arrived; INVITE s=Playback with t= and u=, played to a real WS fMP4 viewer whose fragments ffprobe
 * decodes; speed through INFO PLAY Scale with the timestamps rescaled; pause/resume; MediaStatus 121
 * ending the session; s=Download with downloadspeed giving an MP4 of the asked duration.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import WebSocket from 'ws';
import { readMoof, readInit } from '@opencvr/fmp4';
import type { RecordItem } from '@opencvr/manscdp';
import { sleep, until } from '../helpers/index.js';
import { CHN, DEV, startRecordsRig } from './records-support.js';
import { answerRecordInfo, serveHistory, type HistoryServing } from '../fixtures/gb-device-records.js';
import { gbRecordsOf } from '../../src/gb/records/index.js';
import { gbTimeOf } from '../../src/gb/records/time.js';
import { localStamp } from '../../src/services/recording/time.js';

/** A day with recordings: 20 files of 10 minutes from 08:00, a gap, then 2 more in the afternoon. */
const DAY = new Date(2026, 2, 14);
function dayRecords(): RecordItem[] {
  const at = (h: number, m: number) => gbTimeOf(new Date(DAY.getFullYear(), DAY.getMonth(), DAY.getDate(), h, m));
  const items: RecordItem[] = [];
  for (let i = 0; i < 20; i++) {
    const s = 8 * 60 + i * 10;
    items.push({ deviceId: CHN, name: `rec${i}`, filePath: `/disk1/${i}.mp4`, startTime: at(Math.floor(s / 60), s % 60), endTime: at(Math.floor((s + 10) / 60), (s + 10) % 60), type: 'time', fileSize: 1000 + i });
  }
  items.push({ deviceId: CHN, name: 'pm1', startTime: at(14, 0), endTime: at(14, 30), type: 'alarm' });
  items.push({ deviceId: CHN, name: 'pm2', startTime: at(14, 30), endTime: at(15, 0), type: 'alarm' });
  // Shuffled: the platform sorts by start.
  return items.reverse();
}

const body = (res: { json(): { EasyDarwin: { Body: Record<string, unknown> } } }) => res.json().EasyDarwin.Body;

/**
 * This test's rig (startRecordsRig: its own app, SIP port, RTP ports and device double) with the calls
 * bound to it, closed when the test ends. The tests of the first two blocks run at once
 * (describe.concurrent), but for the two that measure the pace: each waits on its own device's pacing
 * and time-outs, not on the others. The downloads run one at a time (one puts a failing ffmpeg on PATH).
 */
async function recordsRig({ onTestFinished }: TestContext) {
  const { t, admin, dev } = await startRecordsRig();
  let history: HistoryServing | undefined;
  onTestFinished(async () => {
    await history?.stop();
    await dev.close();
    await t.close();
  });
  expect(await t.ctx.db.selectFrom('channels').select('channel_id').where('channel_id', '=', CHN).executeTakeFirst()).toBeTruthy();
  const api = (url: string, query: Record<string, string> = {}) => t.app.inject({ url, headers: { token: admin }, query });
  return {
    t,
    admin,
    dev,
    api,
    /** The device double answering INVITE s=Playback / s=Download (stopped with the rig). */
    serve: (opts?: Parameters<typeof serveHistory>[1]) => (history = serveHistory(dev, opts)),
    async openPlayback(stime: Date, seconds: number, lang?: string) {
      const res = await api('/api/v1/devices/record/playback', { channel: `${DEV}:${CHN}`, stime: localStamp(stime), etime: localStamp(new Date(stime.getTime() + seconds * 1000)), recordType: 'Device', ...(lang ? { lang } : {}) });
      expect(res.statusCode, res.body).toBe(200);
      return body(res) as { URL: string; request_id: string; Source: string };
    },
    probe(r: Received, name: string) {
      const file = path.join(t.settings.dataDir, name);
      fs.writeFileSync(file, Buffer.concat(r.binary.map((b) => b.data)));
      return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-count_frames', '-of', 'json', file], { encoding: 'utf8' })).streams[0];
    },
  };
}

describe.concurrent('RecordInfo: the device’s own record list', () => {
  it('22 items answered in 8 pages are aggregated by SN, sorted and merged into the day’s ranges (querydaily recordType=Device)', async (ctx) => {
    const { expect } = ctx;
    const { dev, api } = await recordsRig(ctx);
    const a = answerRecordInfo(dev, { records: dayRecords(), perPage: 3 });
    const res = await api('/api/v1/record/querydaily', { id: `${DEV}:${CHN}`, period: localStamp(DAY).slice(0, 8), recordType: 'Device' });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({ total: 2, complete: 1, received: 22, sumNum: 22 });
    expect(b.list.map((x: { startAt: string; endAt: string }) => `${x.startAt.slice(8)}-${x.endAt.slice(8)}`)).toEqual(['080000-112000', '140000-150000']);
    expect(b.list[0]).toMatchObject({ duration: 200 * 60, recordType: 'Device', files: 20 });
    expect(a.queries).toHaveLength(1);
    expect(a.queries[0]).toMatchObject({ deviceId: CHN, cmdType: 'RecordInfo', startTime: gbTimeOf(DAY), type: 'all' });
    await until(() => a.pageAnswers.length === 8);
    expect(a.pageAnswers.every((s) => s === 200)).toBe(true);
  });

  it('devices/record/files lists every file sorted; querymonthly recordType=Device flags the day; the platform’s own querydaily is untouched', async (ctx) => {
    const { expect } = ctx;
    const { dev, api } = await recordsRig(ctx);
    answerRecordInfo(dev, { records: dayRecords(), perPage: 5 });
    const files = body(await api('/api/v1/devices/record/files', { id: `${DEV}:${CHN}`, period: localStamp(DAY).slice(0, 8) }));
    expect(files).toMatchObject({ Total: 22, Complete: 1, SumNum: 22 });
    const list = files.RecordList as { name: string; startAt: string; FilePath: string; FileSize: number }[];
    expect(list[0]).toMatchObject({ name: 'rec0', FilePath: '/disk1/0.mp4', FileSize: 1000 });
    expect(list.map((x) => x.startAt)).toEqual([...list.map((x) => x.startAt)].sort());
    const month = await api('/api/v1/record/querymonthly', { id: `${DEV}:${CHN}`, period: localStamp(DAY).slice(0, 6), recordType: 'Device' });
    expect(month.statusCode).toBe(200);
    expect(month.body).toHaveLength(31);
    expect(month.body[13]).toBe('1');
    expect(month.body.replace(/0/g, '')).toBe('1');
    const cloud = await api('/api/v1/record/querydaily', { id: `${DEV}:${CHN}`, period: localStamp(DAY).slice(0, 8) });
    expect(cloud.json()).toMatchObject({ total: 0 });
  });

  it('a device that stops short: the answer ends by time-out with what arrived, marked incomplete', async (ctx) => {
    const { expect } = ctx;
    const { t, dev, api } = await recordsRig(ctx);
    gbRecordsOf(t.ctx).query.configure({ idleTimeoutMs: 600 });
    answerRecordInfo(dev, { records: dayRecords(), perPage: 3, pages: 2 });
    const files = body(await api('/api/v1/devices/record/files', { id: `${DEV}:${CHN}`, period: localStamp(DAY).slice(0, 8) }));
    expect(files).toMatchObject({ Total: 6, Complete: 0, Received: 6, SumNum: 22, Reason: 'idle-timeout' });
  });

  it('an offline device is named; a non-GB channel is refused', async (ctx) => {
    const { expect } = ctx;
    const { dev, api } = await recordsRig(ctx);
    await dev.unregister();
    const res = await api('/api/v1/devices/record/files', { id: `${DEV}:${CHN}`, period: '20260314' });
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toMatch(/34020000001320000001/);
  });
});

interface Received {
  text: { type: string; state?: string; reason?: string; mime?: string }[];
  binary: { data: Buffer; at: number }[];
  ws: WebSocket;
  closed: Promise<void>;
}

function view(url: string): Received {
  const ws = new WebSocket(url);
  const r: Received = { text: [], binary: [], ws, closed: new Promise((resolve) => ws.on('close', () => resolve())) };
  ws.on('message', (data, isBinary) => {
    if (isBinary) r.binary.push({ data: data as Buffer, at: Date.now() });
    else r.text.push(JSON.parse(String(data)));
  });
  ws.on('error', () => undefined);
  return r;
}

/** Media fragments (after the init) as decode-time spans in seconds. */
function spans(r: Received) {
  const init = r.binary.find((b) => b.data.subarray(4, 8).toString() === 'ftyp');
  const scale = init ? readInit(init.data).tracks[0].timescale : 90000;
  return r.binary
    .filter((b) => b.data.subarray(4, 8).toString() === 'moof')
    .map((b) => {
      const traf = readMoof(b.data).trafs[0];
      return { start: traf.baseDecodeTime / scale, end: (traf.baseDecodeTime + traf.duration) / scale, at: b.at };
    });
}

describe.concurrent('playback of a device recording (INVITE s=Playback)', () => {
  const START = new Date(2026, 2, 14, 8, 0, 0);

  for (const transport of ['UDP', 'TCP'] as const) {
    it(`${transport}: INVITE with t= and u=, PS over RTP to a WS viewer that ffprobe decodes`, async (ctx) => {
      const { expect } = ctx;
      const { t, serve, openPlayback, probe } = await recordsRig(ctx);
      await t.ctx.config.set('gb', { MediaTransport: transport, MediaTransportMode: 'passive' });
      const history = serve();
      const open = await openPlayback(START, 600);
      expect(open.Source).toBe('Device');
      const inv = new TextDecoder().decode(history.invites[0].body);
      const startUnix = Math.floor(START.getTime() / 1000);
      expect(inv).toMatch(/^s=Playback\r$/m);
      expect(inv).toContain(`u=${CHN}:0`);
      expect(inv).toContain(`t=${startUnix} ${startUnix + 600}`);
      expect(inv).toMatch(transport === 'UDP' ? /m=video \d+ RTP\/AVP/ : /m=video \d+ TCP\/RTP\/AVP[^\r]*\r\n(?:.*\r\n)*a=setup:passive/);
      expect(inv).toMatch(/^y=1\d{9}\r$/m);
      const r = view(`${t.baseUrl!.replace('http', 'ws')}${open.URL}`);
      await until(() => spans(r).length >= 6);
      r.ws.close();
      expect(r.text.find((m) => m.type === 'init')?.mime).toMatch(/^video\/mp4; codecs="avc1\./);
      const s = probe(r, `gb-playback-${transport}.mp4`);
      expect(s).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
      expect(Number(s.nb_read_frames)).toBeGreaterThan(10);
      expect(history.sessions[0].transport).toBe(transport.toLowerCase());
      // The socket closed: the session ends with a BYE.
      await until(() => history.sessions[0].byeReceived);
    });
  }

  // Alone (it.sequential), not beside the others: they compare the device's pace with the output's,
  // and the device double sends from this test process.
  for (const scale of [2, 4]) {
    it.sequential(`${scale}×: INFO PLAY Scale; the device sends ${scale}× faster and the output timeline is divided by ${scale}`, async (ctx) => {
      const { expect } = ctx;
      const { t, admin, api, serve, openPlayback } = await recordsRig(ctx);
      const history = serve();
      const open = await openPlayback(START, 600);
      const r = view(`${t.baseUrl!.replace('http', 'ws')}${open.URL}`);
      await until(() => spans(r).length >= 2);
      const sp = await api('/api/v1/playbackspeed', { request_id: open.request_id, speed: String(scale) });
      expect(sp.statusCode, sp.body).toBe(200);
      const sess = history.sessions[0];
      expect(sess.infos.at(-1)).toMatchObject({ method: 'PLAY', scale });
      const changedAt = Date.now();
      const sentBefore = sess.sender.sent.length;
      const framesBefore = spans(r).length;
      // Wait for 8 s of recording after the change.
      await until(() => sess.sender.sent.length - sentBefore >= 200, 15000);
      await sleep(300);
      r.ws.close();
      const device = sess.sender.sent.slice(sentBefore);
      const deviceAdvance = (device.at(-1)!.ts - device[0].ts) / 90000;
      const out = spans(r).slice(framesBefore + 1);
      const outAdvance = out.at(-1)!.end - out[0].start;
      // The device sent `scale` seconds of recording per second; the output carries one second per second.
      expect(outAdvance / deviceAdvance).toBeGreaterThan(0.7 / scale);
      expect(outAdvance / deviceAdvance).toBeLessThan(1.35 / scale);
      expect(deviceAdvance / ((device.at(-1)!.at - changedAt) / 1000)).toBeGreaterThan(scale * 0.5);
      // The output timeline never goes back.
      const all = spans(r);
      for (let i = 1; i < all.length; i++) expect(all[i].start).toBeGreaterThanOrEqual(all[i - 1].start);
      const state = await t.app.inject({ url: '/api/v2/playState', headers: { token: admin }, query: { request_id: open.request_id } });
      expect(state.statusCode === 200 || state.statusCode === 404).toBe(true);
    });
  }

  it('pause and resume send PAUSE and PLAY; 16× is refused for a device', async (ctx) => {
    const { expect } = ctx;
    const { t, api, serve, openPlayback } = await recordsRig(ctx);
    const history = serve();
    const open = await openPlayback(START, 600);
    const r = view(`${t.baseUrl!.replace('http', 'ws')}${open.URL}`);
    await until(() => spans(r).length >= 2);
    const sess = history.sessions[0];
    const pause = await api('/api/v1/devices/record/playback/control', { request_id: open.request_id, command: 'pause' });
    expect(body(pause)).toMatchObject({ State: 'paused' });
    expect(sess.infos.at(-1)).toMatchObject({ method: 'PAUSE' });
    const n = sess.sender.stats.frames;
    await sleep(600);
    expect(sess.sender.stats.frames).toBe(n);
    const resume = await api('/api/v1/devices/record/playback/control', { request_id: open.request_id, command: 'resume' });
    expect(body(resume)).toMatchObject({ State: 'playing' });
    expect(sess.infos.at(-1)).toEqual({ method: 'PLAY', cseq: expect.any(Number) });
    await until(() => sess.sender.stats.frames > n + 5);
    const fast = await api('/api/v1/playbackspeed', { request_id: open.request_id, speed: '16' });
    expect(fast.statusCode).toBe(400);
    expect(fast.json().msg).toBe('参数 speed 不合法: 设备录像只能以 0.5, 1, 2, 4, 8 倍速播放');
    const seek = await api('/api/v1/devices/record/playback/control', { request_id: open.request_id, command: 'seek', time: localStamp(new Date(START.getTime() + 120_000)) });
    expect(seek.statusCode, seek.body).toBe(200);
    expect(sess.infos.at(-1)).toMatchObject({ method: 'PLAY', rangeStart: 120 });
    r.ws.close();
  });

  it('a device refusing a control (INFO) is named with its status, in the answer language', async (ctx) => {
    const { expect } = ctx;
    const { api, serve, openPlayback } = await recordsRig(ctx);
    serve({ refuseInfo: 488 });
    const open = await openPlayback(START, 600);
    const pause = await api('/api/v1/devices/record/playback/control', { request_id: open.request_id, command: 'pause' });
    expect(pause.statusCode).toBe(502);
    expect(pause.json().msg).toMatch(new RegExp(`^设备 ${DEV} 拒绝了命令: PAUSE 请求（488 \\S.*）$`));
    const en = await api('/api/v1/devices/record/playback/control', { request_id: open.request_id, command: 'pause', lang: 'en-US' });
    expect(en.json().msg).toMatch(new RegExp(`^Device ${DEV} refused the command: the device refused PAUSE: 488 \\S`));
  });

  it('MediaStatus 121 at the end of the range ends the session: "ended" (its reason in the opener\'s language) and the socket closed', async (ctx) => {
    const { expect } = ctx;
    const { t, serve, openPlayback } = await recordsRig(ctx);
    const history = serve();
    const open = await openPlayback(START, 3);
    const r = view(`${t.baseUrl!.replace('http', 'ws')}${open.URL}`);
    await r.closed;
    expect(history.sessions[0].mediaStatusSent).toBe(true);
    expect(r.text.find((m) => m.type === 'state' && m.state === 'ended')?.reason).toBe('录像已到结尾（设备发送 MediaStatus 121）');
    expect(spans(r).length).toBeGreaterThan(2);
    expect(gbRecordsOf(t.ctx).get(open.request_id)).toBeUndefined();
    // Opened from an English console: the same end in English.
    const en = await openPlayback(START, 3, 'en-US');
    const r2 = view(`${t.baseUrl!.replace('http', 'ws')}${en.URL}`);
    await r2.closed;
    expect(r2.text.find((m) => m.type === 'state' && m.state === 'ended')?.reason).toBe('the recording reached its end (MediaStatus 121)');
  });

  it("media that never arrives: \"stopped\", why in the opener's language from the catalogue (the port and the media IP named), not the receiver's English", async (ctx) => {
    const { expect } = ctx;
    const { t, serve, openPlayback } = await recordsRig(ctx);
    serve({ mediaElsewhere: true });
    const stoppedReason = async (lang?: string) => {
      const open = await openPlayback(START, 30, lang);
      const r = view(`${t.baseUrl!.replace('http', 'ws')}${open.URL}`);
      await r.closed;
      return r.text.find((m) => m.type === 'state' && m.state === 'stopped')?.reason as string;
    };
    // Two sessions at once, one opened in each language: each has its own receiving port and its own 3 s
    // wait (the reason names its port), so each reason is its own session's.
    const [zh, en] = await Promise.all([stoppedReason(), stoppedReason('en-US')]);
    expect(zh).toMatch(/^3秒内未在UDP端口 \d+ 收到设备的视频流：请检查告知设备的媒体IP（127\.0\.0\.1）及该端口是否可达$/);
    expect(en).toMatch(
      /^no RTP received on UDP port \d+ within 3 s: check the media IP announced \(127\.0\.0\.1\) and that the port is reachable from the device$/,
    );
  });

  it('a device refusing the INVITE is named in the answer', async (ctx) => {
    const { expect } = ctx;
    const { api, serve } = await recordsRig(ctx);
    serve({ refuse: 404 });
    const query = { channel: `${DEV}:${CHN}`, stime: localStamp(START), etime: localStamp(new Date(START.getTime() + 60_000)), recordType: 'Device' };
    const res = await api('/api/v1/devices/record/playback', query);
    expect(res.statusCode).toBe(502);
    // The words around the device's status and reason phrase are in the answer's language; the phrase is the device's.
    expect(res.json().msg).toMatch(new RegExp(`^设备 ${DEV} 拒绝了命令: 通道 ${CHN} 的 INVITE 被拒绝（404 \\S.*）$`));
    const en = await api('/api/v1/devices/record/playback', { ...query, lang: 'en-US' });
    expect(en.json().msg).toMatch(new RegExp(`^Device ${DEV} refused the command: the INVITE for channel ${CHN} was refused \\(404 \\S.*\\)$`));
  });
});

describe('download of a device recording (INVITE s=Download)', () => {
  it('downloadspeed 4: the MP4 ffprobe reads lasts the asked duration; streaminfo shows progress', async (ctx) => {
    const { expect } = ctx;
    const { t, api, serve } = await recordsRig(ctx);
    const history = serve();
    const start = new Date(2026, 2, 14, 8, 0, 0);
    const res = await api(`/api/v1/downloaddevicerecord/${DEV}:${CHN}/${localStamp(start)}/8`, { speed: '4' });
    expect(res.statusCode, res.body).toBe(200);
    const task = body(res) as { request_id: string; State: string };
    expect(task.State).toBe('downloading');
    const inv = new TextDecoder().decode(history.invites[0].body);
    expect(inv).toMatch(/^s=Download\r$/m);
    expect(inv).toContain('a=downloadspeed:4');
    let info: Record<string, unknown> = {};
    await until(async () => {
      info = body(await api('/api/v1/downloadrecord/streaminfo', { request_id: task.request_id }));
      return info.State === 'done' || info.State === 'failed';
    }, 20000);
    expect(info).toMatchObject({ State: 'done', Progress: 100, Duration: 8 });
    const file = await api(`/api/v1/downloadrecord/file/${task.request_id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    const out = path.join(t.settings.dataDir, 'device-download.mp4');
    fs.writeFileSync(out, file.rawPayload);
    const p = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', out], { encoding: 'utf8' }));
    expect(p.streams[0]).toMatchObject({ codec_name: 'h264', width: 320 });
    expect(Number(p.format.duration)).toBeGreaterThan(7.5);
    expect(Number(p.format.duration)).toBeLessThan(8.6);
  });

  it("an MP4 that cannot be made: \"failed\", why in the asker's language; ffmpeg's English stays in the log", async (ctx) => {
    const { expect } = ctx;
    const { t, api, serve } = await recordsRig(ctx);
    serve();
    // An ffmpeg that refuses, first on PATH for this test only.
    const bin = fs.mkdtempSync(path.join(t.settings.dataDir, 'bin-'));
    fs.writeFileSync(path.join(bin, 'ffmpeg'), '#!/bin/sh\necho "Invalid data found when processing input" >&2\nexit 1\n', { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath}`;
    try {
      const start = new Date(2026, 2, 14, 8, 0, 0);
      const res = await api(`/api/v1/downloaddevicerecord/${DEV}:${CHN}/${localStamp(start)}/4`, { speed: '4' });
      expect(res.statusCode, res.body).toBe(200);
      const id = (body(res) as { request_id: string }).request_id;
      const info = async (lang?: string) => body(await api('/api/v1/downloadrecord/streaminfo', { request_id: id, ...(lang ? { lang } : {}) }));
      await until(async () => (await info()).State === 'failed', 20000, { what: 'the download to fail' });
      expect((await info()).Reason).toBe('无法生成MP4文件（详情见服务器日志）');
      expect((await info('en-US')).Reason).toBe('the MP4 could not be made (details in the server log)');
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
