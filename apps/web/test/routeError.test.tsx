/**
 * Spec 8 "Chunk loading failure" as the user meets it: a page whose chunk does not arrive within
 * 120 s, whose stylesheet fails (CSS_CHUNK_LOAD_FAILED) or whose script fails shows the route error
 * screen, saying which, with a reload; a page that throws while rendering shows the generic one.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Suspense, type ReactElement } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { CHUNK_LOAD_TIMEOUT_MS } from '@opencvr/shared';
import { RouteError } from '../src/app/RouteError';
import { setLang } from '../src/i18n';
import { lazyPage } from '../src/lib/lazy';
import { reloadPage } from '../src/lib/navigation';

vi.mock('../src/lib/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/lib/navigation')>()),
  reloadPage: vi.fn(),
}));

/** The console's routing shape: the root route's error element over a lazy page in a Suspense. */
function renderPage(load: () => Promise<{ default: () => ReactElement }>) {
  const Page = lazyPage(load);
  const router = createMemoryRouter(
    [
      {
        element: <Outlet />,
        errorElement: <RouteError />,
        children: [{ path: '/', element: <Suspense fallback={<div>loading</div>}><Page /></Suspense> }],
      },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  setLang('zh-CN');
  // React and the router log the caught error; the screen is what is tested.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.clearAllMocks();
  setLang('zh-CN');
});

describe('route error screen', () => {
  it('a chunk that has not arrived after 120 s: says so, and reloads on request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    renderPage(() => new Promise(() => {}));
    await act(() => vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('loading')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('页面资源加载失败');
    expect(alert).toHaveTextContent('页面资源 120 秒内没有加载完成，请检查网络后重新加载');
    fireEvent.click(screen.getByRole('button', { name: '重新加载' }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('a stylesheet that fails: CSS_CHUNK_LOAD_FAILED and the styles named', async () => {
    renderPage(() => Promise.reject(new Error('Unable to preload CSS for /assets/DeviceListPage-1a2b.css')));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('页面资源加载失败');
    expect(alert).toHaveTextContent('页面样式加载失败，请重新加载');
    expect(alert).toHaveTextContent('CSS_CHUNK_LOAD_FAILED');
  });

  it('a script chunk that fails: the page code named, the browser’s text as the detail', async () => {
    renderPage(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/SquarePage-9f.js')));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('页面代码加载失败');
    expect(alert).toHaveTextContent('Failed to fetch dynamically imported module');
    expect(alert).not.toHaveTextContent('CSS_CHUNK_LOAD_FAILED');
  });

  it('a page that throws while rendering: the generic screen, no chunk words', async () => {
    renderPage(async () => ({
      default: () => {
        throw new Error('boom');
      },
    }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('页面出错了');
    expect(alert).toHaveTextContent('boom');
    expect(alert).not.toHaveTextContent('页面资源加载失败');
  });

  it('speaks English too', async () => {
    setLang('en-US');
    renderPage(() => Promise.reject(new Error('Unable to preload CSS for /assets/a.css')));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load the page');
    expect(alert).toHaveTextContent('The page styles failed to load. Reload the page');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});
