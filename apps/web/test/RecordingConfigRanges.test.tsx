/**
 * /config/recording, the storage settings: a segment length of 0 typed in was silently changed to
 * 0.1 minutes by the input's own minimum. Out of range is now said beside the input, with the range,
 * in the console's language, and nothing is saved; in range saves as before.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import RecordingConfigPage from '../src/features/recording/pages/RecordingConfigPage';
import { setLang } from '../src/i18n';
import { renderConsole, stubApi, v1 } from './helpers/console';
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
});
