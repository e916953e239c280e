/**
 * The CDN push as the administrator sees it: channelsconfig's CdnPush (pushing since when with bytes
 * and bitrate, login refused with the reason in the asker's language and the next try, stopped with
 * why) and the events socket's 'cdn' messages when the state moves. Never the stream key or the
 * password: the address is masked, and an operator gets neither CdnPush nor the whole CdnUrl.
 * Real pushes: ffmpeg listening as an RTMP server, and the RTMP double refusing a Limelight login.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CdnPushEvent, ChannelRow } from '@opencvr/shared';
import { until } from '../helpers/index.js';
import { freePort } from '../fixtures/camera.js';
import { useCdnRig } from '../media/cdn-support.js';
import { useAdminApp } from './admin-app.js';
import { makeOperator } from './support.js';
import { cdnPushStatus } from '../../src/services/media/cdn-status.js';

const rig = useCdnRig();
const api = useAdminApp({ listen: true });
afterEach(() => rig.stopServers());

/** The channel row as channelsconfig gives it to `token` in `lang`. */
async function channelRow(dev: string, token = api.admin, lang = 'zh-CN'): Promise<ChannelRow> {
  const res = await api.t.app.inject({ url: `/api/v1/channelsconfig?device=${dev}&start=0&limit=10`, headers: { token, 'accept-language': lang } });
  return res.json().EasyDarwin.Body.Channels[0] as ChannelRow;
}

