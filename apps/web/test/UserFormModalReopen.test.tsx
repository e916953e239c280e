/**
 * The user form (/user/index) is one dialog opened again and again: a save still running (or failed) when it
 * was closed must not leave the next opening with a loading OK button or the previous user's values.
 * In jsdom a button's loading icon never finishes its leave motion (no transitionend), as in a browser
 * whose dialog closed mid-transition: only a new dialog per opening starts without it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RoleRow, UserRow } from '@opencvr/shared';
import UsersPage from '../src/features/users/pages/UsersPage';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

const user = (ID: number, Username: string, extra: Partial<UserRow> = {}): UserRow => ({
  ID,
  Username,
  Name: `${Username} name`,
  NickName: '',
  RoleID: 2,
  RoleName: 'operators',
  Enable: 1,
  MustChangePassword: 0,
  CreateAt: '2024-01-01 00:00:00',
  UpdateAt: '2024-01-01 00:00:00',
  ...extra,
});
const roles: RoleRow[] = [
  { ID: 1, Name: 'admin', Describe: '', Builtin: 1, UserCount: 1, CreateAt: '' },
  { ID: 2, Name: 'operators', Describe: '', Builtin: 0, UserCount: 2, CreateAt: '' },
];

/** Saves held back until the test answers them: true = OK, false = HTTP 500. */
let held: ((ok: boolean) => void)[];

beforeEach(() => {
  held = [];
  captureNotices();
  useSession.getState().login('tok-admin', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
  const rows = [user(1, 'admin', { RoleID: 1, RoleName: 'admin' }), user(7, 'alice'), user(8, 'bob', { Enable: 0 })];
  const api = stubApi({
    '/api/v1/userlist': () => ({ count: rows.length, data: rows }),
    '/api/v1/rolelist': () => ({ count: roles.length, data: roles }),
    'POST /api/v1/updateuser': () => v1({}),
  });
  const answer = api.fetchMock.getMockImplementation()!;
  api.fetchMock.mockImplementation(async (input, init) => {
    if (new URL(String(input), 'http://console.test').pathname !== '/api/v1/updateuser') return answer(input, init);
    const ok = await new Promise<boolean>((release) => held.push(release));
    return ok ? answer(input, init) : new Response(JSON.stringify({ code: 500, msg: 'boom' }), { status: 500 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

const okButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: /确\s*定/ });
const edit = async (username: string) => {
  const row = (await screen.findByText(`${username} name`)).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(within(dialog).getByLabelText('用户名')).toHaveValue(username));
  return dialog;
};
const expectIdle = (dialog: HTMLElement) => {
  expect(okButton(dialog)).not.toHaveClass('ant-btn-loading');
  expect(within(okButton(dialog)).queryByRole('img', { name: 'loading' })).toBeNull();
};

describe('UsersPage: the user form opened again', { timeout: 60_000 }, () => {
  it('closed while the save runs: the next opening is idle and shows the new user', async () => {
    renderConsole(<UsersPage />);
    const first = await edit('alice');
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    await waitFor(() => expect(okButton(first)).toHaveClass('ant-btn-loading'));
    fireEvent.click(within(first).getByRole('button', { name: /取\s*消/ }));

    const second = await edit('bob');
    expect(within(second).getByLabelText('姓名')).toHaveValue('bob name');
    expect(within(second).getByRole('switch')).not.toBeChecked();
    expectIdle(second);
    held[0]!(false);
  });

  it('closed after a failed save: the next opening is idle and shows the new user', async () => {
    renderConsole(<UsersPage />);
    const first = await edit('alice');
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!(false);
    await waitFor(() => expect(okButton(first)).not.toHaveClass('ant-btn-loading'));
    fireEvent.click(within(first).getByRole('button', { name: /取\s*消/ }));

    const second = await edit('bob');
    expect(within(second).getByLabelText('姓名')).toHaveValue('bob name');
    expectIdle(second);
  });
});
