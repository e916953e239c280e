/** /video/backchannel on a phone: the player comes first, the calendar and the day's list under it (not a screen of calendar to scroll past). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BackchannelPage from '../src/features/playback/pages/BackchannelPage';
import { clearSession } from '../src/lib/session';
import { useUi } from '../src/lib/stores/ui';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

beforeEach(() => loginAdmin());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
  useUi.setState({ isMobile: false });
});

function open() {
  stubApi({
    '/api/v1/devices/5/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'NVR', Name: 'Gate' }], ChannelCount: 1 }),
    '/api/v1/record/querymonthly': () => '0'.repeat(30),
    '/api/v1/record/querydaily': () => ({ total: 0, list: [] }),
  });
  renderConsole(
    <Routes>
      <Route path="/video/backchannel/:devid/:chnid/:day" element={<BackchannelPage />} />
    </Routes>,
    { path: '/video/backchannel/5/1/20261127' },
  );
}
const orderOf = (el: HTMLElement) => (el.closest('.ant-col') as HTMLElement).style.order;

describe('/video/backchannel layout', { timeout: 30_000 }, () => {
  it('puts the player before the calendar on a phone, after it on a desktop', async () => {
    useUi.setState({ isMobile: true });
    open();
    const player = await screen.findByTestId('playback-player');
    expect(orderOf(player)).toBe('1');
    expect(orderOf(screen.getByText('当天录像'))).toBe('2');
  });
  it('keeps the calendar first on a desktop', async () => {
    open();
    const player = await screen.findByTestId('playback-player');
    expect(orderOf(player)).toBe('2');
    expect(orderOf(screen.getByText('当天录像'))).toBe('1');
  });
});
