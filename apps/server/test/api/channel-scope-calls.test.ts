/**
 * Issues 4 and 5, server side: every call that names a channel gives an operator whose role lacks it
 * nothing (the error envelope, no URL, no picture, no state), and bad input is refused with a named
 * field and changes nothing. One table per kind of refusal, over the same calls.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useAdminApp } from './admin-app.js';
import { makeOperator } from './support.js';
import { sleep, until, upgradeStatus } from '../helpers/index.js';
import { streamKey } from '../../src/services/media/streams.js';
import { localDay } from '../../src/services/recording/time.js';

const api = useAdminApp({ listen: true });

async function camera(n: number) {
  const res = await api.post('/api/v1/adddevice', { DeviceName: `Cam${n}`, DeviceType: 'RTSP', RtspUrl: `rtsp://127.0.0.1:9/c${n}` });
  expect(res.statusCode, res.body).toBe(200);
  const dev = res.json().EasyDarwin.Body.DeviceID as string;
  return { dev, pk: (await api.t.ctx.inventory.channels.require(dev, '1')).id };
}

/** An operator whose role has camera A's channel only, and camera B (not in the role). */
async function setUp() {
  const a = await camera(1);
  const b = await camera(2);
  const op = await makeOperator(api.t, api.admin);
  const grant = await api.post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: a.dev, ChannelID: '1' }] });
  expect(grant.statusCode, grant.body).toBe(200);
  return { a, b, op };
}

/** The error envelope: EasyDarwin.Header with the status as ErrorNum, and msg. */
function expectError(res: { statusCode: number; body: string; json(): any }, status: number, what: string) {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBe(status);
  const body = res.json();
  expect(body.EasyDarwin?.Header?.ErrorNum, what).toBe(String(status));
  expect(typeof body.msg, what).toBe('string');
  expect(body.EasyDarwin?.Body?.URL, what).toBeUndefined();
}

/** The calls of issues 4 and 5 that name one channel, as `dev`'s channel 1. */
const channelCalls = (dev: string, day: string) => [
  `/api/v1/getchannelstream?device=${dev}&channel=1&protocol=WS_FLV`,
  `/api/v1/devices/channelstream?device=${dev}&channel=1&protocol=ws_m4s&stream=main`,
  `/api/v1/devices/channelstream?device=${dev}&channel=1&type=keepalive`,
  `/api/v1/devices/channelstreamalladdr?device=${dev}&channel=1`,
  `/api/v1/touchchannelstream?device=${dev}&channel=1`,
  `/api/v1/devices/channelsnap?device=${dev}&channel=1`,
  `/api/v1/devices/channelthumb?device=${dev}&channel=1`,
  `/api/v1/devices/sharelink?device=${dev}&channel=1`,
  `/api/v1/ptzcontrol?device=${dev}&channel=1&command=left&speed=50`,
  `/api/v1/ptzcontrol?device=${dev}&channel=1&command=stop`,
  `/api/v1/onvifgetpresetlist?device=${dev}&channel=1`,
  `/api/v1/onvifsetpreset?device=${dev}&channel=1&name=door`,
  `/api/v1/onvifgotopreset?device=${dev}&channel=1&token=1`,
  `/api/v1/onvifremovepreset?device=${dev}&channel=1&token=1`,
  `/api/v1/record/querydaily?id=${dev}:1&period=${day}`,
  `/api/v1/record/querymonthly?device=${dev}&channel=1&period=${day.slice(0, 6)}`,
  `/api/v1/realtimerecord/start?id=${dev}:1`,
  `/api/v1/realtimerecord/stop?device=${dev}&channel=1`,
  `/api/v1/record/setimportant?device=${dev}&channel=1&starttime=${day}000000&endtime=${day}235959`,
  `/api/v1/devices/record/playback?channel=${dev}:1&stime=${day}000000&etime=${day}010000`,
  `/api/v1/record/recordvideo/download/mp4/${dev}:1/${day}000000/${day}010000`,
  `/api/v1/record/recordvideo/play/m3u8/${dev}:1/${day}000000/${day}010000`,
];

