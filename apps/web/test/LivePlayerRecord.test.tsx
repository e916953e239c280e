/**
 * Manual recording from the live player (issue 5: realtimerecord/start and stop from the player):
 * the toolbar's record button starts it, the player marks the channel 录像中, and the same button
 * stops it. Public players (an `open` of their own, no session) have no such button, nor has a
 * server without recording (RecordVersion false: spec 6 hides playback and the recording plans, so a
 * recording started here could be neither played nor planned).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { LivePlayer } from '../src/components/player/LivePlayer';
import { clearSession } from '../src/lib/session';
import { useConfig } from '../src/lib/stores/config';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

afterEach(() => {
  vi.unstubAllGlobals();
  useConfig.setState({ otherConfig: null, homeConfig: null });
});

const stream = () => v1({ URL: '', URLs: {}, Stream: 'stream_1_0', State: 'connecting', Reason: '' });

describe('LivePlayer manual recording', () => {
  it('starts and stops recording the channel, marking it while it records', async () => {
    clearSession();
    captureNotices();
    const api = stubApi({
      '/api/v1/devices/channelstream': stream,
      '/api/v1/realtimerecord/start': () => v1({ Recording: 1, Manual: 1 }),
      '/api/v1/realtimerecord/stop': () => v1({ Recording: 0, Manual: 0 }),
    });
    renderConsole(<LivePlayer device="34020000001320000001" channel="1" flow={0} name="Gate" />);
    expect(screen.queryByTestId('player-rec')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '开始录像' }));
    await waitFor(() => expect(screen.getByTestId('player-rec')).toHaveTextContent('录像中'));
    const start = api.callsTo('/api/v1/realtimerecord/start');
    expect(start).toHaveLength(1);
    expect(start[0].query.get('device')).toBe('34020000001320000001');
    expect(start[0].query.get('channel')).toBe('1');
    const stop = screen.getByRole('button', { name: '停止录像' });
    expect(stop).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(stop);
    await waitFor(() => expect(screen.queryByTestId('player-rec')).toBeNull());
    expect(api.callsTo('/api/v1/realtimerecord/stop')).toHaveLength(1);
    expect(screen.getByRole('button', { name: '开始录像' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('a public player (its own opener) offers no recording', async () => {
    clearSession();
    stubApi({});
    renderConsole(<LivePlayer device="1" channel="1" flow={0} open={async () => ({ URL: '', URLs: {}, Stream: 'stream_1_0' })} />);
    expect(screen.queryByRole('button', { name: '开始录像' })).toBeNull();
  });

  it('a server without recording (RecordVersion false) offers no recording', async () => {
    clearSession();
    stubApi({ '/api/v1/devices/channelstream': stream });
    useConfig.setState({ otherConfig: { RecordVersion: false } as never });
    renderConsole(<LivePlayer device="34020000001320000001" channel="1" flow={0} name="Gate" />);
    expect(await screen.findByRole('button', { name: '抓图' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '开始录像' })).toBeNull();
  });
});
