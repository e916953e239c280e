/** /video/backchannel on a phone: the player comes first, the calendar and the day's list under it (not a screen of calendar to scroll past). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { clearSession } from '../src/lib/session';
import { useUi } from '../src/lib/stores/ui';
import { openBackchannel } from './helpers/backchannel';
import { loginAdmin } from './helpers/dialogs';

beforeEach(() => loginAdmin());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
  useUi.setState({ isMobile: false });
});

const orderOf = (el: HTMLElement) => (el.closest('.ant-col') as HTMLElement).style.order;

describe('/video/backchannel layout', { timeout: 30_000 }, () => {
  it('puts the player before the calendar on a phone, after it on a desktop', async () => {
    useUi.setState({ isMobile: true });
    openBackchannel();
    const player = await screen.findByTestId('playback-player');
    expect(orderOf(player)).toBe('1');
    expect(orderOf(screen.getByText('当天录像'))).toBe('2');
  });
  it('keeps the calendar first on a desktop', async () => {
    openBackchannel();
    const player = await screen.findByTestId('playback-player');
    expect(orderOf(player)).toBe('2');
    expect(orderOf(screen.getByText('当天录像'))).toBe('1');
  });
});
