/**
 * The user form (/user/index) is one dialog opened again and again: a save still running (or failed) when it
 * was closed must not leave the next opening with a loading OK button or the previous user's values.
 * In jsdom a button's loading icon never finishes its leave motion (no transitionend), as in a browser
 * whose dialog closed mid-transition: only a new dialog per opening starts without it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import UsersPage from '../src/features/users/pages/UsersPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { cancel, expectIdle, holdRequests, loginAdmin, logout, okButton, user, userRoles, type Release } from './helpers/dialogs';

/** Saves held back until the test answers them: true = OK, false = HTTP 500. */
let held: Release[];

beforeEach(() => {
  captureNotices();
  loginAdmin();
  const rows = [user(1, 'admin', { RoleID: 1, RoleName: 'admin' }), user(7, 'alice'), user(8, 'bob', { Enable: 0 })];
  const api = stubApi({
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
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(within(dialog).getByLabelText('用户名')).toHaveValue(username));
  return dialog;
};

describe('UsersPage: the user form opened again', { timeout: 60_000 }, () => {
  it('closed while the save runs: the next opening is idle and shows the new user', async () => {
    renderConsole(<UsersPage />);
    const first = await edit('alice');
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    await waitFor(() => expect(okButton(first)).toHaveClass('ant-btn-loading'));
    cancel(first);

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
    cancel(first);

    const second = await edit('bob');
    expect(within(second).getByLabelText('姓名')).toHaveValue('bob name');
    expectIdle(second);
  });
});