describe('a role without the channel', () => {
  it('gets the error envelope and nothing else from every call naming it, and nothing starts', async () => {
    const { b, op } = await setUp();
    const day = localDay(new Date());
    for (const url of channelCalls(b.dev, day)) expectError(await api.get(url, op.token), 404, url);
    // nothing was opened, recorded or shared for B
    expect(api.t.ctx.streams.get(streamKey(b.pk, 0))).toBeUndefined();
    expect(api.t.ctx.recording.engine.isManual(b.pk)).toBe(false);
    // the month flags and the channels with recordings leave B out rather than answer for it
    const flags = await api.get(`/api/v1/record/queryflags?period=${day.slice(0, 6)}&ids=${b.dev}:1`, op.token);
    expect(flags.json().EasyDarwin.Body.Flags).toEqual([]);
    const byDevice = await api.get(`/api/v1/record/queryflags?period=${day.slice(0, 6)}&device=${b.dev}`, op.token);
    expect(byDevice.json().EasyDarwin.Body.Flags).toEqual([]);
  });

  it('gets no media of the channel with its login token, whatever the transport', async () => {
    const { b, op } = await setUp();
    const key = streamKey(b.pk, 0);
    for (const url of [`/hls/${key}/playlist.m3u8`, `/flv/live/${key}.flv`]) {
      const res = await api.t.app.inject({ url, headers: { token: op.token } });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(404);
    }
    const whep = await api.t.app.inject({ method: 'POST', url: `/webrtc/whep/${key}`, headers: { token: op.token, 'content-type': 'application/sdp' }, payload: 'v=0\r\n' });
    expect(whep.statusCode, whep.body.slice(0, 200)).toBe(404);
    const ws = `${api.t.baseUrl!.replace('http', 'ws')}`;
    for (const path of [`/ws_m4s/live/${key}.mp4`, `/ws_flv/live/${key}.flv`]) {
      const status = await upgradeStatus(`${ws}${path}?token=${op.token}`);
      expect(status, path).toBe(404);
    }
    expect(api.t.ctx.streams.get(key)).toBeUndefined();
  });

  it('gets no state of the channel on ws/streamstat, by stream key or by device and channel', async () => {
    const { b, op } = await setUp();
    const sock = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=r1&token=${op.token}`);
    const got: { type: string; playerid: string; stream?: string }[] = [];
    sock.on('message', (d) => got.push(JSON.parse(String(d))));
    await new Promise((r) => sock.on('open', r));
    sock.send(JSON.stringify({ playerid: 'p1', stream: streamKey(b.pk, 0) }));
    sock.send(JSON.stringify({ playerid: 'p2', device: b.dev, channel: '1' }));
    sock.send(JSON.stringify({ playerid: 'p3', stream: `${streamKey(b.pk, 0)}_h264` }));
    await new Promise((r) => setTimeout(r, 1500));
    sock.close();
    expect(got.filter((m) => m.type === 'streamstat')).toEqual([]);
    expect(got.map((m) => [m.type, m.playerid]).sort()).toEqual([
      ['error', 'p1'],
      ['error', 'p2'],
      ['error', 'p3'],
    ]);
  });
});

describe('bad input', () => {
  it('is refused with 400 naming the field, and changes nothing', async () => {
    const { dev } = await camera(1);
    const pk = (await api.t.ctx.inventory.channels.require(dev, '1')).id;
    const c = `device=${dev}&channel=1`;
    const s = '20240101000000';
    const e = '20240101010000';
    const cases: [string, string][] = [
      [`/api/v1/getchannelstream?${c}&protocol=RTSPX`, 'protocol'],
      [`/api/v1/getchannelstream?${c}&stream=2`, 'stream'],
      [`/api/v1/getchannelstream?${c}&stream=1.5`, 'stream'],
      [`/api/v1/getchannelstream?device=${dev}`, 'channel'],
      [`/api/v1/getchannelstream?${c}&type=ping`, 'type'],
      [`/api/v1/getchannelstream?${c}&device=x`, 'device'],
      [`/api/v1/devices/channelstream?device=../x&channel=1`, 'device'],
      [`/api/v1/touchchannelstream?${c}&stream=main2`, 'stream'],
      [`/api/v1/stopstream?${c}&stream=7`, 'stream'],
      [`/api/v1/devices/channelsnap?${c}&stream=5`, 'stream'],
      [`/api/v1/devices/sharelink?${c}&expire=10`, 'expire'],
      [`/api/v1/devices/sharelink?${c}&expire=soon`, 'expire'],
      [`/api/v1/ptzcontrol?${c}&command=jump`, 'command'],
      [`/api/v1/ptzcontrol?${c}&command=left&speed=0`, 'speed'],
      [`/api/v1/ptzcontrol?${c}&command=left&speed=101`, 'speed'],
      [`/api/v1/onvifsetpreset?${c}&name=`, 'name'],
      [`/api/v1/onvifgotopreset?${c}&token=../x`, 'token'],
      [`/api/v1/onvifremovepreset?${c}`, 'token'],
      [`/api/v1/record/querydaily?id=${dev}:1&period=20240230`, 'period'],
      [`/api/v1/record/querydaily?id=${dev}:1&period=20240101&limit=0`, 'limit'],
      [`/api/v1/record/querydaily?period=20240101`, 'id'],
      [`/api/v1/record/querymonthly?id=${dev}:1&period=202413`, 'period'],
      [`/api/v1/record/queryflags?period=202401`, 'ids'],
      [`/api/v1/record/queryflags?period=202401&ids=${dev}:1,nocolon`, 'ids'],
      [`/api/v1/record/querydevices?period=20240132`, 'period'],
      [`/api/v1/record/remove?id=-1`, 'id'],
      [`/api/v1/record/removedaily?id=${dev}:1&period=2024`, 'period'],
      [`/api/v1/record/setimportant?id=1&important=5`, 'important'],
      [`/api/v1/record/setimportant?id=1,2,x`, 'id'],
      [`/api/v1/record/setimportant?${c}&starttime=${e}&endtime=${s}`, 'endtime'],
      [`/api/v1/realtimerecord/start?id=${dev}`, 'id'],
      [`/api/v1/devices/record/playback?channel=${dev}:1&stime=${s}&etime=${s}`, 'etime'],
      [`/api/v1/devices/record/playback?channel=${dev}:1&stime=20241301000000`, 'stime'],
      [`/api/v1/devices/record/playback?channel=${dev}:1&stime=${s}&protocol=rtsp`, 'protocol'],
      [`/api/v1/devices/record/playback?channel=${dev}:1:2&stime=${s}`, 'channel'],
      [`/api/v1/devices/record/playback/control?request_id=abc&command=pause`, 'request_id'],
      [`/api/v1/devices/record/playback/control?request_id=${'0'.repeat(32)}&command=fly`, 'command'],
      [`/api/v1/playbackspeed?request_id=${'0'.repeat(32)}&speed=3`, 'speed'],
      [`/api/v1/download/abc/0`, 'id'],
      [`/api/v1/download/1/123`, 'start'],
      [`/api/v1/record/recordvideo/download/mp4/${dev}:1/${s}/${s}`, 'end'],
      [`/api/v1/record/recordvideo/download/avi/${dev}:1/${s}/${e}`, 'fmt'],
      [`/api/v1/record/recordvideo/download/mp4/${dev}/${s}/${e}`, 'channel'],
      [`/api/v1/record/recordvideo/play/m3u8/..%2F..%2Fetc/${s}/${e}`, 'channel'],
      [`/api/v1/recordplaninfo?id=0`, 'id'],
      [`/api/v1/recordplanlist?start=-1`, 'start'],
    ];
    const posts: [string, object, string][] = [
      ['/api/v1/setrecordplan', { schedule: '{}' }, 'name'],
      ['/api/v1/setrecordplan', { name: 'p', schedule: '{}', save_days: 0 }, 'save_days'],
      ['/api/v1/setrecordplan', { name: 'p', schedule: '{}', enable: 'maybe' }, 'enable'],
      ['/api/v1/setrecordplan', { name: 'p', schedule: '[]' }, 'schedule'],
      ['/api/v1/setrecordplan', { name: 'p', schedule: { Monday: [{ StartTime: 5 }] } }, 'schedule'],
      ['/api/v1/setrecordplan', { name: 'p', schedule: '{}', channels: [{ DeviceID: 5 }] }, 'channels'],
      ['/api/v1/setrecordplan', { name: 'p', schedule: '{}', channels: `${dev}:1,${dev}` }, 'channels'],
      ['/api/v1/setrecordplan', { name: 'p', schedule: '{}', channels: JSON.stringify([{ DeviceID: dev }]) }, 'channels'],
      ['/api/v1/checkpush', {}, 'schedule'],
      ['/api/v1/recordpath', {}, 'RecordPath'],
      ['/api/v1/recordpath', { RecordPath: 'relative' }, 'RecordPath'],
      ['/api/v1/recordpath', { RecordPath: '/', SegmentSeconds: 60 }, 'RecordPath'],
      ['/api/v1/recordpath', { RecordPath: `${api.t.settings.dataDir}/r`, SegmentSeconds: 0 }, 'SegmentSeconds'],
      ['/api/v1/recordpath', { RecordPath: `${api.t.settings.dataDir}/r`, MinFreeBytes: -1 }, 'MinFreeBytes'],
      ['/api/v1/record/remove', { id: 'x' }, 'id'],
    ];
    const record = await api.t.ctx.config.get('record');
    const answers = [
      ...(await Promise.all(cases.map(async ([url, field]) => [url, field, await api.get(`${url}${url.includes('?') ? '&' : '?'}lang=en-US`)] as const))),
      ...(await Promise.all(posts.map(async ([url, body, field]) => [`${url} ${JSON.stringify(body)}`, field, await api.post(`${url}?lang=en-US`, body)] as const))),
    ];
    for (const [what, field, res] of answers) {
      expectError(res, 400, what);
      expect(res.json().msg, what).toMatch(new RegExp(`^Invalid parameter ${field}: `));
      // named apart as well, with the reason alone, for a form to say at its field
      expect(res.json().field, what).toBe(field);
      expect(`Invalid parameter ${field}: ${res.json().reason}`, what).toBe(res.json().msg);
    }
    expect(api.t.ctx.streams.get(streamKey(pk, 0))).toBeUndefined();
    expect(api.t.ctx.streams.get(streamKey(pk, 1))).toBeUndefined();
    expect(api.t.ctx.recording.engine.isManual(pk)).toBe(false);
    expect((await api.body('/api/v1/recordplanlist')).Total).toBe(0);
    expect(await api.t.ctx.config.get('record')).toEqual(record);
  });
});

describe('ws/streamstat, bad input', () => {
  it('a player with an unknown flow, no channel or a bad stream key gets an error naming the field; a good one is added', async () => {
    const { a } = await setUp();
    const sock = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=r1&token=${api.admin}&lang=en-US`);
    const got: { type: string; playerid: string; msg?: string; stream?: string }[] = [];
    sock.on('message', (d) => got.push(JSON.parse(String(d))));
    await new Promise((r) => sock.on('open', r));
    sock.send(JSON.stringify({ playerid: 'p1', device: a.dev, channel: '1', flow: 7 }));
    sock.send(JSON.stringify({ playerid: 'p2', device: a.dev }));
    sock.send(JSON.stringify({ playerid: 'p3', stream: 'stream_x_0' }));
    sock.send(JSON.stringify({ playerid: 'p4', device: a.dev, channel: '1', flow: 'sub' }));
    await until(() => ['p1', 'p2', 'p3', 'p4'].every((p) => got.some((m) => m.playerid === p)), 5000, { what: () => JSON.stringify(got) });
    sock.close();
    const first = (p: string) => got.find((m) => m.playerid === p)!;
    expect(first('p1')).toMatchObject({ type: 'error', msg: 'Invalid parameter flow: one of 0, 1, main, sub' });
    expect(first('p2')).toMatchObject({ type: 'error' });
    expect(first('p2').msg).toMatch(/^Invalid parameter stream: /);
    expect(first('p3').msg).toMatch(/^Invalid parameter stream: /);
    expect(first('p4')).toMatchObject({ type: 'streamstat', stream: streamKey(a.pk, 1) });
  });
});

