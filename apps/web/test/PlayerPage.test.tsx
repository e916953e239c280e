/**
 * /video/player/:devid/:chnid/:flow: the channel's online tag follows the channel. It was read once
 * when the page opened and said 在线 while the camera had been off line for minutes (the player
 * itself reconnecting underneath); the events socket's news message now refreshes it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { NewsItem } from '@opencvr/shared';
import PlayerPage from '../src/features/live/pages/PlayerPage';
import { clearSession } from '../src/lib/session';
import { useConfig } from '../src/lib/stores/config';
import { today } from '../src/features/playback/day';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

/** The player engines started, in order (their events drive the player as the media socket would). */
const engines = vi.hoisted(() => [] as import('../src/components/player/engine').EngineEvents[]);
vi.mock('../src/components/player/wsFmp4', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  startWsFmp4: (_video: HTMLVideoElement, _url: string, events: import('../src/components/player/engine').EngineEvents) => {
    engines.push(events);
    return { stop: () => undefined };
  },
}));

const ws = vi.hoisted(() => ({ listeners: new Map<string, (payload: unknown) => void>() }));
vi.mock('../src/lib/ws', () => ({
  useWsTopic: (topic: string, fn: (payload: unknown) => void) => {
    ws.listeners.set(topic, fn);
  },
}));

const news = (DeviceID: string, ChannelID: string, Status: 'ON' | 'OFF'): NewsItem => ({
  ID: 1,
  Status,
  DeviceID,
  ChannelID,
  ChannelName: 'Gate',
  NewsTime: '2026-11-27 07:40:00',
  sign: 0,
});

afterEach(() => {
  engines.length = 0;
  vi.unstubAllGlobals();
  useConfig.setState({ otherConfig: null, homeConfig: null });
});

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}


/** The player page of channel 7/1, main stream, as the route renders it. */
const openPlayerPage = () =>
  renderConsole(
    <Routes>
      <Route path="/video/player/:devid/:chnid/:flow" element={<PlayerPage />} />
    </Routes>,
    { path: '/video/player/7/1/0' },
  );
