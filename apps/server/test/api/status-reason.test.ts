/**
 * Why a channel is offline (StatusReason) comes in the answer's language: the stream checker's probe
 * and the GB service store their own English words (the log's too); the channel list renders the
 * known ones from the REASONS catalogue, a camera's status phrase stays as it wrote it.
 */
import { describe, expect, it } from 'vitest';
import { probeRtsp } from '../../src/access/rtsp/probe.js';
import { probeStream } from '../../src/access/stream-probe.js';
import { WITH_DEVICE } from '../../src/gb/device-store.js';
import { statusReasonText } from '../../src/services/inventory/status-reason.js';
import { freePort } from '../fixtures/camera.js';
import { until } from '../helpers/index.js';
import { useAdminApp } from './admin-app.js';

describe('statusReasonText', () => {
  it.each([
    ['connection refused', '连接被拒绝', 'connection refused'],
    ['timeout after 3000 ms', '3000毫秒内无应答', 'no answer within 3000 ms'],
    ['401 Unauthorized', '摄像机拒绝了用户名或密码（401 Unauthorized）', 'the camera refused the user name or password (401 Unauthorized)'],
    ['401 Unauthorized (no supported authentication scheme)', '摄像机拒绝了用户名或密码（401 Unauthorized）', 'the camera refused the user name or password (401 Unauthorized)'],
    ['404 Not Found', '摄像机回应 404 Not Found', 'the camera answered 404 Not Found'],
    ['454', '摄像机回应 454', 'the camera answered 454'],
    ['socket error EADDRNOTAVAIL', '网络错误（EADDRNOTAVAIL）', 'network error (EADDRNOTAVAIL)'],
    ['unexpected error: Cannot read properties of undefined', '检测失败（详情见服务器日志）', 'the check failed (details in the server log)'],
    ['keepalive timeout', '心跳超时', 'keepalive timeout'],
    ['registration expired', '注册已过期', 'registration expired'],
    [WITH_DEVICE, '设备离线', 'the device is offline'],
    ['catalog: video lost', '设备报告视频丢失（VLOST）', 'the device reported video lost (VLOST)'],
  ])('%s', (stored, zh, en) => {
    expect(statusReasonText(stored, 'zh-CN')).toBe(zh);
    expect(statusReasonText(stored, 'en-US')).toBe(en);
  });

  it('what is unknown is shown as stored; an empty reason stays empty', () => {
    expect(statusReasonText('某设备自己的话', 'en-US')).toBe('某设备自己的话');
    expect(statusReasonText('', 'zh-CN')).toBe('');
  });

  it("the probe's own words are all known: no English left in the Chinese text", async () => {
    const closed = await freePort();
    const results = [
      await probeRtsp(`rtsp://127.0.0.1:${closed}/cam`, { timeoutMs: 3000 }),
      await probeRtsp('rtsps://127.0.0.1/cam'),
      await probeRtsp('http://127.0.0.1/cam'),
      await probeRtsp('not a url'),
      await probeStream(`rtmp://127.0.0.1:${closed}/live/x`, { timeoutMs: 3000 }),
      await probeStream('rtmp://127.0.0.1/a b'),
    ];
    for (const r of results) {
      expect(r.ok).toBe(false);
      const zh = statusReasonText(r.reason, 'zh-CN');
      // Chinese, with at most the protocol's own tokens (rtsp://, http:) left as written
      expect(zh, r.reason).not.toBe(r.reason);
      expect(zh.replace(/rtsps?:\/\/|http:/g, ''), r.reason).not.toMatch(/[A-Za-z]{3,}/);
    }
  });
});

describe('the channel list', () => {
  const api = useAdminApp();

  it("gives StatusReason in the answer's language (Chinese by default); the database keeps the checker's words", async () => {
    // Port 9 refuses: the stream checker probes the new channel and stores its own words.
    const add = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/c' });
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    const stored = () => api.t.ctx.db.selectFrom('channels').select('status_reason').where('parent_device_id', '=', dev).executeTakeFirstOrThrow();
    await until(async () => (await stored()).status_reason === 'connection refused', 15000, { what: 'the checker to mark the channel offline' });
    const row = async (url: string) => (await api.body(url)).Channels[0];
    expect(await row(`/api/v1/channels?device=${dev}`)).toMatchObject({ Online: 0, StatusReason: '连接被拒绝', RtspUrl: 'rtsp://127.0.0.1:9/c' });
    expect((await row(`/api/v1/channels?device=${dev}&lang=en-US`)).StatusReason).toBe('connection refused');
    // the favourites tab lists the same rows
    expect((await api.get(`/api/v1/addfavoriteschannel?device=${dev}&channel=1`)).statusCode).toBe(200);
    expect((await row('/api/v1/favorites')).StatusReason).toBe('连接被拒绝');
  });
});
