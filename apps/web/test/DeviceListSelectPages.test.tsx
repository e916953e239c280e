/**
 * /device/list at a site's size (1,500 devices): the ticks of one page stay when the operator pages
 * on, so one batch delete removes the devices ticked on several pages.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import DeviceListPage from '../src/features/devices/pages/DeviceListPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { devicesPage, siteDevices } from './helpers/lists';
import { loginAdmin, logout } from './helpers/dialogs';
import { openMoreActions } from './helpers/toolbar';

const DEVICES = siteDevices(1500).map((d) => ({
  ...d,
  DeviceIp: '127.0.0.1',
  DevicePort: 554,
  Online: 1,
  ChannelNum: 1,
}));

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  captureNotices();
  loginAdmin();
  api = stubApi({
    '/api/v1/devicesconfig': (c) => devicesPage(c, DEVICES),
    'DELETE /api/v1/devices': (c) => v1({ Deleted: c.body.devices.split(','), error: [] }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

describe('DeviceListPage: batch delete across pages', { timeout: 60_000 }, () => {
  it('keeps the ticks of page 1 when page 2 is ticked', async () => {
    renderConsole(<DeviceListPage />);
    await screen.findByText('cam-0001');
    const tickAll = () => fireEvent.click(within(document.querySelector('thead')!).getByRole('checkbox'));
    tickAll();
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('cam-0021');
    tickAll();
    openMoreActions();
    fireEvent.click(screen.getByRole('button', { name: /批量删除/ }));
    expect(await screen.findByText('确定删除选中的 40 个设备？设备的通道会一并删除')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/devices', 'DELETE')).toHaveLength(1));
    const sent = api.callsTo('/api/v1/devices', 'DELETE')[0].body.devices.split(',');
    expect(sent).toHaveLength(40);
    expect(sent).toContain('1');
    expect(sent).toContain('40');
  });
});
