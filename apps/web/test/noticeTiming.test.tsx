/**
 * Spec 9 "Notification duration 3000 ms (2000 ms for errors), offset 50", through the console's own
 * notice host: a success or warning stays 3 s, an error message or failure panel 2 s, and both kinds
 * show 50 px from the top of the window.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/react';
import { NOTIFY_DURATION_MS, NOTIFY_ERROR_DURATION_MS, NOTIFY_OFFSET } from '@opencvr/shared';
import NoticeHost from '../src/lib/NoticeHost';
import { notify, unbindNotifiers } from '../src/lib/notify';

/** Showing: in the list and not leaving (in jsdom the leave motion never ends, so its class marks the close). */
const shown = (text: string) =>
  [...document.querySelectorAll('.ant-message-notice, .ant-notification-notice')].some(
    (el) => el.textContent?.includes(text) && !/-leave\b/.test(el.className),
  );

/** Lets the given time pass and says whether the notice is still showing. */
async function after(ms: number, text: string) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  return shown(text);
}

beforeEach(() => {
  vi.useFakeTimers();
  render(<NoticeHost />);
});
afterEach(() => {
  unbindNotifiers();
  vi.useRealTimers();
});

describe('notice timing and place', () => {
  it('the spec values', () => {
    expect([NOTIFY_DURATION_MS, NOTIFY_ERROR_DURATION_MS, NOTIFY_OFFSET]).toEqual([3000, 2000, 50]);
  });

  it.each([
    ['success', () => notify.success('已保存一'), '已保存一'],
    ['warning', () => notify.warning('已移除收藏夹一'), '已移除收藏夹一'],
  ])('%s message: stays 3 s', async (_kind, show, text) => {
    act(show);
    expect(await after(50, text)).toBe(true);
    expect(await after(NOTIFY_DURATION_MS - 200, text)).toBe(true);
    expect(await after(1000, text)).toBe(false);
  });

  it.each([
    ['error message', () => notify.error('通道已离线二'), '通道已离线二'],
    ['failure panel', () => notify.failure('请求失败', '网络异常二'), '网络异常二'],
  ])('%s: stays 2 s', async (_kind, show, text) => {
    act(show);
    expect(await after(50, text)).toBe(true);
    expect(await after(NOTIFY_ERROR_DURATION_MS - 200, text)).toBe(true);
    expect(await after(1000, text)).toBe(false);
  });

  it('messages and notification panels show 50 px from the top', async () => {
    act(() => {
      notify.success('位置三');
      notify.failure('请求失败', '位置四');
    });
    await act(() => vi.advanceTimersByTimeAsync(50));
    const messages = document.querySelector<HTMLElement>('.ant-message');
    const panels = document.querySelector<HTMLElement>('.ant-notification');
    // antd 6 places its lists by this variable (top: var(--notification-top)).
    expect(messages?.style.getPropertyValue('--notification-top')).toBe(`${NOTIFY_OFFSET}px`);
    expect(panels?.style.getPropertyValue('--notification-top')).toBe(`${NOTIFY_OFFSET}px`);
  });
});
