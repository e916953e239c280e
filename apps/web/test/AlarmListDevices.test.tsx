/**
 * /alarm/list's device filter at a site's size (1,500 cameras): it asks the server for a page of
 * matching devices as the operator types, instead of loading every device to build the dropdown
 * (devicesconfig limit 9999 answered 750 KB on each visit).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import AlarmListPage from '../src/features/alarms/pages/AlarmListPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { searchedDevices, siteDevices } from './helpers/lists';
import { loginAdmin, logout } from './helpers/dialogs';
import { openFilters } from './helpers/toolbar';

const DEVICES = siteDevices(1500);

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  captureNotices();
  loginAdmin();
  api = stubApi({
    '/api/v1/alarmlist': () => v1({ Total: 0, Alarms: [] }),
    '/api/v1/devicesconfig': searchedDevices(DEVICES),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

describe('AlarmListPage: the device filter with 1,500 devices', { timeout: 60_000 }, () => {
  it('asks the server for a page of matches as the operator types', async () => {
    renderConsole(<AlarmListPage />);
    openFilters();
    // The dropdown's devices are asked for when it opens (DeviceSelect), not when the filter is drawn.
    await waitFor(() => expect(api.callsTo('/api/v1/alarmlist').length).toBeGreaterThan(0));
    expect(api.callsTo('/api/v1/devicesconfig')).toHaveLength(0);
    const box = within(screen.getByTestId('alarm-device')).getByRole('combobox');
    fireEvent.mouseDown(box);
    expect(await screen.findByText('还有 1450 个设备：输入名称 / ID / IP 查找')).toBeInTheDocument();
    fireEvent.change(box, { target: { value: 'cam-1499' } });
    const option = await screen.findByText('cam-1499 (1499)', {}, { timeout: 3000 });
    expect(api.callsTo('/api/v1/devicesconfig').at(-1)!.query.get('q')).toBe('cam-1499');
    fireEvent.click(option);
    await waitFor(() => expect(api.callsTo('/api/v1/alarmlist').at(-1)!.query.get('device')).toBe('1499'));
    for (const c of api.callsTo('/api/v1/devicesconfig')) expect(Number(c.query.get('limit'))).toBeLessThanOrEqual(50);
  });
});