function openEvents(token: string, lang: string) {
  const ws = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/events?token=${token}&lang=${lang}`);
  const cdn: CdnPushEvent[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      if (m.topic === 'hello') resolve();
      if (m.topic === 'cdn') cdn.push(m.payload);
    });
    ws.on('error', reject);
  });
  return { ws, cdn, ready };
}

describe('CDN push state', () => {
  it('pushing to an RTMP server: since, bytes and bitrate, the address masked, told on the events socket; switched off: gone', async () => {
    const dev = await rig.addCamera(api);
    const port = await freePort();
    // ffmpeg as the CDN's ingest, reading until the push ends.
    const server = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-listen', '1', '-f', 'flv', '-i', `rtmp://127.0.0.1:${port}/live/S3CRETKEY`, '-c', 'copy', '-f', 'null', '-'], {
      stdio: 'ignore',
    });
    rig.children.push(server);
    const events = openEvents(api.admin, 'en-US');
    await events.ready;
    const url = `rtmp://127.0.0.1:${port}/live/S3CRETKEY`;
    const started = Date.now();
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: url })).statusCode).toBe(200);

    const pushing = await until(async () => {
      const row = await channelRow(dev);
      return row.CdnPush?.State === 'pushing' && row;
    }, 20_000, { what: 'the push pushing' });
    // The administrator's form keeps the whole address; the state shows it masked.
    expect(pushing.CdnUrl).toBe(url);
    // (ffmpeg may not listen yet at the first try: a run or two.)
    expect(pushing.CdnPush).toMatchObject({ Url: `rtmp://127.0.0.1:${port}/live/***` });
    expect(pushing.CdnPush!.Runs).toBeGreaterThanOrEqual(1);
    const since = Date.parse(pushing.CdnPush!.Since!);
    expect(since).toBeGreaterThanOrEqual(started - 1000);
    expect(since).toBeLessThanOrEqual(Date.now());
    expect(pushing.CdnPush!.Reason).toBeUndefined();

    // A few seconds on: the CDN took more, at the camera's rate (a 320x240 test picture, tens of kbit/s at least).
    await new Promise((r) => setTimeout(r, 3000));
    const later = (await channelRow(dev)).CdnPush!;
    expect(later.State).toBe('pushing');
    expect(later.BytesSent!).toBeGreaterThan(pushing.CdnPush!.BytesSent! + 5_000);
    expect(later.Bitrate!).toBeGreaterThan(10_000);
    expect(later.Bitrate!).toBeLessThan(50_000_000);

    // The socket told the start (connecting, then pushing) with the masked address.
    const told = await until(() => events.cdn.find((e) => e.CdnPush?.State === 'pushing'), 5000, { what: 'a pushing event' });
    expect(told).toMatchObject({ DeviceID: dev, ChannelID: '1', CdnPush: { Url: `rtmp://127.0.0.1:${port}/live/***` } });
    expect(events.cdn[0].CdnPush?.State).toBe('connecting');
    expect(JSON.stringify(events.cdn)).not.toContain('S3CRETKEY');

    // Switched off: the row has no state, the socket says the push is gone.
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 0 })).statusCode).toBe(200);
    await until(() => events.cdn.some((e) => e.CdnPush === null), 5000, { what: 'the push gone' });
    expect((await channelRow(dev)).CdnPush).toBeUndefined();
    events.ws.close();
  }, 60_000);

  it('login refused by the CDN: the reason in the asker’s language, the next try in seconds; the key and password nowhere', async () => {
    const dev = await rig.addCamera(api);
    const double = await rig.startDouble({ app: 'live', published: [], llnwAuth: { user: 'pub', password: 'right' } });
    const url = double.url('live/S3CRETKEY').replace('rtmp://', 'rtmp://pub:Wr0ngPa55@');
    const events = openEvents(api.admin, 'en-US');
    await events.ready;
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: url })).statusCode).toBe(200);

    const refused = await until(async () => {
      const row = await channelRow(dev);
      return row.CdnPush?.State === 'loginRefused' && row.CdnPush;
    }, 20_000, { what: 'the login refused' });
    expect(refused).toMatchObject({
      Url: double.url('live/***'),
      Reason: 'CDN 服务器拒绝了用户名或密码（llnw）',
      ReasonCode: 'cdnAuthFailed',
      ReasonVars: { method: 'llnw' },
      Runs: 1,
    });
    // The longest back-off (30 s) for a refused login.
    expect(refused.NextTryIn).toBeGreaterThan(25);
    expect(refused.NextTryIn).toBeLessThanOrEqual(30);
    expect((await channelRow(dev, api.admin, 'en-US')).CdnPush?.Reason).toBe('the CDN server refused the user name or password (llnw)');
    const told = await until(() => events.cdn.find((e) => e.CdnPush?.State === 'loginRefused'), 5000, { what: 'a loginRefused event' });
    expect(told.CdnPush?.Reason).toBe('the CDN server refused the user name or password (llnw)');

    const answer = (await api.get(`/api/v1/channelsconfig?device=${dev}&start=0&limit=10`)).body;
    const withoutForm = answer.replace(JSON.stringify(url).slice(1, -1), '');
    expect(withoutForm).not.toMatch(/S3CRETKEY|Wr0ngPa55/);
    expect(JSON.stringify(events.cdn)).not.toMatch(/S3CRETKEY|Wr0ngPa55/);
    events.ws.close();
  }, 60_000);

  it('a publish refused: retrying with the server’s code within the 1 s back-off; not rtmp://, or the channel switched off: stopped, saying why', async () => {
    const dev = await rig.addCamera(api);
    const double = await rig.startDouble({ app: 'live', published: [], badNames: ['S3CRETKEY'] });
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: double.url('live/S3CRETKEY') })).statusCode).toBe(200);
    const retrying = await until(async () => {
      const p = (await channelRow(dev, api.admin, 'en-US')).CdnPush;
      return p?.State === 'retrying' && p;
    }, 20_000, { what: 'the publish refused' });
    expect(retrying).toMatchObject({ ReasonCode: 'cdnRefused', Reason: 'the CDN server refused publish (NetStream.Publish.BadName)' });
    expect(retrying.NextTryIn).toBeGreaterThanOrEqual(0);
    expect(retrying.NextTryIn).toBeLessThanOrEqual(1);

    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', Enable: 0 })).statusCode).toBe(200);
    expect((await channelRow(dev)).CdnPush).toMatchObject({ State: 'stopped', Reason: '通道未开启', Url: double.url('live/***') });
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', Enable: 1, CdnUrl: 'http://127.0.0.1/live/x' })).statusCode).toBe(200);
    expect((await channelRow(dev, api.admin, 'en-US')).CdnPush).toMatchObject({ State: 'stopped', ReasonCode: 'cdnNotRtmpUrl' });
  }, 60_000);

  it('a server’s words that repeat the key or the password read masked', () => {
    const url = 'rtmp://pub:pa55word@cdn.example/live/S3CRETKEY?sig=1';
    const status = cdnPushStatus(
      { deviceId: 'd', channelId: '1', url, state: 'retrying', runs: 3, transcoded: false, nextTryAt: 4_000, why: { key: 'cdnRefused', vars: { command: 'publish', code: `denied S3CRETKEY?sig=1 for pa55word at ${url}` } } },
      'en-US',
      1_500,
    );
    expect(status).toMatchObject({ State: 'retrying', Url: 'rtmp://cdn.example/live/***', NextTryIn: 3, Runs: 3 });
    expect(status.Reason).toBe('the CDN server refused publish (denied *** for *** at rtmp://cdn.example/live/***)');
    expect(JSON.stringify(status)).not.toMatch(/S3CRETKEY|pa55word/);
  });

  it('an operator gets no CdnPush, no events of it, and the CDN address without its key', async () => {
    const dev = await rig.addCamera(api);
    const op = await makeOperator(api.t, api.admin);
    expect((await api.post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: dev, ChannelID: '1' }] })).statusCode).toBe(200);
    const opEvents = openEvents(op.token, 'zh-CN');
    const adminEvents = openEvents(api.admin, 'zh-CN');
    await Promise.all([opEvents.ready, adminEvents.ready]);
    const port = await freePort();
    expect(
      (await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: `rtmp://pub:pa55word@127.0.0.1:${port}/live/S3CRETKEY` })).statusCode,
    ).toBe(200);
    await until(() => adminEvents.cdn.some((e) => e.CdnPush?.State === 'retrying'), 20_000, { what: 'the admin told' });

    const row = await channelRow(dev, op.token);
    expect(row.ChannelID).toBe('1');
    expect(row.EnableCdn).toBe(1);
    expect(row.CdnPush).toBeUndefined();
    expect(row.CdnUrl).toBe(`rtmp://127.0.0.1:${port}/live/***`);
    expect(opEvents.cdn).toEqual([]);
    opEvents.ws.close();
    adminEvents.ws.close();
  }, 60_000);
});
