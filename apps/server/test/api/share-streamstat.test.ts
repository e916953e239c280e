/**
 * The public /share and /players pages have no login, so their HLS and WebRTC players (whose media
 * carry no camera state) could not say why the picture stopped. /api/v1/ws/share/streamstat gives such
 * a page the camera's state of its one stream, let in by the shared link's play token: state and
 * reason only, nothing of another channel or flow whatever the page asks, refused for a tampered, cut,
 * expired or other stream's token and without one, and closed when the link expires.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CHANNEL_GONE_CLOSE } from '@opencvr/shared';
import { sleep, until, upgradeStatus } from '../helpers/index.js';
import { useAdminApp } from './admin-app.js';
import { shareSubject } from '../../src/routes/api/streams.js';

const api = useAdminApp({ listen: true });

/** A camera whose address refuses connections: its stream retries with the reason 摄像机拒绝连接. */
async function camera(n: number) {
  const res = await api.post('/api/v1/adddevice', { DeviceName: `Cam${n}`, DeviceType: 'RTSP', RtspUrl: `rtsp://127.0.0.1:9/c${n}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body.DeviceID as string;
}

/** The play token of a shared link to `dev`'s channel 1, main stream. */
async function shareToken(dev: string) {
  const url = String((await api.body(`/api/v1/devices/sharelink?device=${dev}&channel=1`)).URL);
  return decodeURIComponent(url.split('play_token=')[1]!);
}

const socketUrl = (dev: string, token: string, more = '') =>
  `${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/share/streamstat?device=${dev}&channel=1&play_token=${encodeURIComponent(token)}${more}`;

/** A socket's messages as they come, and how it closed. */
function watch(url: string) {
  const ws = new WebSocket(url);
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const opened = new Promise<void>((resolve) => ws.on('open', () => resolve()));
  return { ws, messages, closed, opened };
}

const upgrade = upgradeStatus;

describe('ws/share/streamstat', () => {
  it("a shared link's token gets its stream's state and reason, in the page's language, and nothing else whatever the page asks", async () => {
    const a = await camera(1);
    const b = await camera(2);
    const token = await shareToken(a);
    // The page opens its stream as the public page does.
    const open = await api.t.app.inject({ url: `/api/v1/share/channelstream?device=${a}&channel=1&play_token=${encodeURIComponent(token)}` });
    expect(open.statusCode, open.body).toBe(200);
    // B runs too, so there is another channel's state the socket could leak.
    await api.body(`/api/v1/getchannelstream?device=${b}&channel=1`);

    const s = watch(socketUrl(a, token));
    await until(() => s.messages.some((m) => m.state === 'retrying'), 15000, { what: () => `a retrying state, got ${JSON.stringify(s.messages.at(-1))}` });
    expect(s.messages.find((m) => m.state === 'retrying')).toEqual({ type: 'streamstat', state: 'retrying', reason: '摄像机拒绝连接' });
    // What a page sends asking for another channel, flow or stream key is not read.
    const keyB = api.t.ctx.streams.get(`stream_${(await api.t.ctx.inventory.channels.require(b, '1')).id}_0`)!.key;
    s.ws.send(JSON.stringify([{ playerid: 'p', device: b, channel: '1' }, { playerid: 'q', stream: keyB }, { playerid: 'r', device: a, channel: '1', flow: 1 }]));
    const from = s.messages.length;
    await until(() => s.messages.length >= from + 3, 10000, { what: () => 'three more messages' });
    for (const m of s.messages) expect(Object.keys(m).sort()).toEqual(['reason', 'state', 'type']);
    s.ws.close();

    const en = watch(socketUrl(a, token, '&lang=en-US'));
    await until(() => en.messages.some((m) => m.state === 'retrying'), 15000, { what: () => 'an English retrying state' });
    expect(en.messages.find((m) => m.state === 'retrying')?.reason).toBe('The camera refused the connection');
    en.ws.close();
  });

  it('refuses a tampered, cut, expired, other channel\'s, other flow\'s or live token, and a socket without one', async () => {
    const a = await camera(1);
    const b = await camera(2);
    const good = await shareToken(a);
    const [payload, mac] = good.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = (over: object) => `${Buffer.from(JSON.stringify({ ...claims, ...over })).toString('base64url')}.${mac}`;
    const live = String((await api.body(`/api/v1/getchannelstream?device=${a}&channel=1`)).URL).split('play_token=')[1]!;
    const base = api.t.baseUrl!.replace('http', 'ws');
    const cases: [string, string, number][] = [
      ["A's token asking for B", socketUrl(b, good), 401],
      ["A's token asking for A's sub stream", socketUrl(a, good, '&stream=1'), 401],
      ['payload changed to B, same signature', socketUrl(b, forged({ s: shareSubject(b, '1', 0) })), 401],
      ['expiry pushed back, same signature', socketUrl(a, forged({ e: claims.e + 86400 })), 401],
      ['signature cut', socketUrl(a, `${payload}.${mac.slice(0, -4)}`), 401],
      ['no signature', socketUrl(a, payload), 401],
      ['expired', socketUrl(a, (await api.t.ctx.streams.signShare(shareSubject(a, '1', 0), -5)).token), 401],
      ["A's live media token", socketUrl(a, decodeURIComponent(live)), 401],
      ['no token', `${base}/api/v1/ws/share/streamstat?device=${a}&channel=1`, 400],
      // A login does not open the public socket...
      ['a login, no play token', `${base}/api/v1/ws/share/streamstat?device=${a}&channel=1&token=${api.admin}`, 400],
      // ...and the login socket takes no play token, nor opens without a login, as before.
      ['the login socket with a play token', `${base}/api/v1/ws/streamstat?request_id=r&device=${a}&channel=1&play_token=${encodeURIComponent(good)}`, 401],
      ['the login socket without a login', `${base}/api/v1/ws/streamstat?request_id=r&device=${a}&channel=1`, 401],
    ];
    for (const [what, url, status] of cases) expect(await upgrade(url), what).toBe(status);
    // the good one opens
    expect(await upgrade(socketUrl(a, good))).toBe(101);
  });

  it("closes with 1008 'play token expired' when the link expires", async () => {
    const a = await camera(1);
    const token = (await api.t.ctx.streams.signShare(shareSubject(a, '1', 0), 2)).token;
    const s = watch(socketUrl(a, token));
    await s.opened;
    expect(await s.closed).toEqual({ code: 1008, reason: 'play token expired' });
    expect(s.messages.length).toBeGreaterThan(0);
    expect(s.messages[0]).toMatchObject({ type: 'streamstat' });
  });

  it('a link whose channel is gone: the socket closes with 4404, not a refused upgrade a browser would ask again every 2 s', async () => {
    // Deleted before the page opens its socket (the page reloads, or reconnects after a drop).
    const a = await camera(1);
    const token = await shareToken(a);
    expect((await api.get(`/api/v1/deldevice?device=${a}`)).statusCode).toBe(200);
    const before = watch(socketUrl(a, token));
    expect(await before.closed).toEqual({ code: WS_CHANNEL_GONE_CLOSE, reason: 'channel not found' });
    expect(before.messages).toEqual([]);
    // A bad token is still refused at the upgrade, gone channel or not.
    expect(await upgrade(socketUrl(a, `${token}x`))).toBe(401);

    // Deleted while the page has it open: closed so within the socket's recheck.
    const b = await camera(2);
    const open = watch(socketUrl(b, await shareToken(b)));
    await open.opened;
    expect((await api.get(`/api/v1/delchannel?device=${b}&channel=1`)).statusCode).toBe(200);
    expect(await open.closed).toEqual({ code: WS_CHANNEL_GONE_CLOSE, reason: 'channel not found' });
  });
});

describe('ws/streamstat (login)', () => {
  it("an administrator's player of a channel deleted since is dropped with an error, not reported as stopped for ever", async () => {
    const a = await camera(1);
    const sock = watch(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=r&token=${api.admin}&playerid=p1&device=${a}&channel=1`);
    await until(() => sock.messages.some((m) => m.type === 'streamstat'), 5000, { what: () => 'a streamstat of p1' });
    expect((await api.get(`/api/v1/deldevice?device=${a}`)).statusCode).toBe(200);
    const at = await until(() => sock.messages.findIndex((m) => m.type === 'error' && m.playerid === 'p1') + 1, 15000, {
      what: () => `an error for p1 (last: ${JSON.stringify(sock.messages.at(-1))})`,
    });
    await sleep(1500);
    expect(sock.messages.slice(at).filter((m) => m.type === 'streamstat')).toEqual([]);
    sock.ws.close();
  });
});
