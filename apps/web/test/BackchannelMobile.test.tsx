/**
 * /video/backchannel on a phone: the player comes first, the calendar and the day's list under it (not
 * a screen of calendar to scroll past), and the timeline's hint is a finger's, not a wheel's and Shift's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { clearSession } from '../src/lib/session';
import { useUi } from '../src/lib/stores/ui';
import { openBackchannel, renderBackchannel } from './helpers/backchannel';
import { v1 } from './helpers/console';
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
  it('says why a day could not be read in the player too on a phone, where the list is far below it', async () => {
    // Session 27 walk: an operator opening another's channel on a phone saw a black player and no word.
    useUi.setState({ isMobile: true });
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
    await waitFor(() => expect(screen.getByTestId('playback-status')).toHaveTextContent('通道 5/1不存在'));
  });

  it('keeps the calendar first on a desktop', async () => {
    openBackchannel();
    const player = await screen.findByTestId('playback-player');
    expect(orderOf(player)).toBe('2');
    expect(orderOf(screen.getByText('当天录像'))).toBe('1');
    expect(screen.getByText('滚轮缩放，点击或拖动定位播放，按住 Shift 拖动选择下载范围')).toBeInTheDocument();
  });
});
