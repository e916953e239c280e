import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RoleRow } from '@opencvr/shared';
import RolesPage from '../src/features/users/pages/RolesPage';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

const role = (ID: number, Name: string, extra: Partial<RoleRow> = {}): RoleRow => ({
  ID,
  Name,
  Describe: `${Name} describe`,
  Builtin: 0,
  UserCount: 0,
  CreateAt: '2024-01-01 00:00:00',
  ...extra,
});

let rows: RoleRow[];
let api: ReturnType<typeof stubApi>;
let notices: string[];

beforeEach(() => {
  rows = [role(1, 'admin', { Builtin: 1, UserCount: 1 }), role(4, 'operators', { UserCount: 2 })];
  notices = captureNotices();
  loginAdmin();
  api = stubApi({
    '/api/v1/rolelist': () => ({ count: rows.length, data: rows }),
    'POST /api/v1/addrole': (c) => {
      rows = [...rows, role(5, c.body.name!, { Describe: c.body.describe ?? '' })];
      return v1({ ID: 5 });
    },
    'POST /api/v1/deleterole': (c) => {
      rows = rows.filter((r) => r.ID !== Number(c.body.id));
      return v1({});
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

// antd's first render in jsdom compiles its styles synchronously: slow on a busy machine.
describe('RolesPage', { timeout: 60_000 }, () => {
  it('lists the roles from rolelist; the built-in role has no actions', async () => {
    renderConsole(<RolesPage />);
    const ops = (await screen.findByText('operators describe')).closest('tr')!;
    expect(within(ops).getByRole('button', { name: /删\s*除/ })).toBeInTheDocument();
    const admin = screen.getByText('admin describe').closest('tr')!;
    expect(within(admin).getByText('内置')).toBeInTheDocument();
    expect(within(admin).queryByRole('button')).toBeNull();
    expect(api.callsTo('/api/v1/rolelist')[0]!.query.get('pagesize')).toBe('20');
  });

  it('the created time is local YYYY-MM-DD HH:mm:ss, not the server\'s ISO text', async () => {
    const created = new Date(2026, 10, 27, 13, 24, 20, 820);
    rows = [role(4, 'operators', { CreateAt: created.toISOString() })];
    renderConsole(<RolesPage />);
    const ops = (await screen.findByText('operators describe')).closest('tr')!;
    expect(within(ops).getByText('2026-11-27 13:24:20')).toBeInTheDocument();
    expect(within(ops).queryByText(created.toISOString())).toBeNull();
  });

  it('adds a role with a form-encoded addrole', async () => {
    renderConsole(<RolesPage />);
    await screen.findByText('operators describe');
    fireEvent.click(screen.getByRole('button', { name: /添加角色/ }));
    const dialog = await screen.findByRole('dialog');

    // The name is required.
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入角色名称')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/addrole')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('角色名称'), { target: { value: ' viewers ' } });
    fireEvent.change(within(dialog).getByLabelText('描述'), { target: { value: 'read only' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));

    await waitFor(() => expect(api.callsTo('/api/v1/addrole', 'POST')).toHaveLength(1));
    const add = api.callsTo('/api/v1/addrole', 'POST')[0]!;
    expect(add.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(add.body).toEqual({ name: 'viewers', describe: 'read only' });
    expect(await screen.findByText('viewers')).toBeInTheDocument();
    expect(notices).toContain('success:操作成功');
  });

  it('asks for confirmation before deleting a role', async () => {
    renderConsole(<RolesPage />);
    const row = (await screen.findByText('operators describe')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    const pop = (await screen.findByText('确定删除角色“operators”吗？')).closest('.ant-popover') as HTMLElement;
    expect(api.callsTo('/api/v1/deleterole')).toHaveLength(0);

    fireEvent.click(within(pop).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/deleterole', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/deleterole', 'POST')[0]!.body).toEqual({ id: '4' });
    await waitFor(() => expect(screen.queryByText('operators describe')).not.toBeInTheDocument());
  });
});
