/**
 * A day without recordings: the player said "点击时间轴上的录像开始回放" (click a recording on the
 * timeline) over an empty timeline. It now says the day has none; a day with recordings keeps the hint.
 * A day that could not be read says why once, where the list would be (session 25: the request layer's
 * 请求失败 panel said it a second time), and so does the segment list page; neither is titled by the
 * bare id of a channel the server does not list to the user (as the player page), nor names it by its
 * ids in the recordings breadcrumb (session 26: 录像回放 / 5 / 5_1 / 2026-11-26).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { clearSession } from '../src/lib/session';
import { Route, Routes } from 'react-router-dom';
import BacktimePage from '../src/features/playback/pages/BacktimePage';
import { openBackchannel, renderBackchannel } from './helpers/backchannel';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

beforeEach(() => loginAdmin());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});


/** The recordings breadcrumb's crumbs as shown. */
const crumbs = () => within(screen.getByTestId('recording-breadcrumb')).getAllByRole('listitem').map((li) => li.textContent);

describe('/video/backchannel on a day', { timeout: 30_000 }, () => {
  it('without recordings: the player says there are none, not to click the timeline', async () => {
    openBackchannel({ day: '20261126', list: [] });
    await screen.findAllByText('当天没有录像');
    const status = screen.getByTestId('playback-status');
    await waitFor(() => expect(status).toHaveTextContent('当天没有录像'));
    expect(status).not.toHaveTextContent('点击时间轴');
  });

  it('with recordings: the player says to click one on the timeline', async () => {
    openBackchannel({ day: '20261126', list: [{ name: 'a', startAt: '20261126080000', endAt: '20261126081000', duration: 600, important: 0, recording: 0, ids: [1] }] });
    await screen.findByTestId('day-summary');
    expect(screen.getByTestId('playback-status')).toHaveTextContent('点击时间轴上的录像开始回放');
  });

  it('still being read: the player does not say to click the timeline, which is empty until the day comes', async () => {
    let answer: (list: unknown) => void = () => undefined;
    stubApi({
      '/api/v1/devices/5/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'NVR', Name: 'Gate' }], ChannelCount: 1 }),
      '/api/v1/record/querymonthly': () => '0'.repeat(30),
      '/api/v1/record/querydaily': () => new Promise((resolve) => (answer = resolve)),
    });
    renderBackchannel('20261126');
    await screen.findByRole('heading', { level: 4, name: '通道录像 · Gate' });
    const status = screen.getByTestId('playback-status');
    expect(status).toHaveTextContent(/^$/);
    act(() => answer({ total: 1, list: [{ name: 'a', startAt: '20261126080000', endAt: '20261126081000', duration: 600, important: 0, recording: 0, ids: [1] }] }));
    await waitFor(() => expect(status).toHaveTextContent('点击时间轴上的录像开始回放'));
  });

  it('that could not be read (a channel out of the role): the list says why, the player does not say to click', async () => {
    // It said 点击时间轴上的录像开始回放 over an empty timeline beside "channel 2/1 does not exist".
    stubApi({
      '/api/v1/devices/5/channels': () => v1({ Channels: [], ChannelCount: 0 }),
      '/api/v1/record/querymonthly': () => '0'.repeat(30),
      // no querydaily stub: the server's 404
    });
    renderBackchannel('20261126');
    await screen.findByTestId('day-error');
    expect(screen.getByTestId('playback-status')).not.toHaveTextContent('点击时间轴');
    expect(screen.getByTestId('playback-status')).not.toHaveTextContent('当天没有录像');
  });

  /** The notices shown once the page's reads have settled. */
  async function settledNotices(notices: string[]) {
    await act(() => new Promise((r) => setTimeout(r, 50)));
    return notices;
  }

  it('that could not be read says why once: in the list, not again in a notice or in the calendar', async () => {
    const notices = captureNotices();
    // A channel outside the role: the server's 404 to the month and to the day alike.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        new URL(String(input), 'http://console.test').pathname === '/api/v1/devices/5/channels'
          ? new Response(JSON.stringify(v1({ Channels: [], ChannelCount: 0 })), { status: 200, headers: { 'Content-Type': 'application/json' } })
          : new Response(JSON.stringify({ code: 404, msg: '通道 5/1不存在' }), { status: 404, headers: { 'Content-Type': 'application/json' } }),
      ),
    );
    renderBackchannel('20261126');
    expect(await screen.findByTestId('day-error')).toHaveTextContent('通道 5/1不存在');
    expect(await settledNotices(notices)).toEqual([]);
    expect(screen.getAllByText('通道 5/1不存在')).toHaveLength(1);
    expect(screen.queryByTestId('month-error')).toBeNull();
    // Asking again gets the same 404: no retry offered (session 27 walk).
    expect(screen.queryByRole('button', { name: /重\s*试/ })).toBeNull();
    // As the player page: not titled by the bare id, no segment list offered.
    expect(screen.getByRole('heading', { level: 4 })).toHaveTextContent(/^通道录像$/);
    expect(screen.queryByRole('button', { name: /录像列表/ })).toBeNull();
    // The trail says what the title says, not the ids from the address (录像回放 / 5 / 5_1 / …).
    expect(crumbs()).toEqual(['录像回放', '通道录像', '2026-11-26']);
  });

  it('a device that did not answer: the list says why and offers to ask again', async () => {
    let asked = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input), 'http://console.test').pathname;
        if (path === '/api/v1/devices/5/channels') return new Response(JSON.stringify(v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'NVR', Name: 'Gate' }], ChannelCount: 1 })), { status: 200, headers: { 'Content-Type': 'application/json' } });
        if (path === '/api/v1/record/querymonthly') return new Response(JSON.stringify('0'.repeat(30)), { status: 200, headers: { 'Content-Type': 'application/json' } });
        asked += path === '/api/v1/record/querydaily' ? 1 : 0;
        return new Response(JSON.stringify({ code: 504, msg: '设备 5 无应答: 超时' }), { status: 504, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    renderBackchannel('20261126');
    expect(await screen.findByTestId('day-error')).toHaveTextContent('设备 5 无应答: 超时');
    const before = asked;
    screen.getByRole('button', { name: /重\s*试/ }).click();
    await waitFor(() => expect(asked).toBeGreaterThan(before));
  });

  it('a month that could not be read while the day could: the calendar says why, no notice', async () => {
    const notices = captureNotices();
    stubApi({
      '/api/v1/devices/5/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'NVR', Name: 'Gate' }], ChannelCount: 1 }),
      '/api/v1/record/querydaily': () => ({ total: 0, list: [] }),
    });
    renderBackchannel('20261126');
    expect(await screen.findByTestId('month-error')).toHaveTextContent('querymonthly');
    expect(screen.queryByTestId('day-error')).toBeNull();
    expect(await settledNotices(notices)).toEqual([]);
  });

  it('the segment list of a day that could not be read says why once', async () => {
    const notices = captureNotices();
    stubApi({ '/api/v1/devices/5/channels': () => v1({ Channels: [], ChannelCount: 0 }) });
    renderConsole(
      <Routes>
        <Route path="/video/backtime/:devid/:chnid/:day" element={<BacktimePage />} />
      </Routes>,
      { path: '/video/backtime/5/1/20261126' },
    );
    expect(await screen.findByTestId('day-error')).toHaveTextContent('querydaily');
    expect(await settledNotices(notices)).toEqual([]);
    expect(screen.getByRole('heading', { level: 4 })).toHaveTextContent(/^录像列表 · 2026-11-26$/);
    expect(screen.queryByRole('button', { name: /时间轴/ })).toBeNull();
    expect(crumbs()).toEqual(['录像回放', '通道录像', '2026-11-26', '录像列表']);
  });

  it('names a channel the server lists, and offers its segment list', async () => {
    openBackchannel({ day: '20261126', name: 'Gate' });
    const heading = await screen.findByRole('heading', { level: 4, name: '通道录像 · Gate' });
    // At most two lines (antd's CSS line clamp), the whole title its tooltip: a long camera name took
    // three lines and put the segment list's button on a line of its own.
    expect(heading).toHaveAttribute('title', '通道录像 · Gate');
    expect(heading).toHaveClass('ant-typography-ellipsis-multiple-line');
    expect(heading).toHaveStyle({ WebkitLineClamp: '2' });
    expect(screen.getByRole('button', { name: /录像列表/ })).toBeInTheDocument();
    await waitFor(() => expect(crumbs()).toEqual(['录像回放', 'NVR', 'Gate', '2026-11-26']));
  });
});
