/**
 * /config/program/form says the server's refusals where they belong, as /config/recording's record
 * folder does (fieldRefusal.ts): a refused parameter at its field (name, save days, the schedule
 * editor, the channels), a name another plan has at the name. They came as a notice at the top of
 * the window (参数 schedule 不合法: ..., 录像计划 Days 已存在), away from what to change. The check's
 * answer is said in the console's language (an English page had Chinese semicolons between its days).
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { WEEKDAYS } from '@opencvr/shared';
import ProgramFormPage from '../src/features/recording/pages/ProgramFormPage';
import { setLang } from '../src/i18n';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

adminSessionPerTest();

const plan = {
  ID: 7,
  Name: 'Nights',
  Schedule: { Monday: [{ StartTime: '09:00:00', EndTime: '10:00:00' }] },
  Days: {},
  SaveDays: 30,
  Enable: 1,
  ChannelCount: 1,
  Channels: [{ id: 'D1:1', DeviceID: 'D1', ChannelID: '1', Name: 'Gate', DeviceName: 'Cam', EnableRecord: 1 }],
};

/** The form on plan 7 with the answers of checkpush and setrecordplan set by the test. */
async function openForm() {
  const answers: Record<string, { status: number; body: object }> = {
    '/api/v1/checkpush': { status: 200, body: v1({ Days: Object.fromEntries(WEEKDAYS.map((d) => [d, []])) }) },
    '/api/v1/setrecordplan': { status: 200, body: v1({ ID: 7 }) },
  };
  const api = stubApi({ '/api/v1/recordplaninfo': () => v1(plan) });
  const stubbed = api.fetchMock.getMockImplementation()!;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = new URL(String(input), 'http://console.test').pathname;
    const a = answers[path];
    if (!a) return stubbed(input, init);
    api.calls.push({ method: 'POST', path, query: new URLSearchParams(), contentType: '', body: {}, headers: {} });
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } });
  });
  const notices = captureNotices();
  renderConsole(<ProgramFormPage />, { path: '/config/program/form?id=7' });
  await waitFor(() => expect(screen.getByLabelText('计划名称')).toHaveValue('Nights'));
  return { api, answers, notices };
}
const refusal = (field: string, reason: string) => ({ status: 400, body: { code: 400, msg: `参数 ${field} 不合法: ${reason}`, field, reason } });
const save = () => fireEvent.click(screen.getByTestId('plan-save'));

describe('the plan form says a refusal at its field', { timeout: 30_000 }, () => {
  it('a name another plan has, at the name; a refused save days, at the save days; no notice', async () => {
    const { api, answers, notices } = await openForm();
    answers['/api/v1/setrecordplan'] = { status: 409, body: { code: 409, msg: '录像计划 Nights 已存在' } };
    save();
    expect(await screen.findByText('录像计划 Nights 已存在')).toBeInTheDocument();
    expect(screen.getByLabelText('计划名称')).toHaveAttribute('aria-invalid', 'true');
    // Typing another name clears it (the field's own rules run again).
    fireEvent.change(screen.getByLabelText('计划名称'), { target: { value: 'Nights 2' } });
    await waitFor(() => expect(screen.queryByText('录像计划 Nights 已存在')).not.toBeInTheDocument());

    answers['/api/v1/setrecordplan'] = refusal('save_days', '须不大于 3650');
    save();
    expect(await screen.findByText('须不大于 3650')).toBeInTheDocument();
    expect(screen.getByTestId('plan-save-days')).toHaveAttribute('aria-invalid', 'true');
    expect(notices).toEqual([]);
    expect(api.callsTo('/api/v1/setrecordplan')).toHaveLength(2);
  });

  it('a refused schedule at the editor until it changes; refused channels at the channels; a failure as a notice', async () => {
    const { answers, notices } = await openForm();
    answers['/api/v1/checkpush'] = refusal('schedule', 'Monday[0] 的开始时间与结束时间相同');
    // The check button and the save both ask checkpush.
    fireEvent.click(screen.getByRole('button', { name: /校验时间/ }));
    expect(await screen.findByText('Monday[0] 的开始时间与结束时间相同')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('hour-0-12'));
    await waitFor(() => expect(screen.queryByText('Monday[0] 的开始时间与结束时间相同')).not.toBeInTheDocument());
    save();
    expect(await screen.findByText('Monday[0] 的开始时间与结束时间相同')).toBeInTheDocument();
    expect(notices).toEqual([]);

    answers['/api/v1/checkpush'] = { status: 200, body: v1({ Days: Object.fromEntries(WEEKDAYS.map((d) => [d, []])) }) };
    // A schema's path names the parameter before its first dot: channels.0.DeviceID is the channels.
    answers['/api/v1/setrecordplan'] = refusal('channels.0.DeviceID', '须为文本');
    save();
    expect(await screen.findByText('须为文本')).toBeInTheDocument();
    expect(notices).toEqual([]);

    answers['/api/v1/setrecordplan'] = { status: 500, body: { code: 500, msg: '服务器内部错误' } };
    save();
    await waitFor(() => expect(notices).toEqual(['notification:服务器内部错误']));
  });
});

describe('the plan form says the check’s answer in the console’s language', { timeout: 30_000 }, () => {
  it('per day, in Chinese and in English', async () => {
    const { answers } = await openForm();
    const slot = { sTime: '09:00:00', eTime: '10:00:00', enable: 1, number: 0, type: 1 };
    answers['/api/v1/checkpush'] = { status: 200, body: v1({ Days: Object.fromEntries(WEEKDAYS.map((d) => [d, d === 'Monday' ? [slot] : []])) }) };
    fireEvent.click(screen.getByRole('button', { name: /校验时间/ }));
    expect(await screen.findByTestId('plan-checked')).toHaveTextContent(/^星期一：09:00:00-10:00:00；星期二：—；.*；星期日：—$/);
    act(() => setLang('en-US'));
    fireEvent.click(screen.getByRole('button', { name: /Check times/ }));
    await waitFor(() => expect(screen.getByTestId('plan-checked')).toHaveTextContent(/^Monday: 09:00:00-10:00:00; Tuesday: —; .*; Sunday: —$/));
    act(() => setLang('zh-CN'));
  });
});