describe('an open ws/streamstat follows the operator\'s rights', () => {
  it('a channel taken from the role stops being reported; a logout closes the socket', async () => {
    const { a, op } = await setUp();
    const sock = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=r1&token=${op.token}&playerid=p1&device=${a.dev}&channel=1`);
    const got: { type: string; playerid: string }[] = [];
    let closed: number | undefined;
    sock.on('message', (d) => got.push(JSON.parse(String(d))));
    sock.on('close', (code) => (closed = code));
    await until(() => got.some((m) => m.type === 'streamstat' && m.playerid === 'p1'), 5000, { what: () => 'a streamstat of p1' });
    const taken = await api.post('/api/v1/role/channels', { roleid: op.roleId, channels: [] });
    expect(taken.statusCode, taken.body).toBe(200);
    const at = await until(() => got.findIndex((m) => m.type === 'error' && m.playerid === 'p1') + 1, 15000, { what: () => `an error for p1 (last: ${JSON.stringify(got.at(-1))})` });
    await sleep(1500);
    expect(got.slice(at).filter((m) => m.type === 'streamstat')).toEqual([]);
    expect((await api.get('/api/v1/logout', op.token)).statusCode).toBe(200);
    await until(() => closed !== undefined, 15000, { what: () => 'the socket closed after the logout' });
    expect(closed).toBe(1008);
  });
});

describe('play tokens', () => {
  it('a tampered, expired, other channel\'s, other flow\'s, shared-link or playback token opens no transport', async () => {
    const { a, b } = await setUp();
    const keyA = streamKey(a.pk, 0);
    const keyB = streamKey(b.pk, 0);
    const open = (await api.get(`/api/v1/getchannelstream?device=${a.dev}&channel=1`)).json().EasyDarwin.Body;
    const good = String(open.URL).split('play_token=')[1];
    expect(good).toBeTruthy();
    const [payload, mac] = good.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const retarget = `${Buffer.from(JSON.stringify({ ...claims, s: keyB })).toString('base64url')}.${mac}`;
    const prolong = `${Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86400 })).toString('base64url')}.${mac}`;
    const share = String((await api.get(`/api/v1/devices/sharelink?device=${b.dev}&channel=1`)).json().EasyDarwin.Body.URL).split('play_token=')[1];
    const cases: [string, string, string][] = [
      ['A\'s token on B', keyB, good],
      ['A\'s token on A\'s substream', streamKey(a.pk, 1), good],
      ['A\'s token on A\'s H.264 variant', `${keyA}_h264`, good],
      ['payload changed to B, same signature', keyB, retarget],
      ['expiry pushed back, same signature', keyA, prolong],
      ['signature cut', keyA, `${payload}.${mac.slice(0, -4)}`],
      ['no signature', keyA, payload],
      ['expired', keyA, (await api.t.ctx.streams.signShare(keyA, -5)).token],
      ['B\'s shared-link token on B\'s media', keyB, share],
      ['a playback token', keyA, (await api.t.ctx.streams.signShare('playback:0123456789abcdef0123456789abcdef', 600)).token],
    ];
    const ws = api.t.baseUrl!.replace('http', 'ws');
    const upgrade = upgradeStatus;
    for (const [what, key, token] of cases) {
      const q = `play_token=${encodeURIComponent(token)}`;
      for (const url of [`/hls/${key}/playlist.m3u8?${q}`, `/hls/${key}/init.mp4?${q}`, `/flv/live/${key}.flv?${q}`]) {
        const res = await api.t.app.inject({ url });
        expect(res.statusCode, `${what}: ${url}`).toBe(401);
      }
      const whep = await api.t.app.inject({ method: 'POST', url: `/webrtc/whep/${key}?${q}`, headers: { 'content-type': 'application/sdp' }, payload: 'v=0\r\n' });
      expect(whep.statusCode, `${what}: WHEP`).toBe(401);
      for (const path of [`/ws_m4s/live/${key}.mp4`, `/ws_flv/live/${key}.flv`]) expect(await upgrade(`${ws}${path}?${q}`), `${what}: ${path}`).toBe(401);
    }
    // the live token does not open a shared link's page either
    const page = await api.t.app.inject({ url: `/api/v1/share/channelstream?device=${a.dev}&channel=1&play_token=${encodeURIComponent(good)}` });
    expectError(page, 401, 'live token as a shared link');
    expect(api.t.ctx.streams.get(keyB)).toBeUndefined();
  });
});
