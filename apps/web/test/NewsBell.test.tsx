import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { NewsItem, OtherConfig } from '@opencvr/shared';
import { NewsBell } from '../src/features/news/components/NewsBell';
import { clearSession } from '../src/lib/session';
import { useConfig } from '../src/lib/stores/config';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

// The events socket, stubbed: the test pushes messages to whoever listens to a topic.
const ws = vi.hoisted(() => ({ listeners: new Map<string, (payload: unknown) => void>() }));
vi.mock('../src/lib/ws', () => ({
  useWsTopic: (topic: string, fn: (payload: unknown) => void) => {
    ws.listeners.set(topic, fn);
  },
}));
const push = (topic: string, payload: unknown) => act(() => ws.listeners.get(topic)?.(payload));

const item = (ID: number, Status: 'ON' | 'OFF', sign: 0 | 1 = 0): NewsItem => ({
  ID,
  Status,
  DeviceID: `dev${ID}`,
  ChannelID: `ch${ID}`,
  ChannelName: `Camera ${ID}`,
  NewsTime: '2024-05-01 10:00:00',
  sign,
});
const other = (Initial: boolean) =>
  ({ Initial, Title: 'T', Version: '3.7.3', RecordVersion: true, Copyright: '', MapKey: '' }) as unknown as OtherConfig;

let api: ReturnType<typeof stubApi>;

/** The badge's number (antd draws it with a title), 0 when there is none. */
function badgeCount(): number {
  const el = document.querySelector('.ant-badge-count');
  return el ? Number(el.getAttribute('title')) : 0;
}

beforeEach(() => {
  ws.listeners.clear();
  captureNotices();
  clearSession();
  loginAdmin();
  useConfig.getState().setOtherConfig(other(false));
  api = stubApi({
    '/api/v1/newslist': () => v1({ total: 3, unread: 2, list: [item(3, 'ON'), item(2, 'OFF'), item(1, 'ON', 1)] }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('NewsBell', { timeout: 60_000 }, () => {
  it('shows the unread count from newslist', async () => {
    renderConsole(<NewsBell />);
    await waitFor(() => expect(badgeCount()).toBe(2));
    const call = api.callsTo('/api/v1/newslist')[0]!;
    expect(call.query.get('start')).toBe('0');
    expect(call.query.get('limit')).toBe('20');
  });

  it('counts a message pushed on the events socket, and lists it first', async () => {
    renderConsole(<NewsBell />);
    await waitFor(() => expect(badgeCount()).toBe(2));
    push('news', item(4, 'ON'));
    // Pushed messages are taken in batches (a burst is one render): the count follows shortly.
    await waitFor(() => expect(badgeCount()).toBe(3));
    // A message already read adds to the list, not to the unread count.
    push('news', item(5, 'OFF', 1));

    fireEvent.click(screen.getByRole('button', { name: '消息通知' }));
    await screen.findByText('Camera 5');
    expect(badgeCount()).toBe(3);
    const first = await screen.findByText('Camera 4');
    expect(first.closest('.ant-list-item')).toHaveTextContent('上线');
    expect(screen.getByText('Camera 2').closest('.ant-list-item')).toHaveTextContent('离线');
    const names = [...document.querySelectorAll('.ant-list-item')].map((li) => li.textContent ?? '');
    expect(names[0]).toContain('Camera 5');
    expect(names[1]).toContain('Camera 4');
    expect(api.callsTo('/api/v1/newslist')).toHaveLength(1);
  });

  it('does not ask for the list while the initialisation dialog is pending, then does', async () => {
    useConfig.getState().setOtherConfig(other(true));
    renderConsole(<NewsBell />);
    // Let effects and any request run before looking.
    await act(async () => {});
    expect(api.callsTo('/api/v1/newslist')).toHaveLength(0);

    act(() => useConfig.getState().setInitial(false));
    await waitFor(() => expect(badgeCount()).toBe(2));
    expect(api.callsTo('/api/v1/newslist')).toHaveLength(1);
  });
});
