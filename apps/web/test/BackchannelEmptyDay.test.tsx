/**
 * A day without recordings: the player said "点击时间轴上的录像开始回放" (click a recording on the
 * timeline) over an empty timeline. It now says the day has none; a day with recordings keeps the hint.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { clearSession } from '../src/lib/session';
import { Route, Routes } from 'react-router-dom';
import BackchannelPage from '../src/features/playback/pages/BackchannelPage';
import { openBackchannel } from './helpers/backchannel';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

beforeEach(() => loginAdmin());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});


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

  it('that could not be read (a channel out of the role): the list says why, the player does not say to click', async () => {
    // It said 点击时间轴上的录像开始回放 over an empty timeline beside "channel 2/1 does not exist".
    stubApi({
      '/api/v1/devices/5/channels': () => v1({ Channels: [], ChannelCount: 0 }),
      '/api/v1/record/querymonthly': () => '0'.repeat(30),
      // no querydaily stub: the server's 404
    });
    renderConsole(
      <Routes>
        <Route path="/video/backchannel/:devid/:chnid/:day" element={<BackchannelPage />} />
      </Routes>,
      { path: '/video/backchannel/5/1/20261126' },
    );
    await screen.findByTestId('day-error');
    expect(screen.getByTestId('playback-status')).not.toHaveTextContent('点击时间轴');
    expect(screen.getByTestId('playback-status')).not.toHaveTextContent('当天没有录像');
  });
});