describe('PlayerPage', () => {
  it("the online tag follows the channel's news messages", async () => {
    clearSession();
    captureNotices();
    let online = 1;
    const api = stubApi({
      '/api/v1/devices/7/channels': () =>
        v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '7', Name: 'Gate', Online: online, Enable: 1 }], ChannelCount: 1 }),
      '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_7_0', State: 'connecting', Reason: '' }),
    });
    openPlayerPage();
    expect(await screen.findByTestId('channel-online')).toHaveTextContent('在线');
    const reads = () => api.calls.filter((c) => c.path === '/api/v1/devices/7/channels').length;
    const before = reads();

    // Another channel's message changes nothing.
    act(() => ws.listeners.get('news')?.(news('7', '2', 'OFF')));
    act(() => ws.listeners.get('news')?.(news('8', '1', 'OFF')));
    expect(reads()).toBe(before);

    online = 0;
    act(() => ws.listeners.get('news')?.(news('7', '1', 'OFF')));
    await waitFor(() => expect(screen.getByTestId('channel-online')).toHaveTextContent('离线'));
    online = 1;
    act(() => ws.listeners.get('news')?.(news('7', '1', 'ON')));
    await waitFor(() => expect(screen.getByTestId('channel-online')).toHaveTextContent('在线'));
  });

  it('offers the PTZ pad only for a channel the server can steer (ONVIF or GB28181)', async () => {
    clearSession();
    captureNotices();
    let row: Record<string, unknown> = { ChannelID: '1', ParentDeviceID: '7', Name: 'Gate', Online: 1, Enable: 1, DeviceType: 'RTSP', Onvif: '' };
    stubApi({
      '/api/v1/devices/7/channels': () => v1({ Channels: [row], ChannelCount: 1 }),
      '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_7_0', State: 'connecting', Reason: '' }),
    });
    const view = openPlayerPage();
    await screen.findByTestId('channel-online');
    expect(screen.queryByRole('button', { name: '云台控制' })).toBeNull();
    view.unmount();
    row = { ...row, Onvif: 'http://10.0.0.9/onvif/device_service' };
    openPlayerPage();
    expect(await screen.findByRole('button', { name: '云台控制' })).toBeInTheDocument();
  });

  it("goes to the channel's recordings of today, unless playback is off (RecordVersion false)", async () => {
    // The live player had no way to the camera's recordings: the menu, the device, then the channel.
    clearSession();
    captureNotices();
    stubApi({
      '/api/v1/devices/7/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '7', Name: 'Gate', Online: 1, Enable: 1 }], ChannelCount: 1 }),
      '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_7_0', State: 'connecting', Reason: '' }),
    });
    const routes = (
      <Routes>
        <Route path="/video/player/:devid/:chnid/:flow" element={<PlayerPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    );
    const view = renderConsole(routes, { path: '/video/player/7/1/0' });
    fireEvent.click(await screen.findByRole('button', { name: /录像回放/ }));
    expect(await screen.findByTestId('where')).toHaveTextContent(`/video/backchannel/7/1/${today()}`);
    view.unmount();
    useConfig.setState({ otherConfig: { RecordVersion: false } as never });
    renderConsole(routes, { path: '/video/player/7/1/0' });
    await screen.findByTestId('channel-online');
    expect(screen.queryByTestId('player-playback')).toBeNull();
  });

  it('a channel the user may not see: no title from its id, no share and no other action on it', async () => {
    // An operator whose role lacks channel 7/1: the page was titled "1" and offered 分享 (and the
    // main/sub switch, the recordings, manual recording) beside the player's 通道 7/1不存在.
    clearSession();
    captureNotices();
    useConfig.setState({ otherConfig: { RecordVersion: true } as never });
    const api = stubApi({
      // The server lists no channel outside the role; channelstream is refused (no stub: a 404).
      '/api/v1/devices/7/channels': () => v1({ Channels: [], ChannelCount: 0 }),
    });
    openPlayerPage();
    await waitFor(() => expect(api.callsTo('/api/v1/devices/channelstream')).not.toHaveLength(0));
    await waitFor(() => expect(screen.getByTestId('live-player')).toHaveAttribute('data-phase', 'error'));
    await waitFor(() => expect(api.callsTo('/api/v1/devices/7/channels')).toHaveLength(1));
    const heading = screen.getByRole('heading', { level: 4 });
    expect(heading).toHaveTextContent('视频播放');
    expect(document.title).toBe('视频播放');
    expect(screen.queryByTestId('share-button')).toBeNull();
    expect(screen.queryByTestId('player-playback')).toBeNull();
    expect(screen.queryByText('主码流')).toBeNull();
    expect(screen.queryByTestId('channel-online')).toBeNull();
    expect(screen.queryByTestId('player-record')).toBeNull();
    expect(screen.queryByRole('button', { name: '云台控制' })).toBeNull();
  });

  it('a channel that does not exist offers no Retry (it cannot come back by retrying) but the way back', async () => {
    clearSession();
    captureNotices();
    const api = stubApi({ '/api/v1/devices/7/channels': () => v1({ Channels: [], ChannelCount: 0 }) });
    renderConsole(
      <>
        <Routes>
          <Route path="/video/player/:devid/:chnid/:flow" element={<PlayerPage />} />
          <Route path="/video/browse" element={<div />} />
        </Routes>
        <Where />
      </>,
      { path: '/video/player/7/1/0' },
    );
    await waitFor(() => expect(screen.getByTestId('live-player')).toHaveAttribute('data-phase', 'error'));
    expect(api.callsTo('/api/v1/devices/channelstream')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /重\s*试/ })).toBeNull();
    // Nothing to snapshot, hear, switch or enlarge.
    for (const name of ['抓图', /^(静音|打开声音)$/, '全屏']) expect(screen.queryByRole('button', { name }), String(name)).toBeNull();
    // Opened by its address (nothing to go back to): the wall.
    fireEvent.click(screen.getByRole('button', { name: /返\s*回/ }));
    expect(screen.getByTestId('where')).toHaveTextContent('/video/browse');
  });

  it('names the page after the channel once it is known, never after its id', async () => {
    clearSession();
    captureNotices();
    let answer: (v: unknown) => void = () => {};
    stubApi({
      '/api/v1/devices/7/channels': () => new Promise((r) => (answer = r)),
      '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_7_0', State: 'connecting', Reason: '' }),
    });
    openPlayerPage();
    const heading = await screen.findByRole('heading', { level: 4 });
    expect(heading).not.toHaveTextContent(/^1$/);
    expect(screen.queryByTestId('share-button')).toBeNull();
    answer(v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '7', Name: 'Gate', Online: 1, Enable: 1 }], ChannelCount: 1 }));
    await waitFor(() => expect(heading).toHaveTextContent('Gate'));
    expect(document.title).toBe('Gate');
    expect(screen.getByTestId('share-button')).toBeInTheDocument();
    expect(screen.getByTestId('player-record')).toBeInTheDocument();
  });

  it('a channel deleted while the page is open: asked for again, the page stops offering what acts on it', async () => {
    vi.stubGlobal('MediaSource', class {
      static isTypeSupported = () => true;
    });
    clearSession();
    captureNotices();
    useConfig.setState({ otherConfig: { RecordVersion: true } as never });
    const gate = { ChannelID: '1', ParentDeviceID: '7', Name: 'Gate', Online: 1, Enable: 1 };
    const routes: Parameters<typeof stubApi>[0] = {
      '/api/v1/devices/7/channels': () => v1({ Channels: [gate], ChannelCount: 1 }),
      '/api/v1/devices/channelstream': () => v1({ URL: '/ws_m4s/live/stream_7_0.mp4', URLs: { WS_FMP4: '/ws_m4s/live/stream_7_0.mp4' }, Stream: 'stream_7_0', State: 'live' }),
    };
    const api = stubApi(routes);
    openPlayerPage();
    const heading = await screen.findByRole('heading', { level: 4 });
    await waitFor(() => expect(heading).toHaveTextContent('Gate'));
    await waitFor(() => expect(engines).toHaveLength(1));
    act(() => engines[0]!.onPlaying());
    expect(screen.getByTestId('share-button')).toBeInTheDocument();
    // Deleted: the server lists it no more and refuses its stream (no stub: a 404); the hub's end closes the media socket.
    routes['/api/v1/devices/7/channels'] = () => v1({ Channels: [], ChannelCount: 0 });
    delete routes['/api/v1/devices/channelstream'];
    act(() => engines[0]!.onFailure('closed', 'stream stopped'));
    await waitFor(() => expect(screen.getByTestId('live-player')).toHaveAttribute('data-phase', 'error'), { timeout: 4000 });
    await waitFor(() => expect(api.callsTo('/api/v1/devices/7/channels')).toHaveLength(2));
    await waitFor(() => expect(heading).toHaveTextContent('视频播放'));
    expect(screen.queryByTestId('share-button')).toBeNull();
    expect(screen.queryByTestId('player-playback')).toBeNull();
    expect(screen.queryByTestId('channel-online')).toBeNull();
    expect(screen.queryByTestId('player-record')).toBeNull();
  });
});
