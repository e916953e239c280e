/**
 * The role channels dialog (/user/role, 通道) is one dialog opened again and again: a save still running (or
 * failed) when it was closed must not leave the next opening with a loading save button, and the next opening
 * shows its own role's grants, not what the last opening loaded or edited.
 * In jsdom a button's loading icon never finishes its leave motion (no transitionend), as in a browser
 * whose dialog closed mid-transition: only a new dialog per opening starts without it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RoleRow } from '@opencvr/shared';
import RolesPage from '../src/features/users/pages/RolesPage';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

const role = (ID: number, Name: string, Builtin = 0): RoleRow => ({ ID, Name, Describe: `${Name} describe`, Builtin, UserCount: 0, CreateAt: '2024-01-01 00:00:00' });
const grants: Record<string, { DeviceID: string; ChannelID: string; Name: string }[]> = {
  '4': [{ DeviceID: 'dev1', ChannelID: 'ch1', Name: 'Gate camera' }],
  '6': [{ DeviceID: 'dev2', ChannelID: 'ch2', Name: 'Lobby camera' }],
};

/** Requests held back until the test answers them: true = OK, false = HTTP 500. */
let held: { key: string; release: (ok: boolean) => void }[];
/** "METHOD path?roleid" keys to hold. */
let hold: Set<string>;

beforeEach(() => {
  held = [];
  hold = new Set();
  captureNotices();
  useSession.getState().login('tok-admin', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
  const rows = [role(1, 'admin', 1), role(4, 'operators'), role(6, 'viewers')];
  const api = stubApi({
    '/api/v1/rolelist': () => ({ count: rows.length, data: rows }),
    '/api/v1/alllabel': () => v1({ Labels: [], Count: 0 }),
    'GET /api/v1/role/channels': (c) => v1({ Channels: grants[c.query.get('roleid')!] ?? [], Labels: [] }),
    'POST /api/v1/role/channels': () => v1({}),
  });
  const answer = api.fetchMock.getMockImplementation()!;
  api.fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://console.test');
    const key = `${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    if (!hold.has(key) && !hold.has(`${key}?${url.searchParams.get('roleid')}`)) return answer(input, init);
    const ok = await new Promise<boolean>((release) => held.push({ key, release }));
    return ok ? answer(input, init) : new Response(JSON.stringify({ code: 500, msg: 'boom' }), { status: 500 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

const saveButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: /保\s*存/ });
const open = async (name: string) => {
  const row = (await screen.findByText(`${name} describe`)).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: /通\s*道/ }));
  // Every antd dialog in jsdom is labelled by the same test id: found by its title text instead.
  return (await screen.findByText(`角色通道：${name}`)).closest<HTMLElement>('[role="dialog"]')!;
};
const close = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
const expectIdle = (dialog: HTMLElement) => {
  expect(saveButton(dialog)).not.toHaveClass('ant-btn-loading');
  expect(within(saveButton(dialog)).queryByRole('img', { name: 'loading' })).toBeNull();
};

describe('RolesPage: the role channels dialog opened again', { timeout: 60_000 }, () => {
  it('closed while the save runs: the next opening is idle and shows its own role', async () => {
    hold.add('POST /api/v1/role/channels');
    renderConsole(<RolesPage />);
    const first = await open('operators');
    expect(await within(first).findByText('Gate camera')).toBeInTheDocument();
    fireEvent.click(saveButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    await waitFor(() => expect(saveButton(first)).toHaveClass('ant-btn-loading'));
    close(first);

    const second = await open('viewers');
    expect(await within(second).findByText('Lobby camera')).toBeInTheDocument();
    expect(within(second).queryByText('Gate camera')).toBeNull();
    expectIdle(second);
    held[0]!.release(false);
  });

  it('closed after a failed save: the next opening is idle', async () => {
    hold.add('POST /api/v1/role/channels');
    renderConsole(<RolesPage />);
    const first = await open('operators');
    expect(await within(first).findByText('Gate camera')).toBeInTheDocument();
    fireEvent.click(saveButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!.release(false);
    await waitFor(() => expect(saveButton(first)).not.toHaveClass('ant-btn-loading'));
    close(first);

    const second = await open('viewers');
    expect(await within(second).findByText('Lobby camera')).toBeInTheDocument();
    expectIdle(second);
  });

  it("does not show the last role's channels while the next role's grants load", async () => {
    hold.add('GET /api/v1/role/channels?6');
    renderConsole(<RolesPage />);
    const first = await open('operators');
    expect(await within(first).findByText('Gate camera')).toBeInTheDocument();
    close(first);

    const second = await open('viewers');
    await waitFor(() => expect(held).toHaveLength(1));
    expect(within(second).queryByText('Gate camera')).toBeNull();
    held[0]!.release(true);
    expect(await within(second).findByText('Lobby camera')).toBeInTheDocument();
    expect(within(second).queryByText('Gate camera')).toBeNull();
  });

  it('drops the edits of an opening closed without saving', async () => {
    renderConsole(<RolesPage />);
    const first = await open('operators');
    const item = (await within(first).findByText('Gate camera')).closest('li')!;
    fireEvent.click(within(item).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(within(first).queryByText('Gate camera')).toBeNull());
    close(first);

    const again = await open('operators');
    expect(await within(again).findByText('Gate camera')).toBeInTheDocument();
  });
});
