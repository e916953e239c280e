/**
 * The player page's share button: a link is made for the chosen duration and its expiry is written
 * like the console's other times, not in the browser's locale (it said "11/28/2026, 7:00:24 AM" in
 * the Chinese console).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { ShareButton } from '../src/features/live/components/ShareButton';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

afterEach(() => vi.unstubAllGlobals());

describe('ShareButton', () => {
  it('shows the link and its expiry as YYYY-MM-DD HH:mm:ss', async () => {
    captureNotices();
    const expires = new Date(2026, 10, 28, 7, 0, 24).getTime() / 1000;
    const api = stubApi({
      '/api/v1/devices/sharelink': () => v1({ URL: '/share/1/1/0?play_token=abc', ExpiresAt: expires }),
    });
    renderConsole(<ShareButton device="1" channel="1" flow={0} />);
    fireEvent.click(screen.getByTestId('share-button'));
    fireEvent.click(await screen.findByTestId('share-create'));
    expect(await screen.findByTestId('share-link')).toHaveTextContent(`${window.location.origin}/share/1/1/0?play_token=abc`);
    expect(screen.getByTestId('share-expires')).toHaveTextContent(/^到期时间：2026-11-28 07:00:24$/);
    expect(api.calls[0]).toMatchObject({ path: '/api/v1/devices/sharelink' });
  });
});
