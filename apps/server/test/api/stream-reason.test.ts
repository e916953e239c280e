/**
 * Why a stream is not playing, in the asker's language: getchannelstream's Reason and the streamstat
 * socket's reason render the hub's words ("connection refused": nothing listens at the camera's
 * address) through the shared catalogue (stream-reasons.ts), in Chinese by default and in English
 * when asked; the hub itself (and the log) keeps the source's words.
 */
import { describe, expect, it } from 'vitest';
import { until } from '../helpers/index.js';
import { collectWs } from '../helpers/ws.js';
import { useAdminApp } from './admin-app.js';

const api = useAdminApp({ listen: true });

describe('a stream reason in the asker language', () => {
  it('getchannelstream and streamstat say a refused camera in Chinese, or English when asked', async () => {
    const add = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/nothing' });
    expect(add.statusCode, add.body).toBe(200);
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    const open = (lang = '') => api.body(`/api/v1/getchannelstream?device=${dev}&channel=1&protocol=WS_FMP4${lang}`);
    const key = (await open()).Stream as string;
    const hub = api.t.ctx.streams.get(key)!;
    await until(() => hub.state === 'retrying' && hub.reason === 'connection refused', 15000);

    expect((await open()).Reason).toBe('摄像机拒绝连接');
    expect((await open('&lang=en-US')).Reason).toBe('The camera refused the connection');
    expect(hub.reason).toBe('connection refused');

    const stat = async (lang: string) => {
      const url = `${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=r&stream=${key}&token=${api.admin}${lang}`;
      const got = await collectWs(url, (_b, text) => text.some((m) => m.type === 'streamstat'));
      return got.text.find((m) => m.type === 'streamstat')?.reason;
    };
    expect(await stat('')).toBe('摄像机拒绝连接');
    expect(await stat('&lang=en-US')).toBe('The camera refused the connection');
  });
});
