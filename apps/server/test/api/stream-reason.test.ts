/**
 * Why a stream is not playing, in the asker's language: the source gives a catalogue reason beside
 * its own words where it fails ("connection refused": nothing listens at the camera's address) and
 * the hub keeps both. getchannelstream's Reason and the streamstat socket's reason render the reason
 * (Chinese by default, English when asked); the live WS-fMP4 socket sends its code and vars beside
 * the words for the console to render; the hub and the log keep the words.
 */
import { describe, expect, it } from 'vitest';
import { streamReasonText, type ReasonKey } from '@opencvr/shared';
import { until } from '../helpers/index.js';
import { collectWs } from '../helpers/ws.js';
import { useAdminApp } from './admin-app.js';

const api = useAdminApp({ listen: true });

describe('a stream reason in the asker language', () => {
  it('getchannelstream and streamstat say a refused camera in Chinese, or English when asked; the live socket sends its code', async () => {
    const add = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/nothing' });
    expect(add.statusCode, add.body).toBe(200);
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    const open = (lang = '') => api.body(`/api/v1/getchannelstream?device=${dev}&channel=1&protocol=WS_FMP4${lang}`);
    const answer = await open();
    const key = answer.Stream as string;
    const hub = api.t.ctx.streams.get(key)!;
    await until(() => hub.state === 'retrying' && hub.reason === 'connection refused', 15000);

    expect((await open()).Reason).toBe('摄像机拒绝连接');
    expect((await open('&lang=en-US')).Reason).toBe('The camera refused the connection');
    // Its code too, so the console renders it again in its language when it switches.
    expect(await open()).toMatchObject({ ReasonCode: 'streamRefused', ReasonVars: {} });
    expect(hub.reason).toBe('connection refused');
    expect(hub.why).toEqual({ key: 'streamRefused' });

    const stat = async (lang: string) => {
      const url = `${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=r&stream=${key}&token=${api.admin}${lang}`;
      const got = await collectWs(url, (_b, text) => text.some((m) => m.type === 'streamstat'));
      return got.text.find((m) => m.type === 'streamstat')?.reason;
    };
    expect(await stat('')).toBe('摄像机拒绝连接');
    expect(await stat('&lang=en-US')).toBe('The camera refused the connection');

    // The live socket: the words as before, and the code the console renders in its language.
    const live = `${api.t.baseUrl!.replace('http', 'ws')}${answer.URL as string}`;
    const got = await collectWs(live, (_b, text) => text.some((m) => m.type === 'state'));
    const state = got.text.find((m) => m.type === 'state')!;
    expect(state).toMatchObject({ type: 'state', state: 'retrying', reason: 'connection refused', code: 'streamRefused' });
    const why = { key: state.code as ReasonKey };
    expect(streamReasonText(state.reason as string, 'zh-CN', why)).toBe('摄像机拒绝连接');
    expect(streamReasonText(state.reason as string, 'en-US', why)).toBe('The camera refused the connection');
  });
});
