/**
 * The same notice twice (two calls failing for the same reason, a retry failing as before) shows
 * once: antd's message keyed by kind and text replaces the one showing instead of stacking a copy.
 */
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { message, notification } from 'antd';
import { bindNotifiers, notify, unbindNotifiers } from '../src/lib/notify';

function Host() {
  const [msg, msgHolder] = message.useMessage();
  const [note, noteHolder] = notification.useNotification();
  useEffect(() => {
    bindNotifiers(msg, note);
    return unbindNotifiers;
  }, [msg, note]);
  return (
    <>
      {msgHolder}
      {noteHolder}
    </>
  );
}

const count = (text: string, selector: string) => [...document.querySelectorAll(selector)].filter((el) => el.textContent?.includes(text)).length;

describe('notify', () => {
  it('shows an identical notice once, a different one beside it', async () => {
    render(<Host />);
    act(() => {
      notify.error('通道 5:1不存在');
      notify.error('通道 5:1不存在');
      notify.error('另一个错误');
      notify.failure('请求失败', '网络错误');
      notify.failure('请求失败', '网络错误');
    });
    await waitFor(() => expect(count('另一个错误', '.ant-message-notice')).toBe(1));
    expect(count('通道 5:1不存在', '.ant-message-notice')).toBe(1);
    await waitFor(() => expect(count('网络错误', '.ant-notification-notice')).toBe(1));
  });
});
