/**
 * The role channels dialog (/user/role, 通道) is one dialog opened again and again: a save still running (or
 * failed) when it was closed must not leave the next opening with a loading save button, and the next opening
 * shows its own role's grants, not what the last opening loaded or edited.
 * In jsdom a button's loading icon never finishes its leave motion (no transitionend), as in a browser
 * whose dialog closed mid-transition: only a new dialog per opening starts without it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import RolesPage from '../src/features/users/pages/RolesPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { cancel, expectIdle, holdRequests, loginAdmin, logout, role, type Release } from './helpers/dialogs';

const grants: Record<string, { DeviceID: string; ChannelID: string; Name: string }[]> = {
  '4': [{ DeviceID: 'dev1', ChannelID: 'ch1', Name: 'Gate camera' }],
  '6': [{ DeviceID: 'dev2', ChannelID: 'ch2', Name: 'Lobby camera' }],
};

/** Requests held back until the test answers them: true = OK, false = HTTP 500. */
let held: Release[];
/** "METHOD path?roleid" keys to hold. */
let hold: Set<string>;

beforeEach(() => {
  hold = new Set();
  captureNotices();
  loginAdmin();
  const rows = [role(1, 'admin', 1), role(4, 'operators'), role(6, 'viewers')];
  const api = stubApi({
    '/api/v1/rolelist': () => ({ count: rows.length, data: rows }),
    '/api/v1/alllabel': () => v1({ Labels: [], Count: 0 }),
    'GET /api/v1/role/channels': (c) => v1({ Channels: grants[c.query.get('roleid')!] ?? [], Labels: [] }),
    'POST /api/v1/role/channels': () => v1({}),
  });
  held = holdRequests(api, (url, method) => {
    const key = `${method} ${url.pathname}`;
    return hold.has(key) || hold.has(`${key}?${url.searchParams.get('roleid')}`);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

const saveButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: /保\s*存/ });
const open = async (name: string) => {
  const row = (await screen.findByText(`${name} describe`)).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: /通\s*道/ }));
  // Every antd dialog in jsdom is labelled by the same test id: found by its title text instead.
  return (await screen.findByText(`角色通道：${name}`)).closest<HTMLElement>('[role="dialog"]')!;
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
    cancel(first);

    const second = await open('viewers');
    expect(await within(second).findByText('Lobby camera')).toBeInTheDocument();
    expect(within(second).queryByText('Gate camera')).toBeNull();
    expectIdle(second, saveButton);
    held[0]!(false);
  });

  it('closed after a failed save: the next opening is idle', async () => {
    hold.add('POST /api/v1/role/channels');
    renderConsole(<RolesPage />);
    const first = await open('operators');
    expect(await within(first).findByText('Gate camera')).toBeInTheDocument();
    fireEvent.click(saveButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!(false);
    await waitFor(() => expect(saveButton(first)).not.toHaveClass('ant-btn-loading'));
    cancel(first);

    const second = await open('viewers');
    expect(await within(second).findByText('Lobby camera')).toBeInTheDocument();
    expectIdle(second, saveButton);
  });

  it("does not show the last role's channels while the next role's grants load", async () => {
    hold.add('GET /api/v1/role/channels?6');
    renderConsole(<RolesPage />);
    const first = await open('operators');
    expect(await within(first).findByText('Gate camera')).toBeInTheDocument();
    cancel(first);

    const second = await open('viewers');
    await waitFor(() => expect(held).toHaveLength(1));
    expect(within(second).queryByText('Gate camera')).toBeNull();
    held[0]!(true);
    expect(await within(second).findByText('Lobby camera')).toBeInTheDocument();
    expect(within(second).queryByText('Gate camera')).toBeNull();
  });

  it('drops the edits of an opening closed without saving', async () => {
    renderConsole(<RolesPage />);
    const first = await open('operators');
    const item = (await within(first).findByText('Gate camera')).closest('li')!;
    fireEvent.click(within(item).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(within(first).queryByText('Gate camera')).toBeNull());
    cancel(first);

    const again = await open('operators');
    expect(await within(again).findByText('Gate camera')).toBeInTheDocument();
  });
});
