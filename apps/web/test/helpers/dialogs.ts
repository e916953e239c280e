/**
 * Shared pieces of the console's dialog tests (a form opened again, a late save of an earlier opening):
 * an admin session, role and user rows, requests held until the test releases them, and antd dialog queries.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { RoleRow, UserRow } from '@opencvr/shared';
import { useSession } from '../../src/lib/stores/session';
import type { stubApi } from './console';

/** Logs the built-in admin in (user 1, role 1), as the user and role pages need. */
export function loginAdmin() {
  useSession.getState().login('tok-admin', {
    id: 1,
    name: 'admin',
    nick_name: '',
    role: 'admin',
    role_name: 'admin',
    role_id: 1,
    Status: 1,
    MustChangePassword: false,
  });
}

/** Ends the session `loginAdmin` started (for afterEach). */
export const logout = () => useSession.getState().clear();

/** A rolelist row; its description is "<name> describe", by which the tests find its table row. */
export const role = (ID: number, Name: string, Builtin = 0): RoleRow => ({
  ID,
  Name,
  Describe: `${Name} describe`,
  Builtin,
  UserCount: 0,
  CreateAt: '2024-01-01 00:00:00',
});

/** A userlist row of an enabled operator named "<username> name"; `extra` overrides any field. */
export const user = (ID: number, Username: string, extra: Partial<UserRow> = {}): UserRow => ({
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

/** The roles the user form offers: the built-in admin and operators (role 2, as `user` rows have). */
export const userRoles: RoleRow[] = [
  { ID: 1, Name: 'admin', Describe: '', Builtin: 1, UserCount: 1, CreateAt: '' },
  { ID: 2, Name: 'operators', Describe: '', Builtin: 0, UserCount: 2, CreateAt: '' },
];

/** Answers a held request: as the stub would (no argument or true), or with HTTP 500 (false). */
export type Release = (ok?: boolean) => void;

/**
 * Holds back the requests `hold` picks (a path, several paths, or a test on the URL and method) until the
 * test releases them; the others are answered at once. The list returned fills with one release a request.
 */
export function holdRequests(
  api: ReturnType<typeof stubApi>,
  hold: string | string[] | ((url: URL, method: string) => boolean),
): Release[] {
  const held: Release[] = [];
  const picks =
    typeof hold === 'function' ? hold : (url: URL) => (Array.isArray(hold) ? hold : [hold]).includes(url.pathname);
  const answer = api.fetchMock.getMockImplementation()!;
  api.fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://console.test');
    if (!picks(url, (init?.method ?? 'GET').toUpperCase())) return answer(input, init);
    const ok = await new Promise<boolean>((release) => held.push((answered = true) => release(answered)));
    return ok ? answer(input, init) : new Response(JSON.stringify({ code: 500, msg: 'boom' }), { status: 500 });
  });
  return held;
}

/** The dialog's OK (确定) button. */
export const okButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: /确\s*定/ });

/** Closes the dialog with its Cancel (取消) button. */
export const cancel = (dialog: HTMLElement) =>
  fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));

/** Which dialogs count: all in the document (`hidden: true`), or only the accessible ones, as in getByRole. */
export interface DialogQuery {
  hidden?: boolean;
}

/**
 * The dialog shown: the one not in its leave motion (a closed one keeps it in jsdom, no transitionend).
 * `{ hidden: false }` leaves out dialogs hidden from the accessibility tree (another dialog kept mounted).
 */
export const shownDialog = ({ hidden = true }: DialogQuery = {}) => {
  const dialogs = hidden
    ? [...document.querySelectorAll<HTMLElement>('[role="dialog"]')]
    : screen.queryAllByRole('dialog');
  const shown = dialogs.filter((d) => !d.classList.contains('ant-zoom-leave'));
  expect(shown).toHaveLength(1);
  return shown[0]!;
};

/** Waits for the one shown dialog to pass `check` (e.g. to show the row opened), and returns it. */
export const shownDialogWhen = (check: (dialog: HTMLElement) => void, query: DialogQuery = {}) =>
  waitFor(() => {
    const dialog = shownDialog(query);
    check(dialog);
    return dialog;
  });

/** The dialog's submit button (`button`, OK by default) is not loading, nor shows a loading icon. */
export const expectIdle = (dialog: HTMLElement, button: (dialog: HTMLElement) => HTMLElement = okButton) => {
  expect(button(dialog)).not.toHaveClass('ant-btn-loading');
  expect(within(button(dialog)).queryByRole('img', { name: 'loading' })).toBeNull();
};
