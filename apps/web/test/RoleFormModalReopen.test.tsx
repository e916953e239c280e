/**
 * The role form (/user/role) is one dialog opened again and again: a save still running (or failed) when it
 * was closed must not leave the next opening with a loading OK button or the previous role's values.
 * In jsdom a button's loading icon never finishes its leave motion (no transitionend), as in a browser
 * whose dialog closed mid-transition: only a new dialog per opening starts without it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import RolesPage from '../src/features/users/pages/RolesPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { cancel, expectIdle, holdRequests, loginAdmin, logout, okButton, role, type Release } from './helpers/dialogs';

/** Saves held back until the test answers them: true = OK, false = HTTP 500. */
let held: Release[];

beforeEach(() => {
  captureNotices();
  loginAdmin();
  const rows = [role(1, 'admin', 1), role(4, 'operators'), role(6, 'viewers')];
  const api = stubApi({
    '/api/v1/rolelist': () => ({ count: rows.length, data: rows }),
    '/api/v1/alllabel': () => v1({ Labels: [], Count: 0 }),
    'GET /api/v1/role/channels': () => v1({ Channels: [], Labels: [] }),
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
  // Every antd dialog in jsdom is labelled by the same test id: found by its title text instead.
  const dialog = (await screen.findByText('编辑角色')).closest<HTMLElement>('[role="dialog"]')!;
  await waitFor(() => expect(within(dialog).getByLabelText('角色名称')).toHaveValue(name));
  return dialog;
};

describe('RolesPage: the role form opened again', { timeout: 60_000 }, () => {
  it('closed while the save runs: the next opening is idle and shows the new role', async () => {
    renderConsole(<RolesPage />);
    const first = await edit('operators');
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    await waitFor(() => expect(okButton(first)).toHaveClass('ant-btn-loading'));
    cancel(first);

    const second = await edit('viewers');
    expect(within(second).getByLabelText('描述')).toHaveValue('viewers describe');
    expectIdle(second);
    held[0]!(false);
  });

  it('closed after a failed save: the next opening is idle and shows the new role', async () => {
    renderConsole(<RolesPage />);
    const first = await edit('operators');
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!(false);
    await waitFor(() => expect(okButton(first)).not.toHaveClass('ant-btn-loading'));
    cancel(first);

    const second = await edit('viewers');
    expect(within(second).getByLabelText('描述')).toHaveValue('viewers describe');
    expectIdle(second);
  });

  it('opened after the channels dialog: one form, with the role edited', async () => {
    // Both dialogs take a new key per opening: the same number on both is a duplicate key among siblings,
    // with which React may keep or drop the wrong dialog.
    const errors = vi.spyOn(console, 'error');
    renderConsole(<RolesPage />);
    const row = (await screen.findByText('operators describe')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /通\s*道/ }));
    const channels = (await screen.findByText('角色通道：operators')).closest<HTMLElement>('[role="dialog"]')!;
    cancel(channels);

    const form = await edit('viewers');
    expect(document.querySelectorAll('input[id="name"]')).toHaveLength(1);
    expectIdle(form);
    expect(errors.mock.calls.map((c) => c.map(String).join(' ')).filter((m) => m.includes('same key'))).toEqual([]);
  });
});
