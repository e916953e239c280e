/**
 * Spec 2 "a list modal shows each message … with a read/delete button" and spec 4 "News item:
 * unread to read, then deletable", in the bell's modal: an unread row offers 已读, which marks it read
 * on the server and lowers the count; a read row offers 删除, which deletes it; 全部已读 marks all. A
 * call the server refuses changes nothing. Scrolling to the bottom asks for the next page.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { NewsItem, OtherConfig } from '@opencvr/shared';
import { NewsBell } from '../src/features/news/components/NewsBell';
import { clearSession } from '../src/lib/session';
import { useConfig } from '../src/lib/stores/config';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => {} }));

const item = (ID: number, sign: 0 | 1 = 0): NewsItem => ({
  ID,
  Status: ID % 2 ? 'ON' : 'OFF',
  DeviceID: `dev${ID}`,
  ChannelID: `ch${ID}`,
  ChannelName: `Camera ${ID}`,
  NewsTime: '2024-05-01 10:00:00',
  sign,
});

/** The server's messages, newest first; read and delete change them as the server would. */
let table: NewsItem[];
let refuse = false;
let api: ReturnType<typeof stubApi>;
let notices: string[];
const failed = { EasyDarwin: { Header: { ErrorNum: '500', ErrorString: '数据库忙' }, Body: {} } };

beforeEach(() => {
  notices = captureNotices();
  clearSession();
  loginAdmin();
  useConfig.getState().setOtherConfig({ Initial: false, Title: 'T', Version: '3.7.3', RecordVersion: true, Copyright: '', MapKey: '' } as unknown as OtherConfig);
  refuse = false;
  table = [item(3), item(2), item(1, 1)];
  api = stubApi({
    '/api/v1/newslist': (c) => {
      const before = c.query.get('before');
      const from = before ? table.findIndex((n) => n.ID === Number(before)) + 1 : 0;
      const limit = Number(c.query.get('limit'));
      return v1({ total: table.length, unread: table.filter((n) => n.sign === 0).length, list: table.slice(from, from + limit) });
    },
    'POST /api/v1/news/read': (c) => {
      if (refuse) return failed;
      table = table.map((n) => (!c.body.id || n.ID === Number(c.body.id) ? { ...n, sign: 1 } : n));
      return v1({});
    },
    'POST /api/v1/news/delete': (c) => {
      if (refuse) return failed;
      table = table.filter((n) => n.ID !== Number(c.body.id));
      return v1({});
    },
  });
  // A refused call answers HTTP 500 with the envelope, as the server does (the stub answers 200).
  const answer = api.fetchMock.getMockImplementation()!;
  api.fetchMock.mockImplementation(async (input, init) => {
    const res = await answer(input, init);
    return refuse && /\/api\/v1\/news\/(read|delete)/.test(String(input)) ? new Response(JSON.stringify(failed), { status: 500 }) : res;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

const badgeCount = () => Number(document.querySelector('.ant-badge-count')?.getAttribute('title') ?? 0);
const row = (name: string) => screen.getByText(name).closest('.ant-list-item') as HTMLElement;
/** antd spaces out a two-character Chinese label ("已 读"). */
const button = (scope: HTMLElement, label: string) => within(scope).getByRole('button', { name: new RegExp(`^${[...label].join('\\s*')}$`) });

async function openModal(unread: number) {
  renderConsole(<NewsBell />);
  await waitFor(() => expect(badgeCount()).toBe(unread));
  fireEvent.click(screen.getByRole('button', { name: '消息通知' }));
  await screen.findByText('Camera 3');
  return screen.getByRole('dialog');
}

describe('news modal buttons', { timeout: 60_000 }, () => {
  it('已读 marks a message read on the server, lowers the count and turns into 删除', async () => {
    await openModal(2);
    expect(within(row('Camera 1')).queryByRole('button', { name: /已\s*读/ })).toBeNull();
    fireEvent.click(button(row('Camera 3'), '已读'));
    await waitFor(() => expect(badgeCount()).toBe(1));
    expect(api.callsTo('/api/v1/news/read')[0]!.body).toEqual({ id: '3' });
    expect(button(row('Camera 3'), '删除')).toBeInTheDocument();
    expect(button(row('Camera 2'), '已读')).toBeInTheDocument();
  });

  it('删除 deletes a read message on the server and takes its row away', async () => {
    await openModal(2);
    fireEvent.click(button(row('Camera 1'), '删除'));
    await waitFor(() => expect(screen.queryByText('Camera 1')).toBeNull());
    expect(api.callsTo('/api/v1/news/delete')[0]!.body).toEqual({ id: '1' });
    expect(table.map((n) => n.ID)).toEqual([3, 2]);
    expect(badgeCount()).toBe(2);
  });

  it('全部已读 marks every message read and is disabled after', async () => {
    const dialog = await openModal(2);
    const readAll = within(dialog).getByRole('button', { name: '全部已读' });
    fireEvent.click(readAll);
    await waitFor(() => expect(badgeCount()).toBe(0));
    expect(api.callsTo('/api/v1/news/read')[0]!.body).toEqual({});
    expect(readAll).toBeDisabled();
    for (const name of ['Camera 3', 'Camera 2', 'Camera 1']) expect(button(row(name), '删除')).toBeInTheDocument();
  });

  it('a read or delete the server refuses changes nothing on the page, and says so', async () => {
    await openModal(2);
    refuse = true;
    fireEvent.click(button(row('Camera 3'), '已读'));
    await waitFor(() => expect(api.callsTo('/api/v1/news/read')).toHaveLength(1));
    fireEvent.click(button(row('Camera 1'), '删除'));
    await waitFor(() => expect(api.callsTo('/api/v1/news/delete')).toHaveLength(1));
    await waitFor(() => expect(notices.filter((n) => n.includes('数据库忙'))).not.toHaveLength(0));
    await act(async () => {});
    expect(badgeCount()).toBe(2);
    expect(button(row('Camera 3'), '已读')).toBeInTheDocument();
    expect(screen.getByText('Camera 1')).toBeInTheDocument();
  });

  it('scrolling to the bottom asks for the page after the last row', async () => {
    table = Array.from({ length: 25 }, (_, i) => item(25 - i));
    renderConsole(<NewsBell />);
    await waitFor(() => expect(badgeCount()).toBe(25));
    fireEvent.click(screen.getByRole('button', { name: '消息通知' }));
    await screen.findByText('Camera 25');
    const scroller = within(screen.getByRole('dialog')).getByTestId('news-scroll');
    Object.defineProperties(scroller, {
      scrollHeight: { value: 1000, configurable: true },
      clientHeight: { value: 420, configurable: true },
      scrollTop: { value: 580, writable: true, configurable: true },
    });
    fireEvent.scroll(scroller);
    await screen.findByText('Camera 1');
    const pages = api.callsTo('/api/v1/newslist');
    expect(pages.at(-1)!.query.get('before')).toBe('6');
    expect(within(scroller).getAllByText(/^Camera \d+$/)).toHaveLength(25);
  });
});
