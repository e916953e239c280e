/**
 * The player's transport menu is not covered by its button's tooltip: in CI the tooltip 播放协议,
 * shown while the pointer rested on the button, sat over the menu's items and took their clicks
 * (e2e players-transports "FLV only" timed out on it). While the menu is open the tooltip is closed.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { LivePlayer } from '../src/components/player/LivePlayer';
import { TRANSPORT_STORAGE_KEY } from '../src/components/player/transportChoice';
import { captureNotices, renderConsole } from './helpers/console';

/** The tooltip popup of the transport button, if rendered and not hidden. */
const visibleTooltip = () =>
  [...document.querySelectorAll('.ant-tooltip')].find((el) => !el.classList.contains('ant-tooltip-hidden') && el.textContent?.includes('播放协议'));

describe('LivePlayer transport menu', () => {
  it('closes the button tooltip while the menu is open, and an item can be chosen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      captureNotices();
      const open = vi.fn(async () => ({ URL: '', URLs: {}, Stream: 'stream_1_0', State: 'connecting', Reason: '', ExpiresAt: 0 }) as never);
      renderConsole(<LivePlayer device="dev1" channel="1" flow={0} open={open} ptz={false} />);
      const button = await screen.findByTestId('transport-choice');
      // The pointer rests on the button: its tooltip shows.
      fireEvent.mouseEnter(button);
      await act(async () => void vi.advanceTimersByTime(500));
      await waitFor(() => expect(visibleTooltip()).toBeTruthy());
      // A click opens the menu; the tooltip must go although the pointer is still on the button.
      fireEvent.click(button);
      await act(async () => void vi.advanceTimersByTime(500));
      const flv = await screen.findByTestId('transport-flv');
      await waitFor(() => expect(visibleTooltip()).toBeFalsy());
      fireEvent.click(flv);
      await waitFor(() => expect(localStorage.getItem(TRANSPORT_STORAGE_KEY)).toBe('flv'));
    } finally {
      vi.useRealTimers();
    }
  });
});

/**
 * In fullscreen only the player's own element is drawn: antd put the transport menu and the toolbar's
 * tooltips under document.body, so in fullscreen 播放协议 opened a menu nobody could see (audit,
 * session 24: Chromium, 1366×768). They go inside the player while it is fullscreen.
 */
describe('LivePlayer popups in fullscreen', () => {
  it('opens the transport menu and the tooltips inside the fullscreen player', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let fullscreen: Element | null = null;
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => fullscreen });
    try {
      captureNotices();
      const open = vi.fn(async () => ({ URL: '', URLs: {}, Stream: 'stream_1_0', State: 'connecting', Reason: '', ExpiresAt: 0 }) as never);
      renderConsole(<LivePlayer device="dev1" channel="1" flow={0} open={open} ptz={false} />);
      const player = await screen.findByTestId('live-player');
      fullscreen = player;
      act(() => void document.dispatchEvent(new Event('fullscreenchange')));
      const snapshot = screen.getByRole('button', { name: '抓图' });
      fireEvent.mouseEnter(snapshot);
      await act(async () => void vi.advanceTimersByTime(500));
      const tip = await waitFor(() => {
        const el = [...document.querySelectorAll('.ant-tooltip')].find((t) => t.textContent === '抓图');
        expect(el).toBeTruthy();
        return el!;
      });
      expect(player.contains(tip)).toBe(true);
      fireEvent.mouseLeave(snapshot);
      fireEvent.click(screen.getByTestId('transport-choice'));
      await act(async () => void vi.advanceTimersByTime(500));
      const hls = await screen.findByTestId('transport-hls');
      expect(player.contains(hls)).toBe(true);
    } finally {
      delete (document as { fullscreenElement?: unknown }).fullscreenElement;
      vi.useRealTimers();
    }
  });
});
