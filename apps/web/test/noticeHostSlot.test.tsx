/**
 * The lazy notice host (lib/NoticeHostSlot): its chunk arrives with the first notice, which is often
 * when the server has just gone away. A failed load must leave the console on screen (it used to
 * unmount everything: a blank page after a live player's reconnect asked for a notice with the
 * server down), and a later notice loads the host again and shows.
 */
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { NoticeHostSlot } from '../src/lib/NoticeHostSlot';
import { bindNotifiers, notify, unbindNotifiers, useNoticeHost } from '../src/lib/notify';

describe('NoticeHostSlot', () => {
  it('survives a notice host chunk that fails to load, and loads it again for the next notice', async () => {
    useNoticeHost.setState({ wanted: false, tries: 0 });
    const shown: string[] = [];
    const message = { error: (o: { content: string }) => shown.push(o.content) } as unknown as MessageInstance;
    function FakeHost() {
      useEffect(() => {
        bindNotifiers(message, {} as NotificationInstance);
        return unbindNotifiers;
      }, []);
      return null;
    }
    const load = vi
      .fn<() => Promise<{ default: () => null }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: http://x/assets/NoticeHost-a.js'))
      .mockResolvedValue({ default: FakeHost });
    // React reports the caught chunk failure on the console.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      render(
        <>
          <NoticeHostSlot load={load} />
          <p>console</p>
        </>,
      );
      act(() => notify.error('network error'));
      await waitFor(() => expect(useNoticeHost.getState().tries).toBe(1));
      expect(screen.getByText('console')).toBeInTheDocument();
      expect(useNoticeHost.getState().wanted).toBe(false);

      act(() => notify.error('server is back'));
      await waitFor(() => expect(shown).toEqual(['server is back']));
      expect(load).toHaveBeenCalledTimes(2);
      expect(screen.getByText('console')).toBeInTheDocument();
    } finally {
      quiet.mockRestore();
    }
  });
});
