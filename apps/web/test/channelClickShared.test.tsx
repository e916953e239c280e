/**
 * One channel-click rule (spec 2 "Video pages"): the sidebar (features/video) and the channel cards of
 * /video/square (features/live) both open a channel through lib/channelClick, which says 通道未开启! for a
 * channel that is not enabled (also when offline), 通道已离线! for an offline one, and opens the player of an
 * online, enabled one. The square page kept a hand-made copy of the rule before.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { ChannelRow } from '@opencvr/shared';
import type { ClickableChannel } from '../src/lib/channelClick';
import SquarePage from '../src/features/live/pages/SquarePage';
import { useChannelActions } from '../src/features/video/useChannelActions';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { Where } from './helpers/where';

/** Every channel handed to the shared rule's hook, from whichever page. */
const opened: ClickableChannel[] = [];
vi.mock('../src/lib/channelClick', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/lib/channelClick')>();
  function useRecordedOpen() {
    const open = actual.useOpenChannel();
    return (c: ClickableChannel) => {
      opened.push(c);
      open(c);
    };
  }
  return { ...actual, useOpenChannel: useRecordedOpen };
});

let notices: string[];
beforeEach(() => {
  opened.length = 0;
  notices = captureNotices();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the channel-click rule, lib/channelClick', () => {
  it('not enabled first, then offline, then the player (main stream); the playback pages open today’s recordings', async () => {
    const { channelClick } = await import('../src/lib/channelClick');
    const ch = { DeviceID: '3402', ChannelID: '7' };
    expect(channelClick({ ...ch, Online: 0, Enable: 0 })).toEqual({ kind: 'disabled' });
    expect(channelClick({ ...ch, Online: 1, Enable: 0 })).toEqual({ kind: 'disabled' });
    expect(channelClick({ ...ch, Online: 0, Enable: 1 })).toEqual({ kind: 'offline' });
    expect(channelClick({ ...ch, Online: 1, Enable: 1 })).toEqual({ kind: 'play', to: '/video/player/3402/7/0' });
    expect(channelClick({ ...ch, Online: 0, Enable: 1 }, { pathname: '/video/backlist/0', today: '20261125' })).toEqual({
      kind: 'play',
      to: '/video/backchannel/3402/7/20261125',
    });
  });
});

describe('the sidebar and the square page open channels by that rule', () => {
  const channel = (ChannelID: string, Name: string, over: Partial<ChannelRow>) =>
    ({ ChannelID, ParentDeviceID: '1001', DeviceName: 'NVR', DeviceType: 'RTSP', Name, Parental: 0, ParentID: '', GBID: ChannelID, Enable: 1, Online: 1, ...over }) as ChannelRow;

  it('square page: the card’s channel goes to the rule, whose notices and player route it shows', async () => {
    const rows = [channel('2', 'Yard', { Online: 0 }), channel('3', 'Spare', { Enable: 0, Online: 1 }), channel('1', 'Gate', {})];
    // The device's cameras, a page of them (the square page's call since it pages on the server).
    stubApi({ '/api/v1/devices/1001/channels': () => v1({ Channels: rows, ChannelCount: rows.length }) });
    renderConsole(
      <Routes>
        <Route path="/video/square/:devid" element={<SquarePage />} />
        <Route path="*" element={<Where />} />
      </Routes>,
      { path: '/video/square/1001' },
    );
    await waitFor(() => expect(screen.getAllByTestId('square-channel')).toHaveLength(3));
    const [yard, spare, gate] = screen.getAllByTestId('square-channel');
    fireEvent.click(yard!);
    fireEvent.click(spare!);
    expect(notices).toEqual(['warning:通道已离线!', 'warning:通道未开启!']);
    fireEvent.click(gate!);
    expect(await screen.findByTestId('where')).toHaveTextContent('/video/player/1001/1/0');
    expect(opened).toEqual([
      { DeviceID: '1001', ChannelID: '2', Online: 0, Enable: 1 },
      { DeviceID: '1001', ChannelID: '3', Online: 1, Enable: 0 },
      { DeviceID: '1001', ChannelID: '1', Online: 1, Enable: 1 },
    ]);
  });

  it('sidebar: its open action is the rule’s, with the same notices and player route', async () => {
    const channels: ClickableChannel[] = [
      { DeviceID: '9', ChannelID: '2', Online: 0, Enable: 1 },
      { DeviceID: '9', ChannelID: '3', Online: 0, Enable: 0 },
      { DeviceID: '9', ChannelID: '1', Online: 1, Enable: 1 },
    ];
    function Sidebar() {
      const { open } = useChannelActions();
      return (
        <>
          {channels.map((c) => (
            <button key={c.ChannelID} onClick={() => open(c)}>{`ch${c.ChannelID}`}</button>
          ))}
        </>
      );
    }
    renderConsole(
      <Routes>
        <Route path="/video/live" element={<Sidebar />} />
        <Route path="*" element={<Where />} />
      </Routes>,
      { path: '/video/live' },
    );
    fireEvent.click(screen.getByText('ch2'));
    fireEvent.click(screen.getByText('ch3'));
    expect(notices).toEqual(['warning:通道已离线!', 'warning:通道未开启!']);
    fireEvent.click(screen.getByText('ch1'));
    expect(await screen.findByTestId('where')).toHaveTextContent('/video/player/9/1/0');
    expect(opened).toEqual(channels);
  });
});
