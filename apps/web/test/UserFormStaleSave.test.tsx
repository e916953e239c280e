/**
 * A late save of an earlier opening of the user form (/user/index) must not act on the next opening: the first
 * user's save is held back, its dialog closed, the form opened for another user and edited, then the first
 * save answers. The list is refreshed (the save happened), but the second dialog stays open with its values.
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

/** Saves held back until the test answers them. */
let held: (() => void)[];
let api: ReturnType<typeof stubApi>;
let notices: string[];

beforeEach(() => {
  held = [];
  notices = captureNotices();
  useSession.getState().login('tok-admin', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
  const rows = [user(1, 'admin', { RoleID: 1, RoleName: 'admin' }), user(7, 'alice'), user(8, 'bob')];
  api = stubApi({
    '/api/v1/userlist': () => ({ count: rows.length, data: rows }),
    '/api/v1/rolelist': () => ({ count: roles.length, data: roles }),
    'POST /api/v1/updateuser': () => v1({}),
  });
  const answer = api.fetchMock.getMockImplementation()!;
  api.fetchMock.mockImplementation(async (input, init) => {
    if (new URL(String(input), 'http://console.test').pathname !== '/api/v1/updateuser') return answer(input, init);
    await new Promise<void>((release) => held.push(release));
    return answer(input, init);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

const okButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: /确\s*定/ });
/** The dialog shown: the one not in its leave motion (a closed one keeps it in jsdom, no transitionend). */
const shownDialog = () => {
  const shown = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].filter((d) => !d.classList.contains('ant-zoom-leave'));
  expect(shown).toHaveLength(1);
  return shown[0]!;
};
const edit = async (username: string) => {
  const row = (await screen.findByText(`${username} name`)).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
  return waitFor(() => {
    const dialog = shownDialog();
    expect(within(dialog).getByLabelText('用户名')).toHaveValue(username);
    return dialog;
  });
};

describe('UsersPage: a late save of an earlier opening', { timeout: 60_000 }, () => {
  it('refreshes the list but leaves the next opening open with its values', async () => {
    renderConsole(<UsersPage />);
    const first = await edit('alice');
    fireEvent.change(within(first).getByLabelText('姓名'), { target: { value: 'Alice A.' } });
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    fireEvent.click(within(first).getByRole('button', { name: /取\s*消/ }));

    const second = await edit('bob');
    fireEvent.change(within(second).getByLabelText('昵称'), { target: { value: 'Bobby' } });
    const listed = api.callsTo('/api/v1/userlist').length;
    held[0]!();
    await waitFor(() => expect(api.callsTo('/api/v1/userlist').length).toBeGreaterThan(listed));
    await waitFor(() => expect(notices).toContain('success:修改成功!'));
    // The first save's answer neither closed the second dialog nor changed its values.
    expect(second).not.toHaveClass('ant-zoom-leave');
    expect(shownDialog()).toBe(second);
    expect(within(second).getByLabelText('用户名')).toHaveValue('bob');
    expect(within(second).getByLabelText('姓名')).toHaveValue('bob name');
    expect(within(second).getByLabelText('昵称')).toHaveValue('Bobby');

    // And it still saves its own user, then closes.
    fireEvent.click(okButton(second));
    await waitFor(() => expect(held).toHaveLength(2));
    held[1]!();
    await waitFor(() => expect(second).toHaveClass('ant-zoom-leave'));
    expect(api.callsTo('/api/v1/updateuser', 'POST').map((c) => c.body)).toMatchObject([
      { id: '7', name: 'Alice A.' },
      { id: '8', name: 'bob name', nick_name: 'Bobby' },
    ]);
  });
});
