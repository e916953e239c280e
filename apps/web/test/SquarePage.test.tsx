/**
 * Issue 4: /video/square/{devid}, the channel-card grid. For a device it shows that device's cameras
 * (not its directories) with each one's state (在线, 离线, 未开启), 20 to a page (spec 3 "Paging");
 * a click opens the player of an online, enabled channel and otherwise says 通道已离线! or
 * 通道未开启! (spec 2 "Video pages", spec 8). devid 0 shows the favourites, or every channel with the
 * search sent to the server.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useParams } from 'react-router-dom';
import type { ChannelRow } from '@opencvr/shared';
import SquarePage from '../src/features/live/pages/SquarePage';
import { useChannelActions } from '../src/features/video/useChannelActions';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { channelsPage } from './helpers/lists';

// The events socket, stubbed: a test pushes a news message to the page.
const ws = vi.hoisted(() => ({ listeners: new Map<string, (payload: unknown) => void>() }));
vi.mock('../src/lib/ws', () => ({
  useWsTopic: (topic: string, fn: (payload: unknown) => void) => {
    ws.listeners.set(topic, fn);
  },
}));

let notices: string[];
beforeEach(() => {
  notices = captureNotices();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const channel = (ChannelID: string, Name: string, over: Partial<ChannelRow> = {}) =>
  ({
    ChannelID,
    ParentDeviceID: '1001',
    DeviceName: 'North gate NVR',
    DeviceType: 'RTSP',
    Name,
    Parental: 0,
    ParentID: '',
    GBID: ChannelID,
    Enable: 1,
    Online: 1,
    ...over,
  }) as ChannelRow;

/** Where a click on a playable card lands. */
function PlayerProbe() {
  const { devid, chnid, flow } = useParams();
  return <div data-testid="player">{`${devid}|${chnid}|${flow}`}</div>;
}

function renderSquare(devid: string) {
  return renderConsole(
    <Routes>
      <Route path="/video/square/:devid" element={<SquarePage />} />
      <Route path="/video/player/:devid/:chnid/:flow" element={<PlayerProbe />} />
    </Routes>,
    { path: `/video/square/${devid}` },
  );
}

/** The device's cameras call: directories left out, the search matched, a page of them (as the server does). */
const deviceCameras = (list: () => ChannelRow[]) => (call: { query: URLSearchParams }) => {
  const q = (call.query.get('q') ?? '').toLowerCase();
  const hits = list().filter((c) => c.Parental !== 1 && (!q || c.Name.toLowerCase().includes(q) || c.ChannelID.includes(q)));
  return channelsPage(call, hits);
};

const cards = () => screen.queryAllByTestId('square-channel');
const cardNames = () => cards().map((c) => c.querySelector('.ant-card-meta-title')!.textContent);
const card = (name: string) => cards().find((c) => c.querySelector('.ant-card-meta-title')!.textContent === name)!;

