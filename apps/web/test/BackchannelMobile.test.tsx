/**
 * /video/backchannel on a phone: the player comes first, the calendar and the day's list under it (not
 * a screen of calendar to scroll past), and the timeline's hint is a finger's, not a wheel's and Shift's.
 */
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
    // A phone has no wheel and no Shift: the timeline's hint says what a finger does (session 25).
    expect(screen.getByText('点按或拖动定位播放，用上方按钮缩放；下载范围在下方输入')).toBeInTheDocument();
    expect(screen.queryByText(/滚轮缩放/)).toBeNull();
  });
  it('keeps the calendar first on a desktop', async () => {
    openBackchannel();
    const player = await screen.findByTestId('playback-player');
    expect(orderOf(player)).toBe('2');
    expect(orderOf(screen.getByText('当天录像'))).toBe('1');
    expect(screen.getByText('滚轮缩放，点击或拖动定位播放，按住 Shift 拖动选择下载范围')).toBeInTheDocument();
  });
});
