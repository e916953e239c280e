/**
 * Spec 8 "the stream info call returns code 400 quietly": downloadrecord/streaminfo, which the
 * playback page polls while a device sends a recording, passes a 400 (and any other failure) on to the
 * download's own display with its code and text, without a notice of the request layer on top.
 */
import { describe, expect, it, vi } from 'vitest';
import { deviceDownloadInfo } from '../src/features/playback/deviceDownload';
import { stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

const ID = '0123456789abcdef0123456789abcdef';
const admin = adminSessionPerTest();

/** fetch answering with `status` and the server's error envelope. */
function answer(status: number, text: string) {
  const body = { EasyDarwin: { Header: { ErrorNum: String(status), ErrorString: text }, Body: {} } };
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('stream info call', () => {
  it('a 400 rejects with code 400 and the server text, and shows no notice', async () => {
    const fetchMock = answer(400, '参数 request_id 不合法');
    await expect(deviceDownloadInfo(ID)).rejects.toMatchObject({ code: 400, msg: '参数 request_id 不合法' });
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toContain(`/api/v1/downloadrecord/streaminfo?request_id=${ID}`);
    expect(admin.notices).toEqual([]);
  });

  it('a download gone from the server (404) is passed on quietly too', async () => {
    answer(404, '下载不存在');
    await expect(deviceDownloadInfo(ID)).rejects.toMatchObject({ code: 404 });
    expect(admin.notices).toEqual([]);
  });

  it('answers the download’s progress when the server has it', async () => {
    const info = { request_id: ID, State: 'downloading', Progress: 42, Reason: '', URL: '', Name: '' };
    const api = stubApi({ '/api/v1/downloadrecord/streaminfo': () => v1(info) });
    await expect(deviceDownloadInfo(ID)).resolves.toMatchObject({ State: 'downloading', Progress: 42 });
    expect(api.callsTo('/api/v1/downloadrecord/streaminfo')[0]!.query.get('request_id')).toBe(ID);
    expect(admin.notices).toEqual([]);
  });
});