describe('/video/square/{devid}: one device', () => {
  const deviceChannels = [
    channel('1', 'Gate camera'),
    channel('2', 'Yard camera', { Online: 0 }),
    channel('3', 'Spare camera', { Enable: 0, Online: 0 }),
    channel('4', 'Disabled but reporting', { Enable: 0, Online: 1 }),
    // A directory (GB civil code / business group) has nothing to play: no card.
    channel('34020000002160000001', 'Building A', { Parental: 1 }),
  ];

  it('shows the device’s cameras with their state and the device name as title', async () => {
    const api = stubApi({
      '/api/v1/devices/1001/channels': deviceCameras(() => deviceChannels),
    });
    renderSquare('1001');
    await waitFor(() => expect(cards()).toHaveLength(4));
    expect(api.callsTo('/api/v1/devices/1001/channels')[0].query.get('limit')).toBe('20');
    expect(cardNames()).toEqual(['Gate camera', 'Yard camera', 'Spare camera', 'Disabled but reporting']);
    expect(screen.getByRole('heading', { name: 'North gate NVR' })).toBeInTheDocument();

    expect(card('Gate camera')).toHaveAttribute('data-state', 'online');
    expect(within(card('Gate camera')).getByText('在线 · North gate NVR')).toBeInTheDocument();
    expect(card('Yard camera')).toHaveAttribute('data-state', 'offline');
    expect(within(card('Yard camera')).getByText('离线 · North gate NVR')).toBeInTheDocument();
    expect(card('Spare camera')).toHaveAttribute('data-state', 'disabled');
    expect(within(card('Spare camera')).getByText('未开启 · North gate NVR')).toBeInTheDocument();
    // Not enabled wins over a stale online flag.
    expect(within(card('Disabled but reporting')).getByText('未开启 · North gate NVR')).toBeInTheDocument();
    // No pager for a single page.
    expect(document.querySelector('.ant-pagination')).toBeNull();
  });

  it('a click on an offline or disabled channel says so and stays; on an online one opens its player (main stream)', async () => {
    stubApi({ '/api/v1/devices/1001/channels': deviceCameras(() => deviceChannels) });
    renderSquare('1001');
    await waitFor(() => expect(cards()).toHaveLength(4));

    fireEvent.click(card('Yard camera'));
    expect(notices).toEqual(['warning:通道已离线!']);
    fireEvent.click(card('Spare camera'));
    expect(notices).toEqual(['warning:通道已离线!', 'warning:通道未开启!']);
    fireEvent.click(card('Disabled but reporting'));
    expect(notices).toEqual(['warning:通道已离线!', 'warning:通道未开启!', 'warning:通道未开启!']);
    expect(screen.queryByTestId('player')).toBeNull();
    expect(cards()).toHaveLength(4);

    // The keyboard opens a card too.
    fireEvent.keyDown(card('Gate camera'), { key: 'Enter' });
    expect(await screen.findByTestId('player')).toHaveTextContent('1001|1|0');
    expect(notices).toHaveLength(3);
  });

  it('pages 20 cards at a time; a search filters by name and starts again at page 1', async () => {
    const many = Array.from({ length: 45 }, (_, i) =>
      channel(String(i + 1), `Cam ${String(i + 1).padStart(2, '0')}`, { Online: i % 2 }),
    );
    stubApi({ '/api/v1/devices/1001/channels': deviceCameras(() => many) });
    renderSquare('1001');
    await waitFor(() => expect(cards()).toHaveLength(20));
    expect(cardNames()).toEqual(many.slice(0, 20).map((c) => c.Name));
    expect(screen.getByText('共 45 个通道')).toBeInTheDocument();

    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(cardNames()).toEqual(['Cam 41', 'Cam 42', 'Cam 43', 'Cam 44', 'Cam 45']));
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(cardNames()).toEqual(many.slice(20, 40).map((c) => c.Name)));

    fireEvent.change(screen.getByPlaceholderText('搜索通道名称'), { target: { value: 'cam 1' } });
    await waitFor(() => expect(cardNames()).toEqual(many.slice(9, 19).map((c) => c.Name)), { timeout: 3000 });
    expect(document.querySelector('.ant-pagination')).toBeNull();
  });
});

