/**
 * Why a channel is offline (StatusReason) comes in the answer's language: the stream checker's probe
 * and the GB service store a catalogue key with its vars (their own English words are the log's);
 * every list of channels renders it, a camera's status phrase inside as it wrote it.
 */
import { describe, expect, it } from 'vitest';
import { reason } from '@opencvr/shared';
import { probeRtsp } from '../../src/access/rtsp/probe.js';
import { probeStream } from '../../src/access/stream-probe.js';
import { statusReasonText } from '../../src/services/inventory/status-reason.js';
import { freePort } from '../fixtures/camera.js';
import { until } from '../helpers/index.js';
import { useAdminApp } from './admin-app.js';

describe('statusReasonText', () => {
  it.each([
    ['connectionRefused', '', '连接被拒绝', 'connection refused'],
    ['statusNoAnswerWithin', '{"ms":3000}', '3000毫秒内无应答', 'no answer within 3000 ms'],
    ['statusUnauthorized', '{"status":401,"phrase":"Unauthorized"}', '摄像机拒绝了用户名或密码（401 Unauthorized）', 'the camera refused the user name or password (401 Unauthorized)'],
    ['statusAnswered', '{"status":404,"phrase":"Not Found"}', '摄像机回应 404 Not Found', 'the camera answered 404 Not Found'],
    // a status without a phrase leaves no trailing space
    ['statusAnswered', '{"status":454,"phrase":""}', '摄像机回应 454', 'the camera answered 454'],
    ['statusWithDevice', '', '设备离线', 'the device is offline'],
  ])('%s %s', (key, vars, zh, en) => {
    expect(statusReasonText(key, vars, 'zh-CN')).toBe(zh);
    expect(statusReasonText(key, vars, 'en-US')).toBe(en);
  });

  it('an empty reason stays empty; unreadable vars leave the placeholders rather than fail the list', () => {
    expect(statusReasonText('', '', 'zh-CN')).toBe('');
    expect(statusReasonText('statusNoAnswerWithin', 'not json', 'en-US')).toBe('no answer within {ms} ms');
  });

  it('every probe failure carries a catalogue reason: no English left in the Chinese text', async () => {
    const closed = await freePort();
    const results = [
      await probeRtsp(`rtsp://127.0.0.1:${closed}/cam`, { timeoutMs: 3000 }),
      await probeRtsp('rtsps://127.0.0.1:1/cam'),
      await probeRtsp('http://127.0.0.1/cam'),
      await probeRtsp('not a url'),
      await probeStream(`rtmp://127.0.0.1:${closed}/live/x`, { timeoutMs: 3000 }),
      await probeStream('rtmp://127.0.0.1/a b'),
    ];
    for (const r of results) {
      expect(r.ok).toBe(false);
      expect(r.why, r.reason).toBeDefined();
      const zh = reason(r.why!.key, 'zh-CN', r.why!.vars);
      // Chinese, with at most the protocol's own tokens (rtsp://, http:) left as written
      expect(zh.replace(/rtsps?:\/\/|http:/g, ''), r.reason).not.toMatch(/[A-Za-z]{3,}/);
    }
  });
});

describe('the channel list', () => {
  const api = useAdminApp();

  it("gives StatusReason in the answer's language (Chinese by default) in every list of channels; the database keeps the catalogue key", async () => {
    // Port 9 refuses: the stream checker probes the new channel and stores the probe's catalogue reason.
    const add = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/c' });
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    const stored = () => api.t.ctx.db.selectFrom('channels').select(['status_reason', 'status_reason_vars']).where('parent_device_id', '=', dev).executeTakeFirstOrThrow();
    await until(async () => (await stored()).status_reason === 'connectionRefused', 15000, { what: 'the checker to mark the channel offline' });
    expect((await stored()).status_reason_vars).toBe('');
    const row = async (url: string) => (await api.body(url)).Channels[0];
    expect(await row(`/api/v1/channels?device=${dev}`)).toMatchObject({ Online: 0, StatusReason: '连接被拒绝', RtspUrl: 'rtsp://127.0.0.1:9/c' });
    expect((await row(`/api/v1/channels?device=${dev}&lang=en-US`)).StatusReason).toBe('connection refused');
    // the favourites tab lists the same rows
    expect((await api.get(`/api/v1/addfavoriteschannel?device=${dev}&channel=1`)).statusCode).toBe(200);
    expect((await row('/api/v1/favorites')).StatusReason).toBe('连接被拒绝');
    // and a label's channel lists
    const label = (await api.post('/api/v1/addlabel', { name: 'Site', parentid: 0 })).json().EasyDarwin.Body.ID as number;
    expect((await api.post('/api/v1/label/updatechannels', { id: label, channels: `${dev}:1` })).statusCode).toBe(200);
    expect((await row(`/api/v1/label/channelsconfig?id=${label}`)).StatusReason).toBe('连接被拒绝');
    expect((await row(`/api/v1/label/channelsconfig?id=${label}&lang=en-US`)).StatusReason).toBe('connection refused');
    expect((await row(`/api/v1/labels/${label}/channels`)).StatusReason).toBe('连接被拒绝');
  });
});
