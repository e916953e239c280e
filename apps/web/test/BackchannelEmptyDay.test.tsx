/**
 * A day without recordings: the player said "点击时间轴上的录像开始回放" (click a recording on the
 * timeline) over an empty timeline. It now says the day has none; a day with recordings keeps the hint.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BackchannelPage from '../src/features/playback/pages/BackchannelPage';
import { clearSession } from '../src/lib/session';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

beforeEach(() => loginAdmin());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

function open(list: unknown[]) {
  stubApi({
    '/api/v1/devices/5/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'NVR', Name: 'Gate' }], ChannelCount: 1 }),
    '/api/v1/record/querymonthly': () => '0'.repeat(30),
    '/api/v1/record/querydaily': () => ({ total: list.length, list }),
  });
  renderConsole(
    <Routes>
      <Route path="/video/backchannel/:devid/:chnid/:day" element={<BackchannelPage />} />
    </Routes>,
    { path: '/video/backchannel/5/1/20261126' },
  );
}

describe('/video/backchannel on a day', { timeout: 30_000 }, () => {
  it('without recordings: the player says there are none, not to click the timeline', async () => {
    open([]);
    await screen.findAllByText('当天没有录像');
    const status = screen.getByTestId('playback-status');
    await waitFor(() => expect(status).toHaveTextContent('当天没有录像'));
    expect(status).not.toHaveTextContent('点击时间轴');
  });

  it('with recordings: the player says to click one on the timeline', async () => {
    open([{ name: 'a', startAt: '20261126080000', endAt: '20261126081000', duration: 600, important: 0, recording: 0, ids: [1] }]);
    await screen.findByTestId('day-summary');
    expect(screen.getByTestId('playback-status')).toHaveTextContent('点击时间轴上的录像开始回放');
  });
});
