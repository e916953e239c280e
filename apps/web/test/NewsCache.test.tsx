/**
 * Spec 3 "News item (stored locally as newslist)": the bell keeps the newest page and the counts in
 * localStorage, shows them at once on the next load (before the server answers, and when it does not),
 * lets the server's answer replace them, and never shows one user's copy to another or a broken copy.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { STORAGE_KEYS, type NewsItem, type OtherConfig } from '@opencvr/shared';
import { NewsBell } from '../src/features/news/components/NewsBell';
import { clearSession } from '../src/lib/session';
import { useConfig } from '../src/lib/stores/config';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => {} }));

const item = (ID: number, sign: 0 | 1 = 0): NewsItem => ({
  ID,
  Status: 'ON',
  DeviceID: `dev${ID}`,
  ChannelID: `ch${ID}`,
  ChannelName: `Camera ${ID}`,
  NewsTime: '2024-05-01 10:00:00',
  sign,
});

let page: { total: number; unread: number; list: NewsItem[] };
/** Held answers of newslist: the test lets them through (or never). */
let hold = false;
const held: (() => void)[] = [];

beforeEach(() => {
  captureNotices();
  localStorage.clear();
  clearSession();
  loginAdmin();
  useConfig.getState().setOtherConfig({ Initial: false, Title: 'T', Version: '3.7.3', RecordVersion: true, Copyright: '', MapKey: '' } as unknown as OtherConfig);
  hold = false;
  held.length = 0;
  page = { total: 3, unread: 2, list: [item(3), item(2), item(1, 1)] };
  stubApi({
    '/api/v1/newslist': () => {
      const body = v1({ ...page, list: [...page.list] });
      return hold ? new Promise((resolve) => held.push(() => resolve(body))) : body;
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
  localStorage.clear();
});

const badgeCount = () => Number(document.querySelector('.ant-badge-count')?.getAttribute('title') ?? 0);
const stored = () => JSON.parse(localStorage.getItem(STORAGE_KEYS.newslist) ?? 'null') as { user: number; total: number; unread: number; items: NewsItem[] } | null;

/** A first visit that leaves the copy, then a fresh mount as after a reload. */
async function visitThenReload() {
  renderConsole(<NewsBell />);
  await waitFor(() => expect(stored()?.items).toHaveLength(3));
  cleanup();
}

describe('newslist kept locally', { timeout: 60_000 }, () => {
  it('keeps the newest page and the counts under the user', async () => {
    renderConsole(<NewsBell />);
    await waitFor(() => expect(badgeCount()).toBe(2));
    await waitFor(() => expect(stored()).toEqual({ user: 1, total: 3, unread: 2, items: page.list }));
  });

  it('the next load shows the kept count and rows before the server answers, then the server’s', async () => {
    await visitThenReload();
    page = { total: 4, unread: 3, list: [item(4), item(3), item(2), item(1, 1)] };
    hold = true;
    renderConsole(<NewsBell />);
    expect(badgeCount()).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: '消息通知' }));
    expect(await screen.findByText('Camera 3')).toBeInTheDocument();
    expect(screen.queryByText('Camera 4')).toBeNull();

    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!();
    await waitFor(() => expect(badgeCount()).toBe(3));
    expect(await screen.findByText('Camera 4')).toBeInTheDocument();
    await waitFor(() => expect(stored()?.items.map((n) => n.ID)).toEqual([4, 3, 2, 1]));
  });

  it('another user of the browser does not see the copy', async () => {
    await visitThenReload();
    useSession.getState().login('tok-2', { id: 2, name: 'op', nick_name: '', role: 'operators', role_name: 'operators', role_id: 2, Status: 1, MustChangePassword: false });
    hold = true;
    renderConsole(<NewsBell />);
    expect(badgeCount()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: '消息通知' }));
    await screen.findByRole('dialog');
    expect(screen.queryByText('Camera 3')).toBeNull();
  });

  it.each([
    ['not JSON', '{oops'],
    ['a row of another shape', JSON.stringify({ user: 1, total: 1, unread: 1, items: [{ ID: 'x' }] })],
    ['negative counts', JSON.stringify({ user: 1, total: -1, unread: 0, items: [] })],
  ])('a broken copy (%s) is ignored', async (_what, raw) => {
    localStorage.setItem(STORAGE_KEYS.newslist, raw);
    hold = true;
    renderConsole(<NewsBell />);
    expect(badgeCount()).toBe(0);
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!();
    await waitFor(() => expect(badgeCount()).toBe(2));
  });
});
