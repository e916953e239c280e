/**
 * Cancelling a download of a recording kept on a GB28181 device, through the whole server against
 * the TS device double on loopback (SIP and RTP over UDP): downloadrecord/stop sends BYE, the writing
 * stops, the part file goes and the RTP port is free again; a download nobody follows is cancelled
 * the same way; only its owner (or an administrator) whose role still sees the channel may stop or
 * read it; why it ended (Reason) is in the request's language.
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until, type TestApp } from '../helpers/index.js';
import { makeOperator } from '../api/support.js';
import type { GbDevice } from '../fixtures/gb-device.js';
import { CHN, DEV, startRecordsRig } from './records-support.js';
import { serveHistory, type HistoryServing } from '../fixtures/gb-device-records.js';
import { gbRecordsOf } from '../../src/gb/records/index.js';
import { localStamp } from '../../src/services/recording/time.js';

/** A range long enough at 1× that it is still coming in when the test cancels it. */
const START = new Date(2026, 2, 14, 8, 0, 0);
const SECONDS = 120;
let t: TestApp;
let admin: string;
let dev: GbDevice;
let history: HistoryServing;

beforeEach(async () => {
  ({ t, admin, dev } = await startRecordsRig());
  history = serveHistory(dev);
});
afterEach(async () => {
  await history?.stop();
  await dev?.close();
  await t?.close();
});

type Info = { request_id: string; State: string; Reason: string; Progress: number; URL: string };
const call = (url: string, token: string, query: Record<string, string> = {}) => t.app.inject({ url, headers: { token }, query });
const info = (res: { json(): { EasyDarwin: { Body: Info } } }) => res.json().EasyDarwin.Body;
const downloadDir = () => path.join(t.settings.dataDir, 'gb-downloads');
const filesLeft = () => (fs.existsSync(downloadDir()) ? fs.readdirSync(downloadDir()) : []);

/** Starts a download at 1× and (unless told not to) waits until media is being written (the part file is there). */
async function startDownload(token = admin, writing = true): Promise<Info> {
  const res = await call(`/api/v1/downloaddevicerecord/${DEV}:${CHN}/${localStamp(START)}/${SECONDS}`, token, { speed: '1' });
  expect(res.statusCode, res.body).toBe(200);
  const task = info(res);
  if (writing) await until(() => filesLeft().includes(`${task.request_id}.part.mp4`), 15_000, { what: 'the part file' });
  return task;
}

/** The RTP port the platform offered the device (m= of the INVITE). */
const offeredPort = () => Number(/^m=video (\d+) /m.exec(new TextDecoder().decode(history.invites[0].body))![1]);

/** Whether a UDP socket can be bound on the port (nothing holds it). */
function udpFree(port: number): Promise<boolean> {
  const s = dgram.createSocket('udp4');
  return new Promise((resolve) => {
    s.once('error', () => resolve(false));
    s.bind(port, '0.0.0.0', () => s.close(() => resolve(true)));
  });
}

describe('cancelling a device download', () => {
  it('downloadrecord/stop: BYE to the device, the part file removed, the RTP port free, State cancelled in both languages', async () => {
    const task = await startDownload();
    const port = offeredPort();
    expect(await udpFree(port)).toBe(false);

    const res = await call('/api/v1/downloadrecord/stop', admin, { request_id: task.request_id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().EasyDarwin.Header.MessageType).toBe('MSG_SC_DOWNLOAD_RECORD_STOP_ACK');
    expect(info(res)).toMatchObject({ request_id: task.request_id, State: 'cancelled', Reason: '下载已取消', URL: '' });

    await until(() => history.sessions[0].byeReceived, 5000, { what: 'the BYE at the device' });
    await until(() => t.ctx.gbInvite.sessions().length === 0, 5000, { what: 'the dialog gone' });
    await until(() => filesLeft().length === 0, 5000, { what: () => `no files (left: ${filesLeft().join(', ')})` });
    await until(() => udpFree(port), 5000, { what: `RTP port ${port} free` });

    const en = await call('/api/v1/downloadrecord/streaminfo', admin, { request_id: task.request_id, lang: 'en-US' });
    expect(info(en)).toMatchObject({ State: 'cancelled', Reason: 'the download was cancelled' });
    const file = await call(`/api/v1/downloadrecord/file/${task.request_id}`, admin);
    expect(file.statusCode).toBe(400);
    expect(file.json().msg).toContain('下载已取消');
    // Stopping again answers the same, and a POST does too.
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/downloadrecord/stop', headers: { token: admin }, payload: { request_id: task.request_id } });
    expect(info(again)).toMatchObject({ State: 'cancelled' });
    expect(filesLeft()).toEqual([]);
  });

  it('a download nobody follows is cancelled: BYE, nothing left on disk, the reason says why', async () => {
    gbRecordsOf(t.ctx).unwatchedMs = 2000;
    // Not watched for the part file: nothing here may ask about the download until it is ended.
    const task = await startDownload(admin, false);
    await until(() => history.sessions[0].byeReceived, 15_000, { what: 'the BYE at the device' });
    await until(() => filesLeft().length === 0, 5000, { what: () => `no files (left: ${filesLeft().join(', ')})` });
    const res = await call('/api/v1/downloadrecord/streaminfo', admin, { request_id: task.request_id });
    expect(info(res)).toMatchObject({ State: 'cancelled', Reason: '2秒内无人查看下载进度，下载已停止' });
    expect(await udpFree(offeredPort())).toBe(true);
  });

  it('only its owner whose role sees the channel, or an administrator, reaches it', async () => {
    const op = await makeOperator(t, admin, 'op1');
    const other = await makeOperator(t, admin, 'op2');
    const channel = await t.ctx.db.selectFrom('channels').select('id').where('channel_id', '=', CHN).executeTakeFirstOrThrow();
    for (const roleId of [op.roleId, other.roleId]) await t.ctx.db.insertInto('role_channels').values({ role_id: roleId, channel_pk: channel.id }).execute();

    const task = await startDownload(op.token);
    // Another user of a role that sees the channel: not theirs.
    expect((await call('/api/v1/downloadrecord/stop', other.token, { request_id: task.request_id })).statusCode).toBe(404);
    // The owner's role loses the channel: the download is out of reach, and keeps running.
    await t.ctx.db.deleteFrom('role_channels').where('role_id', '=', op.roleId).execute();
    expect((await call('/api/v1/downloadrecord/stop', op.token, { request_id: task.request_id })).statusCode).toBe(404);
    expect((await call('/api/v1/downloadrecord/streaminfo', op.token, { request_id: task.request_id })).statusCode).toBe(404);
    expect(history.sessions[0].byeReceived).toBe(false);
    expect(info(await call('/api/v1/downloadrecord/streaminfo', admin, { request_id: task.request_id })).State).toBe('downloading');
    // An administrator may stop any.
    const res = await call('/api/v1/downloadrecord/stop', admin, { request_id: task.request_id, lang: 'en-US' });
    expect(info(res)).toMatchObject({ State: 'cancelled', Reason: 'the download was cancelled' });
    await until(() => history.sessions[0].byeReceived, 5000, { what: 'the BYE at the device' });
  });

  it('a request id that is not hex is refused and changes nothing', async () => {
    const res = await call('/api/v1/downloadrecord/stop', admin, { request_id: '../etc' });
    expect(res.statusCode).toBe(400);
  });
});
