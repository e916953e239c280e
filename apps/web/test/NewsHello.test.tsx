/**
 * The bell reads its list again when the events socket (re)connects (its `hello`): a message the
 * server pushed while there was no socket (a restart, a network gap, the socket's first seconds) is
 * not sent again, and the count stayed short until a reload.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import type { NewsItem, NewsList, OtherConfig } from '@opencvr/shared';
import { NewsBell } from '../src/features/news/components/NewsBell';
import { clearSession } from '../src/lib/session';
import { useConfig } from '../src/lib/stores/config';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

const ws = vi.hoisted(() => ({ listeners: new Map<string, (payload: unknown) => void>() }));
vi.mock('../src/lib/ws', () => ({
  useWsTopic: (topic: string, fn: (payload: unknown) => void) => {
    ws.listeners.set(topic, fn);
  },
}));
const hello = () => act(() => ws.listeners.get('hello')?.({ time: '2026-11-29T19:00:00.000Z' }));

const item = (ID: number): NewsItem => ({
  ID,
  Status: 'ON',
  DeviceID: `dev${ID}`,
  ChannelID: '1',
  ChannelName: `Camera ${ID}`,
  NewsTime: '2026-11-29 19:00:00',
  sign: 0,
});
const page = (ids: number[]): NewsList => ({ total: ids.length, unread: ids.length, list: ids.map(item) });

/** The badge's number (antd draws it with a title), 0 when there is none. */
function badgeCount(): number {
  const el = document.querySelector('.ant-badge-count');
  return el ? Number(el.getAttribute('title')) : 0;
}

/** The server's messages now; answers of newslist held until `release` when `hold` is set. */
let messages: number[];
let held: (() => void)[];
let hold: boolean;
let api: ReturnType<typeof stubApi>;

beforeEach(() => {
  ws.listeners.clear();
  captureNotices();
  clearSession();
  loginAdmin();
  useConfig.getState().setOtherConfig({ Initial: false, Title: 'T', Version: '3.7.3', RecordVersion: true } as unknown as OtherConfig);
  messages = [1];
  held = [];
  hold = false;
  api = stubApi({
    '/api/v1/newslist': () => {
      const answer = v1(page([...messages].reverse()));
      return hold ? new Promise((resolve) => held.push(() => resolve(answer))) : answer;
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('NewsBell and the events socket connecting again', { timeout: 60_000 }, () => {
  it('reads the list again on hello: a message that came while there was no socket is counted', async () => {
    renderConsole(<NewsBell />);
    await waitFor(() => expect(badgeCount()).toBe(1));
    // A camera came online while the socket was down: the server has it, nothing was pushed.
    messages.push(2);
    hello();
    await waitFor(() => expect(badgeCount()).toBe(2));
    expect(api.callsTo('/api/v1/newslist')).toHaveLength(2);
  });

  it('a hello while the first read is on its way: read again once it is back', async () => {
    hold = true;
    renderConsole(<NewsBell />);
    await waitFor(() => expect(held).toHaveLength(1));
    // The server answered from before the socket was there; the socket connects, then a message.
    hello();
    messages.push(2);
    hold = false;
    await act(async () => held[0]!());
    await waitFor(() => expect(api.callsTo('/api/v1/newslist')).toHaveLength(2));
    await waitFor(() => expect(badgeCount()).toBe(2));
  });

  it('a pushed message that the read already brought is counted once', async () => {
    renderConsole(<NewsBell />);
    await waitFor(() => expect(badgeCount()).toBe(1));
    // The read on hello brings message 2, and then its push arrives (the socket had it on the way).
    messages.push(2);
    hello();
    await waitFor(() => expect(badgeCount()).toBe(2));
    act(() => ws.listeners.get('news')?.(item(2)));
    // a new one pushed with it is counted
    act(() => ws.listeners.get('news')?.(item(3)));
    await waitFor(() => expect(badgeCount()).toBe(3));
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(badgeCount()).toBe(3);
  });

  it('no read on hello while the bell waits (a forced dialog pending: the server answers 426)', async () => {
    useConfig.getState().setOtherConfig({ Initial: true, Title: 'T', Version: '3.7.3', RecordVersion: true } as unknown as OtherConfig);
    renderConsole(<NewsBell />);
    hello();
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(api.callsTo('/api/v1/newslist')).toHaveLength(0);
  });
});
