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
    // the pull probe's: the server answers, the stream is not there
    ['no such stream: NetStream.Play.StreamNotFound', '服务器上没有这路流（NetStream.Play.StreamNotFound）', 'the server has no such stream (NetStream.Play.StreamNotFound)'],
    ['RTMP connect refused: NetConnection.Connect.Rejected', '服务器拒绝了RTMP连接（NetConnection.Connect.Rejected）', 'the server refused the RTMP connection (NetConnection.Connect.Rejected)'],
    ['RTMP play refused: NetStream.Play.Failed', '服务器拒绝播放这路流（NetStream.Play.Failed）', 'the server refused to play the stream (NetStream.Play.Failed)'],
    ['no answer to play within 3000 ms', 'RTMP play 请求在3000毫秒内未得到应答', 'no answer to RTMP play within 3000 ms'],
    ['not an RTMP server (handshake)', '对端不是RTMP服务器', 'the server does not speak RTMP'],
    ['no media within 3000 ms', '服务器接受了播放，但3000毫秒内没有音视频（这路流可能无人推送）', 'the server accepted play but sent no audio or video within 3000 ms (is anyone publishing the stream?)'],
    ['connection closed by the server', '服务器关闭了连接', 'connection closed by the server'],
    ['not an FLV stream', '应答不是FLV流', 'the answer is not an FLV stream'],
    ['not an HLS playlist', '应答不是HLS播放列表', 'the answer is not an HLS playlist'],
    ['the HLS playlist lists no variant', 'HLS主播放列表中没有可用的子流', 'the HLS master playlist lists no variant'],
    ['the HLS playlist lists no segment', 'HLS播放列表中没有分片', 'the HLS playlist lists no segment'],
    ['a web page, not a stream', '应答是网页，不是视频流', 'the answer is a web page, not a stream'],
    ['the server sent an empty answer', '服务器的应答为空', 'the server sent an empty answer'],
    // a redirect the HTTP probe does not follow: no English inside the Chinese
    ['302 redirect to an invalid address', '服务器重定向（302）到无效的地址', 'the server redirected (302) to an invalid address'],
    ['301 redirect to rtmp:// (not followed)', '服务器重定向（301）到 rtmp:// 地址，不予跟随', 'the server redirected (301) to a rtmp:// address, which is not followed'],
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

  it("gives StatusReason in the answer's language (Chinese by default) in every list of channels; the database keeps the checker's words", async () => {
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
    // and a label's channel lists
    const label = (await api.post('/api/v1/addlabel', { name: 'Site', parentid: 0 })).json().EasyDarwin.Body.ID as number;
    expect((await api.post('/api/v1/label/updatechannels', { id: label, channels: `${dev}:1` })).statusCode).toBe(200);
    expect((await row(`/api/v1/label/channelsconfig?id=${label}`)).StatusReason).toBe('连接被拒绝');
    expect((await row(`/api/v1/label/channelsconfig?id=${label}&lang=en-US`)).StatusReason).toBe('connection refused');
    expect((await row(`/api/v1/labels/${label}/channels`)).StatusReason).toBe('连接被拒绝');
  });
});
