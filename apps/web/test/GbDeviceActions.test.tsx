/**
 * GB28181 rows of /device/list (issue 6): catalog refresh followed until the answer is stored,
 * the device information dialog (asks the device again; a device that does not answer shows the
 * cause beside what is stored), and reboot after a confirm. Other device types get none of it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DeviceRow } from '@opencvr/shared';
import DeviceListPage from '../src/features/devices/pages/DeviceListPage';
import { useSession } from '../src/lib/stores/session';
import { connectEvents, disconnectEvents } from '../src/lib/ws';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { stubEventsSocket } from './helpers/events-socket';

const row = (DeviceID: string, DeviceType: DeviceRow['DeviceType'], DeviceName: string): DeviceRow =>
  ({
    DeviceID,
    DeviceName,
    DeviceType,
    DeviceIp: '10.0.0.2',
    DevicePort: 5060,
    DeviceUserName: '',
    DeviceUserPW: '',
    Manufacturer: '',
    Model: '',
    Firmware: '',
    Enable: 1,
    Online: 1,
    Transport: 'UDP',
    TransportMode: 'passive',
    ServerID: '',
    AlarmSubscribe: 0,
    CatalogSubscribe: 0,
    PositionSubscribe: 0,
    ChannelNum: 0,
    onlineChannelNums: 0,
    clusterOnline: 1,
    CreateAt: '',
    UpdateAt: '',
    LastSeenAt: '',
  }) as DeviceRow;

const GB = row('34020000001320000001', 'GB28181', 'Gate NVR');
const RTSP = row('00000000000000000002', 'RTSP', 'Door cam');

let notices: string[];
beforeEach(() => {
  notices = captureNotices();
  useSession.getState().login('tok-admin', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
});
afterEach(() => {
  disconnectEvents();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  useSession.getState().clear();
});

describe('GB device actions on /device/list', () => {
  it('refreshes the catalog and reports the stored result; reboot asks first; only GB rows have them', async () => {
    let polls = 0;
    const api = stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [GB, RTSP], TotalCount: 2 }),
      '/api/v1/devices/fetchcatalog': () => v1({ DeviceID: GB.DeviceID, SN: 77, Running: true, Received: 0, SumNum: 0, StartedAt: '' }),
      '/api/v1/devices/catalogstatus': () =>
        ++polls < 2
          ? v1({ DeviceID: GB.DeviceID, SN: 77, Running: true, Received: 10, SumNum: 300 })
          : v1({ DeviceID: GB.DeviceID, SN: 77, Running: false, Outcome: 'complete', Received: 300, SumNum: 300, Added: 298, Updated: 2, Removed: 0 }),
      '/api/v1/remotedevctrl': () => v1({ DeviceID: GB.DeviceID, Command: 'reboot', Result: 'OK', Answered: true }),
    });
    renderConsole(<DeviceListPage />);
    await screen.findByText('Gate NVR', {}, { timeout: 10_000 });
    expect(screen.getAllByTestId('gb-more')).toHaveLength(1);
    const gbRow = screen.getByText('Gate NVR').closest('tr')!;
    fireEvent.click(within(gbRow).getByTestId('gb-more'));
    fireEvent.click(await screen.findByTestId('gb-fetch-catalog'));
    await waitFor(() => expect(notices).toContain('success:目录已更新：共 300 项（新增 298，更新 2，删除 0）'), { timeout: 10_000 });
    expect(api.callsTo('/api/v1/devices/fetchcatalog')[0].query.get('device')).toBe(GB.DeviceID);

    fireEvent.click(within(gbRow).getByTestId('gb-more'));
    fireEvent.click(await screen.findByTestId('gb-reboot'));
    expect(api.callsTo('/api/v1/remotedevctrl')).toHaveLength(0);
    const pop = (await screen.findByText(/确定重启设备“Gate NVR”/)).closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(pop).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/remotedevctrl')).toHaveLength(1));
    expect(api.callsTo('/api/v1/remotedevctrl')[0].query.get('command')).toBe('reboot');
    await waitFor(() => expect(notices).toContain('success:已下发重启命令'));
  }, 30_000);

  it('the device info dialog asks the device again and shows what it reports, or why it could not', async () => {
    let answer = true;
    const api = stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [GB], TotalCount: 1 }),
      '/api/v1/deviceinfo': () =>
        v1({
          ...GB,
          GB: {
            Manufacturer: 'Hikvision',
            Model: 'DS-7608N',
            Firmware: 'V4.30.085',
            ChannelCount: 8,
            Registered: true,
            SipTransport: 'UDP',
            RemoteAddress: '10.0.0.2:5060',
            RegisteredAt: '2026-11-22T08:00:00.000Z',
            RegisterExpiresAt: '2026-11-22T09:00:00.000Z',
            KeepaliveAt: '2026-11-22T08:10:00.000Z',
            CatalogAt: '',
            StatusReason: '',
            ...(answer
              ? { Status: { Online: true, Result: 'OK', Encode: true, Record: false, DeviceTime: '2026-11-22T16:10:00', Alarms: [], At: '' } }
              : { RefreshError: 'no DeviceInfo response from 34020000001320000001 within 10000 ms' }),
          },
        }),
    });
    renderConsole(<DeviceListPage />);
    fireEvent.click(await screen.findByTestId('gb-more', {}, { timeout: 10_000 }));
    fireEvent.click(await screen.findByTestId('gb-device-info'));
    const table = await screen.findByTestId('gb-device-info-table');
    await within(table).findByText('V4.30.085');
    expect(within(table).getByText('DS-7608N')).toBeInTheDocument();
    expect(within(table).getByText('8')).toBeInTheDocument();
    expect(within(table).getByText('正常')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/deviceinfo')[0].query.get('refresh')).toBe('1');
    answer = false;
    fireEvent.click(screen.getByRole('button', { name: /重新查询/ }));
    await screen.findByText(/查询失败：no DeviceInfo response/);
  }, 30_000);

  it('keeps the row actions on one line: 通道, 编辑, 删除 and, on a GB row, 更多操作 holding its three', async () => {
    stubApi({ '/api/v1/devicesconfig': () => v1({ Devices: [GB, RTSP], TotalCount: 2 }) });
    renderConsole(<DeviceListPage />);
    await screen.findByText('Gate NVR', {}, { timeout: 10_000 });
    const actionsOf = (name: string) => {
      const cells = screen.getByText(name).closest('tr')!.querySelectorAll('td');
      return cells[cells.length - 1] as HTMLElement;
    };
    const names = (cell: HTMLElement) => within(cell).getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent!.replace(/\s/g, ''));
    expect(names(actionsOf('Gate NVR'))).toEqual(['通道', '编辑', '删除', '设备“Gate NVR”的更多操作']);
    expect(names(actionsOf('Door cam'))).toEqual(['通道', '编辑', '删除']);
    // Six buttons wrapped to two or three lines in the 260 px column (104 px on a phone).
    const space = actionsOf('Gate NVR').querySelector('.ant-space') as HTMLElement;
    expect(space).not.toHaveClass('ant-space-wrap');
    expect(getComputedStyle(space).flexWrap).not.toBe('wrap');
    fireEvent.click(within(actionsOf('Gate NVR')).getByRole('button', { name: '设备“Gate NVR”的更多操作' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['刷新目录', '设备信息', '重启']);
  }, 30_000);

  it('reloads the list when a catalog answer has been stored (pushed as topic catalog)', async () => {
    const events = stubEventsSocket();
    let channels = 0;
    const api = stubApi({ '/api/v1/devicesconfig': () => v1({ Devices: [{ ...GB, ChannelNum: channels }], TotalCount: 1 }) });
    connectEvents('tok-admin');
    renderConsole(<DeviceListPage />);
    await screen.findByText('Gate NVR', {}, { timeout: 10_000 });
    const before = api.callsTo('/api/v1/devicesconfig').length;
    channels = 300;
    act(() => events.push('catalog', { DeviceID: GB.DeviceID, SN: 1, Running: true, Received: 4, SumNum: 300, StartedAt: '' }));
    act(() => events.push('catalog', { DeviceID: GB.DeviceID, SN: 1, Running: false, Outcome: 'complete', Received: 300, SumNum: 300, StartedAt: '' }));
    expect(await screen.findByText('0/300', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(api.callsTo('/api/v1/devicesconfig').length).toBe(before + 1);
  }, 30_000);
});
