/// <reference types="node" />
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RoleRow, UserRow } from '@opencvr/shared';
import UsersPage from '../src/features/users/pages/UsersPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin, logout, user } from './helpers/dialogs';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

const roles: RoleRow[] = [
  { ID: 1, Name: 'admin', Describe: '', Builtin: 1, UserCount: 1, CreateAt: '' },
  { ID: 2, Name: 'operators', Describe: '', Builtin: 0, UserCount: 1, CreateAt: '' },
];

let rows: UserRow[];
let api: ReturnType<typeof stubApi>;
let notices: string[];

beforeEach(() => {
  rows = [user(1, 'admin', { RoleID: 1, RoleName: 'admin' }), user(7, 'alice')];
  notices = captureNotices();
  loginAdmin();
  api = stubApi({
    '/api/v1/userlist': () => ({ count: rows.length, data: rows }),
    '/api/v1/rolelist': () => ({ count: roles.length, data: roles }),
    'POST /api/v1/adduser': (c) => {
      rows = [...rows, user(9, c.body.username!)];
      return v1({ ID: 9 });
    },
    'POST /api/v1/deleteuser': (c) => {
      rows = rows.filter((r) => r.ID !== Number(c.body.id));
      return v1({});
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

// antd's first render in jsdom compiles its styles synchronously: slow on a busy machine.
describe('UsersPage', { timeout: 60_000 }, () => {
  it('lists the users from userlist (page 1 of 20, with the token)', async () => {
    renderConsole(<UsersPage />);
    expect(await screen.findByText('alice')).toBeInTheDocument();
    expect(screen.getByText('alice name')).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(3); // header + 2 users
    const [call] = api.callsTo('/api/v1/userlist');
    expect(call!.query.get('pageindex')).toBe('1');
    expect(call!.query.get('pagesize')).toBe('20');
    expect(call!.headers.token).toBe('tok-admin');
  });

  it('adds a user with a form-encoded adduser carrying md5 of the password', async () => {
    renderConsole(<UsersPage />);
    await screen.findByText('alice');

    fireEvent.click(screen.getByRole('button', { name: /添加用户/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'bob' } });
    fireEvent.change(within(dialog).getByLabelText('密码'), { target: { value: 'B0b!secret' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByText('operators', { selector: '.ant-select-item-option-content' }));
    const mustChange = within(dialog).getByRole('checkbox', { name: '下次登录时需修改密码' });
    expect(mustChange).toBeChecked();
    fireEvent.click(mustChange);
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));

    await waitFor(() => expect(api.callsTo('/api/v1/adduser', 'POST')).toHaveLength(1));
    const add = api.callsTo('/api/v1/adduser', 'POST')[0]!;
    expect(add.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(add.body).toMatchObject({
      username: 'bob',
      password: md5('B0b!secret'),
      roleid: '2',
      enable: '1',
      mustchange: '0',
    });
    expect(add.body.password).not.toContain('B0b');
    // The list reloads with the new user, and a success notice is shown.
    expect(await screen.findByText('bob')).toBeInTheDocument();
    expect(notices).toContain('success:操作成功');
  });

  it('asks for confirmation before deleting, and deletes only when confirmed', async () => {
    renderConsole(<UsersPage />);
    const row = (await screen.findByText('alice')).closest('tr')!;

    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    const confirm = await screen.findByText('确定删除用户“alice”吗？');
    expect(api.callsTo('/api/v1/deleteuser')).toHaveLength(0);

    // Cancel first: nothing is sent.
    const pop = confirm.closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(pop).getByRole('button', { name: /取\s*消/ }));
    expect(api.callsTo('/api/v1/deleteuser')).toHaveLength(0);

    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    const pop2 = (await screen.findAllByText('确定删除用户“alice”吗？')).at(-1)!.closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(pop2).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/deleteuser', 'POST')).toHaveLength(1));
    const del = api.callsTo('/api/v1/deleteuser', 'POST')[0]!;
    expect(del.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(del.body).toEqual({ id: '7' });
    await waitFor(() => expect(screen.queryByText('alice')).not.toBeInTheDocument());
  });
});
