/**
 * /news/list while a camera server is lost: 1,500 offline messages arrive on the events socket in
 * a burst. They are counted, the newest lead the list, and the list keeps the rows it held (the
 * rest by scrolling), instead of rendering once per message a list that grew by every message.
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
  NewsTime: '2026-11-27 10:00:00',
  sign: 0,
});
/** The server's log: 20 older messages, then the burst (newest first). */
let log: NewsItem[] = Array.from({ length: 20 }, (_, i) => item(20 - i));

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  captureNotices();
  loginAdmin();
  log = Array.from({ length: 20 }, (_, i) => item(20 - i));
  api = stubApi({
    '/api/v1/newslist': (c) => {
      // As the server: from the top, or after the message `before`.
      const before = c.query.get('before');
      const from = before ? log.findIndex((n) => n.ID === Number(before)) + 1 : 0;
      const start = from + Number(c.query.get('start'));
      return v1({ total: log.length, unread: log.length, list: log.slice(start, start + Number(c.query.get('limit'))) });
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

const rows = () => document.querySelectorAll('[data-testid="news-scroll"] .ant-list-item');

describe('NewsListPage: a burst of 1,500 messages', { timeout: 60_000 }, () => {
  it('keeps the rows it held, newest first, and pages on to the rest', async () => {
    renderConsole(<NewsListPage />);
    expect(await screen.findByText('Camera 20')).toBeInTheDocument();
    expect(rows()).toHaveLength(20);
    const burst = Array.from({ length: 1500 }, (_, i) => item(21 + i));
    log = [...burst].reverse().concat(log);
    act(() => {
      for (const n of burst) ws.listeners.get('news')?.(n);
    });
    expect(await screen.findByText('Camera 1520')).toBeInTheDocument();
    expect(rows()).toHaveLength(20);
    expect(screen.queryByText('Camera 20')).not.toBeInTheDocument();
    // Scrolling to the end reads the next page of the log, after the rows shown.
    const scroller = screen.getByTestId('news-scroll');
    Object.defineProperties(scroller, { scrollHeight: { value: 1000 }, clientHeight: { value: 500 }, scrollTop: { value: 500, writable: true } });
    fireEvent.scroll(scroller);
    await waitFor(() => expect(rows()).toHaveLength(40));
    expect(api.callsTo('/api/v1/newslist').at(-1)!.query.get('before')).toBe('1501');
    expect(screen.getByText('Camera 1481')).toBeInTheDocument();
  });
});