describe('/video/square/0: favourites or every channel', () => {
  it('shows the favourites first, says when there are none, and lists every channel with the search sent to the server', async () => {
    const everyChannel = [
      channel('1', 'Gate camera'),
      channel('2', 'Loading bay', { ParentDeviceID: '1002', DeviceName: 'Warehouse', Online: 0 }),
      channel('9', 'Region', { Parental: 1 }),
    ];
    const api = stubApi({
      '/api/v1/favorites': () => v1({ Channels: [], ChannelCount: 0 }),
      // As the server answers: cameras=1 leaves the directory out of the page and the count.
      '/api/v1/all/channels': (call) => {
        const rows = everyChannel.filter(
          (c) => (call.query.get('cameras') !== '1' || c.Parental !== 1) && (!call.query.get('q') || c.Name.includes(call.query.get('q')!)),
        );
        return v1({ Channels: rows, ChannelCount: rows.length });
      },
    });
    renderSquare('0');
    expect(await screen.findByText('收藏夹为空，可在左侧的树中点星标收藏通道')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/all/channels')).toHaveLength(0);

    fireEvent.click(screen.getByText('全部通道'));
    await waitFor(() => expect(cardNames()).toEqual(['Gate camera', 'Loading bay']));
    expect(api.callsTo('/api/v1/all/channels')[0].query.get('limit')).toBe('20');
    expect(within(card('Loading bay')).getByText('离线 · Warehouse')).toBeInTheDocument();

    fireEvent.change(screen.getByPlaceholderText('搜索通道名称'), { target: { value: 'Loading' } });
    await waitFor(
      () => expect(api.callsTo('/api/v1/all/channels').some((c) => c.query.get('q') === 'Loading')).toBe(true),
      {
        timeout: 3000,
      },
    );
    await waitFor(() => expect(cardNames()).toEqual(['Loading bay']));

    fireEvent.click(card('Loading bay'));
    expect(notices).toEqual(['warning:通道已离线!']);
  });

  it('a favourite card opens the player of its own device', async () => {
    stubApi({
      '/api/v1/favorites': () =>
        v1({ Channels: [channel('7', 'Lobby', { ParentDeviceID: '2002', DeviceName: 'Hall' })], ChannelCount: 1 }),
    });
    renderSquare('0');
    await waitFor(() => expect(cardNames()).toEqual(['Lobby']));
    expect(within(card('Lobby')).getByText('在线 · Hall')).toBeInTheDocument();
    fireEvent.click(card('Lobby'));
    expect(await screen.findByTestId('player')).toHaveTextContent('2002|7|0');
  });

  it("a star in the sidebar shows in the square's favourites at once", async () => {
    let favourites: ChannelRow[] = [];
    stubApi({
      '/api/v1/favorites': () => v1({ Channels: favourites, ChannelCount: favourites.length }),
      '/api/v1/addfavoriteschannel': () => {
        favourites = [channel('1', 'Gate camera')];
        return v1({ FavoritesChannel: 1 });
      },
    });
    function SidebarStar() {
      const { star } = useChannelActions();
      return (
        <button type="button" onClick={() => void star({ DeviceID: '1001', ChannelID: '1', Name: 'Gate camera', FavoritesChannel: 0 })}>
          star
        </button>
      );
    }
    renderConsole(
      <>
        <SidebarStar />
        <Routes>
          <Route path="/video/square/:devid" element={<SquarePage />} />
        </Routes>
      </>,
      { path: '/video/square/0' },
    );
    expect(await screen.findByText('收藏夹为空，可在左侧的树中点星标收藏通道')).toBeInTheDocument();
    fireEvent.click(screen.getByText('star'));
    await waitFor(() => expect(cardNames()).toEqual(['Gate camera']));
  });

  it("a listed channel's online/offline message updates its card", async () => {
    let online = 1;
    const api = stubApi({
      '/api/v1/devices/1001/channels': deviceCameras(() => [channel('1', 'Gate camera', { Online: online })]),
    });
    renderSquare('1001');
    await waitFor(() => expect(card('Gate camera')).toHaveAttribute('data-state', 'online'));
    const reads = () => api.callsTo('/api/v1/devices/1001/channels').length;
    const before = reads();
    const news = (DeviceID: string, ChannelID: string, Status: 'ON' | 'OFF') =>
      ws.listeners.get('news')?.({ ID: 1, Status, DeviceID, ChannelID, ChannelName: 'x', NewsTime: '2026-11-27 08:00:00', sign: 0 });

    // A channel that is not listed reads nothing.
    act(() => news('2002', '1', 'OFF'));
    expect(reads()).toBe(before);
    online = 0;
    act(() => news('1001', '1', 'OFF'));
    await waitFor(() => expect(card('Gate camera')).toHaveAttribute('data-state', 'offline'));
    expect(within(card('Gate camera')).getByText('离线 · North gate NVR')).toBeInTheDocument();
  });
});

describe('/video/square/{devid}: the cards’ pictures', () => {
  const channels = [
    channel('1', 'Gate camera'),
    channel('2', 'Yard camera', { Online: 0 }),
    channel('3', 'Spare camera', { Enable: 0, Online: 0 }),
  ];
  const thumb = (name: string) => within(card(name)).queryByTestId('square-thumb') as HTMLImageElement | null;
  const playIcon = (name: string) => card(name).querySelector('.anticon-play-circle');
  afterEach(() => useSession.setState({ token: '' }));

  it('a card asks for its stored thumbnail (lazily, with the token), never a stream; not enabled: no picture asked', async () => {
    useSession.setState({ token: 'tok 1' });
    const api = stubApi({ '/api/v1/devices/1001/channels': deviceCameras(() => channels) });
    renderSquare('1001');
    await waitFor(() => expect(cards()).toHaveLength(3));
    const gate = thumb('Gate camera')!;
    expect(gate.getAttribute('src')).toBe('/api/v1/devices/channelthumb?device=1001&channel=1&token=tok+1');
    expect(gate).toHaveAttribute('loading', 'lazy');
    expect(thumb('Yard camera')!.getAttribute('src')).toBe('/api/v1/devices/channelthumb?device=1001&channel=2&token=tok+1');
    expect(thumb('Spare camera')).toBeNull();
    expect(playIcon('Spare camera')).not.toBeNull();
    // The picture is a file on the server: nothing here opens a stream or decodes one.
    expect(api.calls.map((c) => c.path)).toEqual(['/api/v1/devices/1001/channels']);
  });

  it('a channel of a disabled device (its own Enable 1, still reported online) is not enabled: no picture asked, a click says 通道未开启!', async () => {
    const ofDisabled = [channel('1', 'Gate camera', { DeviceEnable: 0, Online: 1 }), channel('2', 'Yard camera', { DeviceEnable: 1 })];
    stubApi({ '/api/v1/devices/1001/channels': deviceCameras(() => ofDisabled) });
    renderSquare('1001');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(card('Gate camera')).toHaveAttribute('data-state', 'disabled');
    expect(within(card('Gate camera')).getByText('设备未开启 · North gate NVR')).toBeInTheDocument();
    expect(thumb('Gate camera')).toBeNull();
    expect(playIcon('Gate camera')).not.toBeNull();
    expect(card('Yard camera')).toHaveAttribute('data-state', 'online');
    fireEvent.click(card('Gate camera'));
    expect(notices).toEqual(['warning:通道未开启!']);
    expect(screen.queryByTestId('player')).toBeNull();
  });

  it('a loaded picture replaces the placeholder; offline: dimmed and marked; none (204): the placeholder stays', async () => {
    stubApi({ '/api/v1/devices/1001/channels': deviceCameras(() => channels) });
    renderSquare('1001');
    await waitFor(() => expect(cards()).toHaveLength(3));
    // Until it has loaded the picture is invisible, the placeholder shows.
    expect(thumb('Gate camera')!.style.opacity).toBe('0');
    expect(playIcon('Gate camera')).not.toBeNull();

    fireEvent.load(thumb('Gate camera')!);
    expect(thumb('Gate camera')!.style.opacity).toBe('1');
    expect(thumb('Gate camera')!.style.filter).toBe('');
    expect(playIcon('Gate camera')).toBeNull();
    expect(within(card('Gate camera')).queryByText('离线')).toBeNull();

    fireEvent.load(thumb('Yard camera')!);
    expect(thumb('Yard camera')!.style.opacity).toBe('0.55');
    expect(thumb('Yard camera')!.style.filter).toBe('grayscale(1)');
    expect(within(card('Yard camera')).getByText('离线')).toBeInTheDocument();

    // No picture (the server's 204: none made yet): the image fails and goes, the placeholder stays.
    fireEvent.error(thumb('Yard camera')!);
    expect(thumb('Yard camera')).toBeNull();
    expect(playIcon('Yard camera')).not.toBeNull();
  });

  it('an open square asks again every 2 min, spread 3 s apart by card, with the ETag (no-cache): a new tag shows the new picture; nothing while the tab is hidden', async () => {
    const listed = [channel('1', 'Gate camera'), channel('2', 'Yard camera'), channel('3', 'Spare camera', { Online: 0 })];
    const api = stubApi({ '/api/v1/devices/1001/channels': deviceCameras(() => listed) });
    // The thumbnail answers: the browser's cache makes a 304 a 200 with the cached body, the same tag.
    let tag = '"a"';
    const asks: { name: string; at: number; cache?: RequestCache }[] = [];
    const names: Record<string, string> = { '1': 'Gate camera', '2': 'Yard camera', '3': 'Spare camera' };
    const apiFetch = api.fetchMock.getMockImplementation()!;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input), 'http://console.test');
        if (url.pathname !== '/api/v1/devices/channelthumb') return apiFetch(input, init);
        asks.push({ name: names[url.searchParams.get('channel')!], at: Date.now(), cache: init.cache });
        return new Response(new TextEncoder().encode(tag), { status: 200, headers: { ETag: tag, 'Content-Type': 'image/jpeg' } });
      }),
    );
    let objects = 0;
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:picture-${++objects}`);
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    let hidden = false;
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => (hidden ? 'hidden' : 'visible'));
    renderSquare('1001');
    await waitFor(() => expect(cards()).toHaveLength(3));
    vi.useFakeTimers();
    try {
      const start = Date.now();
      for (const name of ['Gate camera', 'Yard camera', 'Spare camera']) fireEvent.load(thumb(name)!);
      const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

      await wait(120_000 - 1);
      expect(asks).toEqual([]);
      await wait(1);
      // The card's own URL again (the browser's copy is revalidated, not a new URL), no-cache.
      expect(asks).toEqual([{ name: 'Gate camera', at: start + 120_000, cache: 'no-cache' }]);
      await wait(3000);
      expect(asks.map((a) => [a.name, a.at - start])).toEqual([['Gate camera', 120_000], ['Yard camera', 123_000]]);
      // The first answer's tag was unknown: shown (from the cache, no bytes moved on a 304).
      expect(thumb('Gate camera')!.getAttribute('src')).toBe('blob:picture-1');

      // Unchanged (the same tag): nothing new made or shown.
      await wait(120_000);
      expect(asks).toHaveLength(4);
      expect(objects).toBe(2);
      expect(thumb('Gate camera')!.getAttribute('src')).toBe('blob:picture-1');

      // The server made a new picture: the next ask shows it. The offline card never asks.
      tag = '"b"';
      await wait(120_000);
      expect(asks).toHaveLength(6);
      expect(thumb('Gate camera')!.getAttribute('src')).toBe('blob:picture-3');
      expect(thumb('Yard camera')!.getAttribute('src')).toBe('blob:picture-4');
      expect(thumb('Gate camera')!.style.opacity).toBe('1');
      expect(asks.some((a) => a.name === 'Spare camera')).toBe(false);

      // A hidden tab asks for nothing; back in view the overdue cards ask, spread again.
      hidden = true;
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      await wait(600_000);
      expect(asks).toHaveLength(6);
      hidden = false;
      const back = Date.now();
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      await wait(0);
      expect(asks.slice(6).map((a) => [a.name, a.at - back])).toEqual([['Gate camera', 0]]);
      await wait(3000);
      expect(asks.slice(6).map((a) => [a.name, a.at - back])).toEqual([['Gate camera', 0], ['Yard camera', 3000]]);
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it('an online channel without a picture yet asks again 2, 4 and 8 s later (its first ask put it in line), then every 2 min', async () => {
    const api = stubApi({ '/api/v1/devices/1001/channels': deviceCameras(() => channels) });
    renderSquare('1001');
    await waitFor(() => expect(cards()).toHaveLength(3));
    vi.useFakeTimers();
    try {
      const first = thumb('Gate camera')!.getAttribute('src')!;
      for (const [n, wait] of [[1, 2000], [2, 4000], [3, 8000]]) {
        fireEvent.error(thumb('Gate camera')!);
        expect(thumb('Gate camera')).toBeNull();
        act(() => void vi.advanceTimersByTime(wait - 1));
        expect(thumb('Gate camera')).toBeNull();
        act(() => void vi.advanceTimersByTime(1));
        expect(thumb('Gate camera')!.getAttribute('src')).toBe(`${first}&try=${n}`);
      }
      fireEvent.error(thumb('Gate camera')!);
      act(() => void vi.advanceTimersByTime(60_000));
      expect(thumb('Gate camera')).toBeNull();
      expect(playIcon('Gate camera')).not.toBeNull();
      // Its stream may start later (a viewer): the card keeps asking, slowly; still none (204) here.
      expect(api.callsTo('/api/v1/devices/channelthumb')).toHaveLength(0);
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      expect(api.callsTo('/api/v1/devices/channelthumb')).toHaveLength(1);
      expect(thumb('Gate camera')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
