/**
 * A device that stops sending (GB28181 device unplugged, NVR busy) froze the live picture for the
 * ten seconds the server waits before it reconnects, with nothing said: after three silent seconds
 * the player now says the picture is frozen and that it waits for the device.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderConsole, stubApi } from './helpers/console';
import type { PlayerStats } from '../src/components/player/useLiveStream';

const live = vi.hoisted(() => ({ stats: { phase: 'playing', reason: '', bytesPerSecond: 0 } as PlayerStats }));
vi.mock('../src/components/player/useLiveStream', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/components/player/useLiveStream')>()),
  useLiveStream: () => ({ stats: live.stats, retry: () => {} }),
}));
const { LivePlayer } = await import('../src/components/player/LivePlayer');
const { nextSilence } = await import('../src/components/player/useLiveStream');

afterEach(() => vi.unstubAllGlobals());

describe('a frozen live picture', () => {
  it('counts whole seconds without a byte while playing, and starts again with data or another phase', () => {
    expect(nextSilence(0, 0, true)).toBe(1);
    expect(nextSilence(2, 0, true)).toBe(3);
    expect(nextSilence(5, 1400, true)).toBe(0);
    expect(nextSilence(5, 0, false)).toBe(0);
  });

  it('says so after three silent seconds, not before', () => {
    stubApi({});
    live.stats = { phase: 'playing', reason: '', bytesPerSecond: 0, silentSeconds: 2 };
    const player = () => <LivePlayer device="1" channel="1" flow={0} name="Gate" open={async () => ({ URL: '', request_id: '' }) as never} />;
    const first = renderConsole(player());
    expect(screen.queryByTestId('player-frozen')).toBeNull();
    first.unmount();
    live.stats = { ...live.stats, silentSeconds: 4 };
    renderConsole(player());
    expect(screen.getByTestId('player-frozen')).toHaveTextContent('画面已停止：4 秒没有收到视频，等待设备恢复…');
  });
});
