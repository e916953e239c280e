/**
 * A late save of an earlier opening of the user form (/user/index) must not act on the next opening: the first
 * user's save is held back, its dialog closed, the form opened for another user and edited, then the first
 * save answers. The list is refreshed (the save happened), but the second dialog stays open with its values.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import UsersPage from '../src/features/users/pages/UsersPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { cancel, holdRequests, loginAdmin, logout, okButton, shownDialog, shownDialogWhen, user, userRoles, type Release } from './helpers/dialogs';

/** Saves held back until the test answers them. */
let held: Release[];
let api: ReturnType<typeof stubApi>;
let notices: string[];

beforeEach(() => {
  notices = captureNotices();
  loginAdmin();
  const rows = [user(1, 'admin', { RoleID: 1, RoleName: 'admin' }), user(7, 'alice'), user(8, 'bob')];
  api = stubApi({
    '/api/v1/userlist': () => ({ count: rows.length, data: rows }),
    '/api/v1/rolelist': () => ({ count: userRoles.length, data: userRoles }),
    'POST /api/v1/updateuser': () => v1({}),
  });
  held = holdRequests(api, '/api/v1/updateuser');
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

const edit = async (username: string) => {
  const row = (await screen.findByText(`${username} name`)).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
  return shownDialogWhen((dialog) => expect(within(dialog).getByLabelText('用户名')).toHaveValue(username));
};

describe('UsersPage: a late save of an earlier opening', { timeout: 60_000 }, () => {
  it('refreshes the list but leaves the next opening open with its values', async () => {
    renderConsole(<UsersPage />);
    const first = await edit('alice');
    fireEvent.change(within(first).getByLabelText('姓名'), { target: { value: 'Alice A.' } });
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    cancel(first);

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
