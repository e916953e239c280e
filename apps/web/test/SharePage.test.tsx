import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import SharedPlayerPage from '../src/features/live/pages/SharedPlayerPage';
import { renderConsole, v1 } from './helpers/console';

function answer(status: number, body: unknown) {
  return vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

function renderAt(path: string) {
  window.history.pushState({}, '', path);
  return renderConsole(
    <Routes>
      <Route path="/share/:devid/:chnid/:flow" element={<SharedPlayerPage />} />
      <Route path="/players/:devid/:chnid/:flow" element={<SharedPlayerPage />} />
    </Routes>,
    { path },
  );
}

describe('public share page', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    window.history.pushState({}, '', '/');
  });

  it('an expired link shows the server message instead of a player, and stays on the page', async () => {
    const fetchMock = answer(401, { code: 401, msg: '分享链接已过期' });
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/share/34020000001320000001/1/0?play_token=old');
    expect(await screen.findByTestId('share-error')).toHaveTextContent('分享链接已过期');
    expect(screen.queryByTestId('live-player')).toBeNull();
    const url = new URL(String(fetchMock.mock.calls[0]![0]), 'http://x');
    expect(url.pathname).toBe('/api/v1/share/channelstream');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      device: '34020000001320000001',
      channel: '1',
      stream: '0',
      protocol: 'ws_m4s',
      play_token: 'old',
    });
    // A public page is never sent to the login page.
    expect(window.location.pathname).toBe('/share/34020000001320000001/1/0');
  });

  it('a bad token shows the server text from the v1 envelope', async () => {
    vi.stubGlobal('fetch', answer(401, { EasyDarwin: { Header: { ErrorNum: '401', ErrorString: '登录已失效，请重新登录' }, Body: {} } }));
    renderAt('/players/d/1/1?play_token=tampered');
    expect(await screen.findByTestId('share-error')).toHaveTextContent('登录已失效，请重新登录');
  });

  it('a page left open stops playing when its link expires, and says so', async () => {
    // The stream answer carries the link's expiry (seconds), a minute from now here; the page's clock
    // is moved there once the player shows. (A link 3 s long, waited for in real time, could expire
    // before a loaded machine had rendered the player, and then no player ever showed.) The fake clock
    // also runs on with real time, so the waits for the page below are real waits.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const ExpiresAt = Math.floor(Date.now() / 1000) + 60;
    vi.stubGlobal('fetch', answer(200, v1({ URL: '/ws_m4s/live/stream_5_0.mp4', URLs: {}, Stream: 'stream_5_0', Name: 'Gate', ExpiresAt })));
    renderAt('/share/5/1/0?play_token=short');
    expect(await screen.findByTestId('live-player')).toBeInTheDocument();
    // Still playing 10 s before the expiry.
    await act(() => vi.advanceTimersByTimeAsync(ExpiresAt * 1000 - Date.now() - 10_000));
    expect(screen.queryByTestId('share-error')).toBeNull();
    expect(screen.getByTestId('live-player')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByTestId('share-error')).toHaveTextContent('分享链接已过期');
    expect(screen.queryByTestId('live-player')).toBeNull();
  });

  it('a link without play_token says so without calling the server', async () => {
    const fetchMock = answer(200, {});
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/share/d/1/0');
    expect(await screen.findByTestId('share-error')).toHaveTextContent('链接缺少播放令牌');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
