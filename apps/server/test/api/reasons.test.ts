/**
 * The reasons the server writes itself (a route's invalidParam, a schema's own message) come in the
 * answer's language: Chinese by default, English with lang=en-US or Accept-Language: en-US. The
 * parameter names stay the API's.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp } from '../helpers/index.js';
import { useAdminApp } from './admin-app.js';
import { initialise } from './support.js';

const api = useAdminApp();

const get = (url: string, headers: Record<string, string> = {}) => api.t.app.inject({ url, headers: { token: api.admin, ...headers } });
const msgOf = async (url: string, headers?: Record<string, string>) => {
  const res = await get(url, headers);
  expect(res.statusCode, res.body).toBe(400);
  return res.json().msg as string;
};

async function camera(): Promise<string> {
  const res = await api.t.app.inject({
    method: 'POST',
    url: '/api/v1/adddevice',
    headers: { token: api.admin },
    payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/c' },
  });
  return res.json().EasyDarwin.Body.DeviceID as string;
}

describe("a route's own reasons", () => {
  it('a day that is not a date', async () => {
    const dev = await camera();
    const url = `/api/v1/record/querydaily?id=${dev}:1&period=20241399`;
    expect(await msgOf(url)).toBe('参数 period 不合法: 不是YYYYMMDD格式的日期');
    expect(await msgOf(`${url}&lang=en-US`)).toBe('Invalid parameter period: not a date YYYYMMDD');
    expect(await msgOf(url, { 'accept-language': 'en-US,en;q=0.9' })).toBe('Invalid parameter period: not a date YYYYMMDD');
  });

  it('a playback range over 7 days, with the limit filled in', async () => {
    const dev = await camera();
    const url = `/api/v1/devices/record/playback?channel=${dev}:1&stime=20240101000000&etime=20240110000000`;
    expect(await msgOf(url)).toBe('参数 etime 不合法: 须晚于开始时间（stime）且不超过7天');
    expect(await msgOf(`${url}&lang=en-US`)).toBe('Invalid parameter etime: after stime, at most 7 days later');
  });
});

describe('recordings that are not there', () => {
  // The walk of issue 5 (session 26) read 通道 x:1 自 20261125000000 起的录像不存在 on the playback page:
  // the times are said as the console shows times (server-local YYYY-MM-DD HH:mm:ss), in both languages.
  const notThere = async (url: string, lang = '') => {
    const res = await get(`${url}${lang}`);
    expect(res.statusCode, res.body).toBe(404);
    return res.json().msg as string;
  };
  it('names the playback start and the range of a download, a play and a mark as times, not stamps', async () => {
    const dev = await camera();
    const playback = `/api/v1/devices/record/playback?channel=${dev}:1&stime=20261125000000&etime=20261125013005`;
    expect(await notThere(playback)).toBe(`通道 ${dev}:1 自 2026-11-25 00:00:00 起的录像不存在`);
    expect(await notThere(playback, '&lang=en-US')).toBe(`A recording of ${dev}:1 from 2026-11-25 00:00:00 does not exist`);
    const range = `通道 ${dev}:1 在 2026-11-25 00:00:00 至 2026-11-25 01:30:05 的录像不存在`;
    for (const mode of ['download/mp4', 'play/m3u8']) {
      const url = `/api/v1/record/recordvideo/${mode}/${dev}:1/20261125000000/20261125013005`;
      expect(await notThere(url), url).toBe(range);
      expect(await notThere(url, '?lang=en-US'), url).toBe(`A recording of ${dev}:1 from 2026-11-25 00:00:00 to 2026-11-25 01:30:05 does not exist`);
    }
    const mark = `/api/v1/record/setimportant?device=${dev}&channel=1&starttime=20261125000000&endtime=20261125013005`;
    expect(await notThere(mark)).toBe(range);
  });
});

describe("a schema's own messages", () => {
  it('a channel ID of delchannel that is not one: 400 naming it, nothing deleted', async () => {
    const dev = await camera();
    const url = `/api/v1/delchannel?device=${dev}&channel=1,a/b`;
    expect(await msgOf(url)).toBe('参数 channel 不合法: 须为逗号分隔的编号，每个最长64位，只能包含字母、数字和 _ . -');
    expect(await msgOf(`${url}&lang=en-US`)).toBe('Invalid parameter channel: IDs separated by commas, each up to 64 letters, digits and _ . -');
    const list = await get(`/api/v1/channels?device=${dev}`);
    expect(JSON.stringify(list.json())).toContain(`"ChannelID":"1"`);
  });

  it('a format the schema names (with a var)', async () => {
    const url = '/api/v1/record/querymonthly?id=1:1&period=2024';
    expect(await msgOf(url)).toBe('参数 period 不合法: 格式须为YYYYMM');
    expect(await msgOf(`${url}&lang=en-US`)).toBe('Invalid parameter period: must be YYYYMM');
  });

  it('a rule of a refine (a GB28181 device without its DeviceID)', async () => {
    const add = (lang = '') =>
      api.t.app.inject({ method: 'POST', url: `/api/v1/adddevice${lang}`, headers: { token: api.admin }, payload: { DeviceName: 'Gb', DeviceType: 'GB28181' } });
    const zh = await add();
    expect(zh.statusCode).toBe(400);
    expect(zh.json().msg).toBe('参数 DeviceID 不合法: GB28181设备须填写20位设备编号');
    expect((await add('?lang=en-US')).json().msg).toBe('Invalid parameter DeviceID: a GB28181 device needs its 20-digit DeviceID');
  });
});

describe('the streaming-status socket', () => {
  it("says why it cannot follow a player in the socket's language (lang in its URL)", async () => {
    const app = await startTestApp({ listen: true });
    try {
      const token = await initialise(app);
      const errors = async (lang: string) => {
        const ws = new WebSocket(`${app.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=r&token=${token}${lang}`);
        const got: string[] = [];
        ws.on('message', (d) => got.push(JSON.parse(String(d)).msg as string));
        await new Promise((r) => ws.once('open', r));
        ws.send('{"playerid":"p"}');
        ws.send('not json');
        while (got.length < 2) await new Promise((r) => setTimeout(r, 20));
        ws.close();
        return got.sort();
      };
      expect(await errors('')).toEqual(['不是合法的JSON', '参数 stream 不合法: 请给出 stream，或 device + channel'].sort());
      expect(await errors('&lang=en-US')).toEqual(['Invalid parameter stream: give stream or device + channel', 'not JSON'].sort());
    } finally {
      await app.close();
    }
  });
});
