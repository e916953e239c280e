/**
 * A late save of an earlier opening of the role form (/user/role) must not act on the next opening: the first
 * role's save is held back, its dialog closed, the form opened for another role and edited, then the first
 * save answers. The list is refreshed (the save happened), but the second dialog stays open with its values.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import RolesPage from '../src/features/users/pages/RolesPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { cancel, holdRequests, loginAdmin, logout, okButton, role, shownDialog, shownDialogWhen, type Release } from './helpers/dialogs';

/** Saves held back until the test answers them. */
let held: Release[];
let api: ReturnType<typeof stubApi>;
let notices: string[];

beforeEach(() => {
  notices = captureNotices();
  loginAdmin();
  const rows = [role(1, 'admin', 1), role(4, 'operators'), role(6, 'viewers')];
  api = stubApi({
    '/api/v1/rolelist': () => ({ count: rows.length, data: rows }),
    'POST /api/v1/role': () => v1({}),
  });
  held = holdRequests(api, '/api/v1/role');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  logout();
});

const edit = async (name: string) => {
  const row = (await screen.findByText(`${name} describe`)).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
  return shownDialogWhen((dialog) => expect(within(dialog).getByLabelText('角色名称')).toHaveValue(name));
};

describe('RolesPage: a late save of an earlier opening', { timeout: 60_000 }, () => {
  it('refreshes the list but leaves the next opening open with its values', async () => {
    renderConsole(<RolesPage />);
    const first = await edit('operators');
    fireEvent.change(within(first).getByLabelText('角色名称'), { target: { value: 'ops' } });
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    cancel(first);

    const second = await edit('viewers');
    fireEvent.change(within(second).getByLabelText('描述'), { target: { value: 'read only' } });
    const listed = api.callsTo('/api/v1/rolelist').length;
    held[0]!();
    await waitFor(() => expect(api.callsTo('/api/v1/rolelist').length).toBeGreaterThan(listed));
    await waitFor(() => expect(notices).toContain('success:修改成功!'));
    // The first save's answer neither closed the second dialog nor changed its values.
    expect(second).not.toHaveClass('ant-zoom-leave');
    expect(shownDialog()).toBe(second);
    expect(within(second).getByLabelText('角色名称')).toHaveValue('viewers');
    expect(within(second).getByLabelText('描述')).toHaveValue('read only');

    // And it still saves its own role, then closes.
    fireEvent.click(okButton(second));
    await waitFor(() => expect(held).toHaveLength(2));
    held[1]!();
    await waitFor(() => expect(second).toHaveClass('ant-zoom-leave'));
    expect(api.callsTo('/api/v1/role', 'POST').map((c) => c.body)).toMatchObject([
      { id: '4', name: 'ops' },
      { id: '6', name: 'viewers', describe: 'read only' },
    ]);
  });
});
