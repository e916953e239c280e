/**
 * The live player's snapshot before the first frame says 还没有可截取的画面 in the toolbar for a
 * notice's time (spec 9: 3 s). It used to stay there beside the playing video until the next
 * snapshot.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { NOTIFY_DURATION_MS } from '@opencvr/shared';
import { LivePlayer } from '../src/components/player/LivePlayer';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

afterEach(() => vi.unstubAllGlobals());

describe('LivePlayer snapshot notice', () => {
  it('"no frame yet" goes away after a notice\'s time', async () => {
    clearSession();
    captureNotices();
    stubApi({ '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_1_0', State: 'connecting', Reason: '' }) });
    renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" />);
    const stats = screen.getByTestId('player-stats');
    fireEvent.click(screen.getByRole('button', { name: '抓图' }));
    await waitFor(() => expect(stats).toHaveTextContent('还没有可截取的画面'));
    const shown = Date.now();
    await waitFor(() => expect(stats).not.toHaveTextContent('还没有可截取的画面'), { timeout: NOTIFY_DURATION_MS + 2000 });
    expect(Date.now() - shown).toBeGreaterThanOrEqual(NOTIFY_DURATION_MS - 100);
    expect(stats).toHaveTextContent('Gate');
  });
});
