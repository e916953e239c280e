/**
 * "Load more" in the message list while the log moves under it: messages arrive at the top (a burst
 * the socket delivers, and some it missed while reconnecting) and messages of the first page are
 * deleted in another tab. By offset the next page then repeated or skipped rows; after the last row
 * shown (newslist's `before`) every message appears exactly once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { NewsItem } from '@opencvr/shared';
import NewsListPage from '../src/features/news/pages/NewsListPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin, logout } from './helpers/dialogs';

const ws = vi.hoisted(() => ({ listeners: new Map<string, (payload: unknown) => void>() }));
vi.mock('../src/lib/ws', () => ({
  useWsTopic: (topic: string, fn: (payload: unknown) => void) => {
    ws.listeners.set(topic, fn);
  },
}));

const item = (ID: number): NewsItem => ({
  ID,
  Status: 'OFF',
  DeviceID: String(ID),
  ChannelID: '1',
  ChannelName: `Camera ${ID}`,
  NewsTime: `2026-11-27T10:00:${String(ID % 60).padStart(2, '0')}.000Z`,
  sign: 0,
});

/** The server's table, newest first, and what this user deleted (a mark: the row keeps its place). */
let table: NewsItem[];
let deleted: Set<number>;
let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  captureNotices();
  loginAdmin();
  table = Array.from({ length: 50 }, (_, i) => item(50 - i));
  deleted = new Set();
  api = stubApi({
    '/api/v1/newslist': (c) => {
      // As the server: offset from the top, or from after the message `before`.
      const before = c.query.get('before');
      const from = before ? table.findIndex((n) => n.ID === Number(before)) + 1 : 0;
      const rest = table.slice(from).filter((n) => !deleted.has(n.ID));
      const start = Number(c.query.get('start'));
      const visible = table.filter((n) => !deleted.has(n.ID));
      return v1({ total: visible.length, unread: visible.length, list: rest.slice(start, start + Number(c.query.get('limit'))) });
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

const shown = () =>
  [...document.querySelectorAll('[data-testid="news-scroll"] .ant-list-item')].map((r) => Number(/Camera (\d+)/.exec(r.textContent ?? '')![1]));

async function scrollToEnd(expectRows: number) {
  const scroller = screen.getByTestId('news-scroll');
  Object.defineProperties(scroller, {
    scrollHeight: { value: 1000, configurable: true },
    clientHeight: { value: 500, configurable: true },
    scrollTop: { value: 500, writable: true, configurable: true },
  });
  fireEvent.scroll(scroller);
  // A generous wait: the machine running the tests may be busy (no figure is asserted).
  await waitFor(() => expect(shown()).toHaveLength(expectRows), { timeout: 20_000 });
}

describe('NewsListPage: load more while messages arrive and go', { timeout: 60_000 }, () => {
  it('shows every message once, none skipped, none repeated', async () => {
    renderConsole(<NewsListPage />);
    expect(await screen.findByText('Camera 50')).toBeInTheDocument();
    expect(shown()).toEqual(Array.from({ length: 20 }, (_, i) => 50 - i));

    // Three messages of the first page deleted in another tab; four new ones at the top, three of
    // them pushed to this console, one missed by its socket (reconnecting).
    for (const id of [49, 45, 40]) deleted.add(id);
    table = [54, 53, 52, 51].map(item).concat(table);
    act(() => {
      for (const id of [51, 52, 53]) ws.listeners.get('news')?.(item(id));
    });
    expect(await screen.findByText('Camera 53')).toBeInTheDocument();

    // The rows held: the pushed lead, the list keeps its 20 rows (down to 34).
    expect(shown()).toEqual([53, 52, 51, ...Array.from({ length: 17 }, (_, i) => 50 - i)]);
    // Then the pages after the last row: 33 … 14, and 13 … 1 (by offset 20 the next page began at 31).
    await scrollToEnd(40);
    await scrollToEnd(53);
    const all = shown();
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(20)).toEqual(Array.from({ length: 33 }, (_, i) => 33 - i));
    expect(api.callsTo('/api/v1/newslist').map((c) => c.query.get('before'))).toEqual([null, '34', '14']);
  });

  it('keeps the rows a page on its way follows when a burst arrives meanwhile', async () => {
    // Pages after a row wait for the test to let them through.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const served = api.fetchMock;
    let waiting = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('before=')) {
        waiting++;
        await gate;
      }
      return served(input, init);
    });
    renderConsole(<NewsListPage />);
    expect(await screen.findByText('Camera 50')).toBeInTheDocument();
    const scroller = screen.getByTestId('news-scroll');
    Object.defineProperties(scroller, { scrollHeight: { value: 1000 }, clientHeight: { value: 500 }, scrollTop: { value: 500, writable: true } });
    fireEvent.scroll(scroller);
    await waitFor(() => expect(waiting).toBe(1));

    // Five new messages pushed while the page after row 31 is on its way.
    table = [55, 54, 53, 52, 51].map(item).concat(table);
    act(() => {
      for (const id of [51, 52, 53, 54, 55]) ws.listeners.get('news')?.(item(id));
    });
    expect(await screen.findByText('Camera 55')).toBeInTheDocument();
    release();
    await waitFor(() => expect(shown()).toHaveLength(45), { timeout: 20_000 });
    // 55 … 11 without a gap (dropping the bottom rows for the pushed ones lost 35 … 31).
    expect(shown()).toEqual(Array.from({ length: 45 }, (_, i) => 55 - i));
  });
});
