/**
 * A late save of an earlier opening of the GB list entry dialog (/config/black, /config/white) must not act on
 * the next opening: the first entry's save is held back, its dialog closed, the dialog opened for another
 * entry and edited, then the first save answers. The list is refreshed (the save happened), but the second
 * dialog stays open with its values.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { GbListItem } from '@opencvr/shared';
import BlackListPage from '../src/features/gb/pages/BlackListPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { cancel, holdRequests, loginAdmin, logout, okButton, shownDialog, shownDialogWhen, type Release } from './helpers/dialogs';

const entry = (ID: number, DeviceID: string, IP = ''): GbListItem => ({ ID, DeviceID, IP, Name: `n${ID}`, Description: '', CreateTime: '2026-01-01T00:00:00Z', UpdateTime: '2026-01-01T00:00:00Z' });

/** Saves held back until the test answers them. */
let held: Release[];
let api: ReturnType<typeof stubApi>;

beforeEach(() => {
  captureNotices();
  loginAdmin();
  const rows = [entry(5, '34020000001320000005'), entry(6, '34020000001320000006', '10.1.1.6')];
  api = stubApi({
    '/api/v1/black': () => v1({ Total: rows.length, List: rows }),
    'POST /api/v1/editblack': (c) => v1(rows.find((r) => String(r.ID) === c.body.ID)),
  });
  held = holdRequests(api, '/api/v1/editblack');
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

const edit = async (deviceId: string) => {
  const row = (await screen.findByText(deviceId)).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
  return shownDialogWhen((dialog) => expect(within(dialog).getByLabelText('设备国标编码')).toHaveValue(deviceId));
};

describe('GbListPage: a late save of an earlier opening', { timeout: 60_000 }, () => {
  it('refreshes the list but leaves the next opening open with its values', async () => {
    renderConsole(<BlackListPage />);
    const first = await edit('34020000001320000005');
    fireEvent.change(within(first).getByLabelText('IP 地址'), { target: { value: '192.168.9.5' } });
    fireEvent.click(okButton(first));
    await waitFor(() => expect(held).toHaveLength(1));
    cancel(first);

    const second = await edit('34020000001320000006');
    fireEvent.change(within(second).getByLabelText('IP 地址'), { target: { value: '192.168.9.6' } });
    const listed = api.callsTo('/api/v1/black').length;
    held[0]!();
    await waitFor(() => expect(api.callsTo('/api/v1/black').length).toBeGreaterThan(listed));
    // The first save's answer neither closed the second dialog nor changed its values.
    expect(second).not.toHaveClass('ant-zoom-leave');
    expect(shownDialog()).toBe(second);
    expect(within(second).getByLabelText('设备国标编码')).toHaveValue('34020000001320000006');
    expect(within(second).getByLabelText('IP 地址')).toHaveValue('192.168.9.6');

    // And it still saves its own entry, then closes.
    fireEvent.click(okButton(second));
    await waitFor(() => expect(held).toHaveLength(2));
    held[1]!();
    await waitFor(() => expect(second).toHaveClass('ant-zoom-leave'));
    expect(api.callsTo('/api/v1/editblack', 'POST').map((c) => c.body)).toMatchObject([
      { ID: '5', DeviceID: '34020000001320000005', IP: '192.168.9.5' },
      { ID: '6', DeviceID: '34020000001320000006', IP: '192.168.9.6' },
    ]);
  });
});
