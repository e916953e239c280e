/**
 * /config/recording, the storage settings: a segment length of 0 typed in was silently changed to
 * 0.1 minutes by the input's own minimum. Out of range is now said beside the input, with the range,
 * in the console's language, and nothing is saved; in range saves as before.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import RecordingConfigPage from '../src/features/recording/pages/RecordingConfigPage';
import { setLang } from '../src/i18n';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

adminSessionPerTest();

const stubs = () =>
  stubApi({
    'GET /api/v1/recordpath': () => v1({ RecordPath: '/data/rec', Default: '/data/rec', SegmentSeconds: 300, MinFreeBytes: 2 * 1024 ** 3, DefaultSaveDays: 30, FreeBytes: 50 * 1024 ** 3 }),
    'POST /api/v1/recordpath': () => v1({ RecordPath: '/data/rec' }),
    '/api/v1/recordplanlist': () => v1({ Plans: [], Total: 0 }),
  });

const type = (testId: string, value: string) => {
  const input = screen.getByTestId(testId);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};
const save = () => fireEvent.click(screen.getByRole('button', { name: /保\s*存|Save/ }));

describe('recording storage settings', { timeout: 30_000 }, () => {
  it('says the allowed segment length when 0 is typed, keeps the 0 and saves nothing', async () => {
    const api = stubs();
    renderConsole(<RecordingConfigPage />, { path: '/config/recording' });
    await waitFor(() => expect(screen.getByTestId('segment-minutes')).toHaveValue('5'));
    type('segment-minutes', '0');
    save();
    expect(await screen.findByText('录像分段时长须在 0.1 到 60 分钟之间')).toBeInTheDocument();
    expect(screen.getByTestId('segment-minutes')).toHaveValue('0');
    expect(api.callsTo('/api/v1/recordpath', 'POST')).toHaveLength(0);

    type('segment-minutes', '61');
    act(() => setLang('en-US'));
    save();
    expect(await screen.findByText('The segment length must be from 0.1 to 60 minutes')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/recordpath', 'POST')).toHaveLength(0);
    act(() => setLang('zh-CN'));

    type('segment-minutes', '2');
    save();
    await waitFor(() => expect(api.callsTo('/api/v1/recordpath', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/recordpath', 'POST')[0].body.SegmentSeconds).toBe('120');
  });

  it('says the allowed default save days when 0 is typed', async () => {
    const api = stubs();
    renderConsole(<RecordingConfigPage />, { path: '/config/recording' });
    await waitFor(() => expect(screen.getByTestId('default-save-days')).toHaveValue('30'));
    type('default-save-days', '0');
    save();
    expect(await screen.findByText('默认保存天数须在 1 到 3650 天之间')).toBeInTheDocument();
    expect(screen.getByTestId('default-save-days')).toHaveValue('0');
    expect(api.callsTo('/api/v1/recordpath', 'POST')).toHaveLength(0);
  });

  it('says a folder the server refuses at the field, in its reason, with no notice; another failure stays a notice', async () => {
    // The issue 5 walk (session 26): 参数 RecordPath 不合法 came as a notice, far from the field.
    const api = stubs();
    const answer = { status: 400, body: {} as object };
    const stubbed = api.fetchMock.getMockImplementation()!;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if ((init.method ?? 'GET').toUpperCase() !== 'POST' || !String(input).includes('/api/v1/recordpath')) return stubbed(input, init);
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    });
    const notices = captureNotices();
    renderConsole(<RecordingConfigPage />, { path: '/config/recording' });
    await waitFor(() => expect(screen.getByTestId('record-path')).toHaveValue('/data/rec'));
    answer.body = { code: 400, msg: '参数 RecordPath 不合法: 系统文件夹不能存放录像', field: 'RecordPath', reason: '系统文件夹不能存放录像' };
    type('record-path', '/etc');
    save();
    expect(await screen.findByText('系统文件夹不能存放录像')).toBeInTheDocument();
    expect(screen.getByTestId('record-path')).toHaveAttribute('aria-invalid', 'true');
    expect(notices).toEqual([]);
    // typing again clears it (the form's own rules run again)
    type('record-path', '/data/other');
    await waitFor(() => expect(screen.queryByText('系统文件夹不能存放录像')).not.toBeInTheDocument());

    // the free space to keep, sent in bytes from the GB field: said at that field (session 27: a
    // value of the whole disk or more is refused, lessThanDisk)
    answer.body = { code: 400, msg: '参数 MinFreeBytes 不合法: 须小于录像文件夹所在磁盘的容量（39.25 GB，即 42145779712 字节）', field: 'MinFreeBytes', reason: '须小于录像文件夹所在磁盘的容量（39.25 GB，即 42145779712 字节）' };
    save();
    expect(await screen.findByText('须小于录像文件夹所在磁盘的容量（39.25 GB，即 42145779712 字节）')).toBeInTheDocument();
    expect(notices).toEqual([]);

    // not a field of this form: a notice, as the request layer says a 400
    answer.body = { code: 400, msg: '参数 Foo 不合法: 须为整数', field: 'Foo', reason: '须为整数' };
    save();
    await waitFor(() => expect(notices).toEqual(['error:参数 Foo 不合法: 须为整数']));
    // a server failure: the request-failed panel
    answer.status = 500;
    answer.body = { code: 500, msg: '服务器内部错误' };
    save();
    await waitFor(() => expect(notices).toContain('notification:服务器内部错误'));
    expect(screen.queryByText('须为整数')).not.toBeInTheDocument();
  });
});
