/**
 * The GB28181 administration pages (issue 6): /config/platform/gb (save only what changed, disabled
 * until something did, validation before any call), /config/white and /config/black (list, switch,
 * add/edit with the one-of-two rule, delete, batch delete) and /alarm/list (type labels, filters,
 * snapshot with the token, delete, clear, reload on a pushed alarm).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AlarmItem, GbBaseConfig, GbListItem } from '@opencvr/shared';
import GbConfigPage from '../src/features/gb/pages/GbConfigPage';
import WhiteListPage from '../src/features/gb/pages/WhiteListPage';
import BlackListPage from '../src/features/gb/pages/BlackListPage';
import AlarmListPage from '../src/features/alarms/pages/AlarmListPage';
import { changedFields } from '../src/features/gb/pages/GbConfigPage';
import { isHostOrEmpty, isIpOrCidr } from '../src/features/gb/rules';
import { useSession } from '../src/lib/stores/session';
import { connectEvents, disconnectEvents } from '../src/lib/ws';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { stubEventsSocket } from './helpers/events-socket';
import { openFilters, openMoreActions } from './helpers/toolbar';

const CONFIG: GbBaseConfig = {
  Serial: '34020000002000000001',
  Realm: '3402000000',
  Host: '',
  Port: 15060,
  DevicePassword: 'sip12345',
  MediaIP: '',
  RtpPortMin: 30000,
  RtpPortMax: 30500,
  MediaTransport: 'UDP',
  MediaTransportMode: 'passive',
  KeepaliveTimeout: 60,
  KeepaliveCount: 3,
  RegisterExpires: 3600,
  AckTimeout: 10,
  WhiteSwitch: false,
  ListenPort: 15060,
  PortFromEnv: false,
};

const entry = (ID: number, DeviceID: string, IP = ''): GbListItem => ({ ID, DeviceID, IP, Name: `n${ID}`, Description: '', CreateTime: '2026-01-01T00:00:00Z', UpdateTime: '2026-01-01T00:00:00Z' });
const alarm = (ID: number, extra: Partial<AlarmItem> = {}): AlarmItem => ({
  ID,
  DeviceID: '34020000001320000001',
  ChannelID: '34020000001310000001',
  DeviceName: 'Gate NVR',
  ChannelName: 'Gate cam',
  AlarmPriority: 1,
  AlarmMethod: 5,
  AlarmType: 7,
  AlarmTime: '2026-03-01T08:00:00.000Z',
  AlarmDescription: 'motion',
  Longitude: null,
  Latitude: null,
  Snapshot: '',
  CreateTime: '2026-03-01T08:00:00.000Z',
  ...extra,
});

let notices: string[];
beforeEach(() => {
  notices = captureNotices();
  useSession.getState().login('tok-admin', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
});
afterEach(() => {
  disconnectEvents();
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

const okButton = (container: HTMLElement) => within(container).getByRole('button', { name: /确\s*定/ });
const lastPopover = async (text: string) => (await screen.findAllByText(text)).at(-1)!.closest('.ant-popover') as HTMLElement;

describe('GB form rules', () => {
  it('checks addresses and blocks, and sends only changed fields', () => {
    expect(isIpOrCidr('192.168.1.0/24')).toBe(true);
    expect(isIpOrCidr('10.0.0.1')).toBe(true);
    expect(isIpOrCidr('2001:db8::/32')).toBe(true);
    expect(isIpOrCidr('300.1.1.1')).toBe(false);
    expect(isIpOrCidr('10.0.0.0/33')).toBe(false);
    expect(isIpOrCidr('host.example')).toBe(false);
    expect(isHostOrEmpty('')).toBe(true);
    expect(isHostOrEmpty('sip.example.org')).toBe(true);
    expect(isHostOrEmpty('bad host!')).toBe(false);
    const { ListenPort: _l, PortFromEnv: _p, ...loaded } = CONFIG;
    expect(changedFields(loaded, { ...loaded, Port: 5061, Host: '  ' })).toEqual({ Port: 5061 });
  });
});

describe('GB admin pages', { timeout: 60_000 }, () => {
  it('/config/platform/gb: save is disabled until a change, then sends only that change', async () => {
    let stored = { ...CONFIG };
    const api = stubApi({
      '/api/v1/getbaseconfig': () => v1(stored),
      'POST /api/v1/setbaseconfig': (c) => {
        stored = { ...stored, Port: Number(c.body.Port) };
        return v1(stored);
      },
    });
    renderConsole(<GbConfigPage />);
    const serial = await screen.findByDisplayValue('34020000002000000001', {}, { timeout: 10_000 });
    expect(screen.getByText(/保存后立即生效/)).toBeInTheDocument();
    const save = screen.getByTestId('gb-save');
    expect(save).toBeDisabled();

    // A bad SIP ID is refused in the form: no call.
    fireEvent.change(serial, { target: { value: '1234' } });
    await waitFor(() => expect(save).toBeEnabled());
    fireEvent.click(save);
    expect(await screen.findByText('请输入 20 位数字', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(api.callsTo('/api/v1/setbaseconfig')).toHaveLength(0);
    fireEvent.change(serial, { target: { value: '34020000002000000001' } });
    await waitFor(() => expect(save).toBeDisabled());

    fireEvent.change(screen.getByDisplayValue('15060'), { target: { value: '5061' } });
    await waitFor(() => expect(save).toBeEnabled());
    fireEvent.click(save);
    await waitFor(() => expect(api.callsTo('/api/v1/setbaseconfig', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/setbaseconfig', 'POST')[0]!.body).toEqual({ Port: '5061' });
    await waitFor(() => expect(notices).toContain('success:修改成功!'));
    // Reloaded: the SIP service still listens on the old port, which the page says.
    expect(await screen.findByText(/信令服务仍在端口 15060 监听/)).toBeInTheDocument();
  });

  it('/config/white: lists, toggles the switch, adds (one of ID/IP required), deletes one and several', async () => {
    let rows = [entry(2, '34020000001320000002'), entry(1, '', '10.0.0.0/8')];
    let switchOn = false;
    const api = stubApi({
      '/api/v1/white': () => v1({ Total: rows.length, List: rows, WhiteSwitch: switchOn }),
      'POST /api/v1/white/switch': (c) => {
        switchOn = c.body.WhiteSwitch === '1';
        return v1({ WhiteSwitch: switchOn });
      },
      'POST /api/v1/addwhite': (c) => {
        const e = entry(3, c.body.DeviceID!, c.body.IP);
        rows = [e, ...rows];
        return v1(e);
      },
      '/api/v1/delwhite': (c) => {
        rows = rows.filter((r) => r.ID !== Number(c.query.get('ID')));
        return v1({ Deleted: 1 });
      },
      'POST /api/v1/delwhites': (c) => {
        const ids = c.body.ids!.split(',').map(Number);
        rows = rows.filter((r) => !ids.includes(r.ID));
        return v1({ Deleted: ids.length });
      },
    });
    renderConsole(<WhiteListPage />);
    expect(await screen.findByText('34020000001320000002')).toBeInTheDocument();
    expect(screen.getByText('10.0.0.0/8')).toBeInTheDocument();
    const [call] = api.callsTo('/api/v1/white');
    expect(call!.query.get('start')).toBe('0');
    expect(call!.query.get('limit')).toBe('20');

    fireEvent.click(screen.getByTestId('white-switch'));
    await waitFor(() => expect(api.callsTo('/api/v1/white/switch', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/white/switch', 'POST')[0]!.body).toEqual({ WhiteSwitch: '1' });
    expect(await screen.findByText('白名单已开启')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: /添加白名单/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(okButton(dialog));
    expect((await within(dialog).findAllByText('设备国标编码和 IP 地址至少填写一项')).length).toBeGreaterThan(0);
    fireEvent.change(within(dialog).getByLabelText('IP 地址'), { target: { value: '10.0.0.0/40' } });
    fireEvent.click(okButton(dialog));
    expect(await within(dialog).findByText('请输入单个 IP 地址或网段（如 192.168.1.0/24）')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/addwhite')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('IP 地址'), { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText('设备国标编码'), { target: { value: '34020000001320000003' } });
    fireEvent.click(okButton(dialog));
    await waitFor(() => expect(api.callsTo('/api/v1/addwhite', 'POST')).toHaveLength(1));
    const add = api.callsTo('/api/v1/addwhite', 'POST')[0]!;
    expect(add.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(add.body).toMatchObject({ DeviceID: '34020000001320000003', IP: '' });
    expect(await screen.findByText('34020000001320000003')).toBeInTheDocument();

    const row = screen.getByText('34020000001320000003').closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    fireEvent.click(okButton(await lastPopover('确定删除这条记录吗？')));
    await waitFor(() => expect(api.callsTo('/api/v1/delwhite')).toHaveLength(1));
    expect(api.callsTo('/api/v1/delwhite')[0]!.query.get('ID')).toBe('3');
    await waitFor(() => expect(screen.queryByText('34020000001320000003')).not.toBeInTheDocument());

    for (const cb of screen.getAllByRole('checkbox').slice(1)) fireEvent.click(cb);
    openMoreActions();
    fireEvent.click(screen.getByRole('button', { name: /批量删除/ }));
    fireEvent.click(okButton(await lastPopover('确定删除选中的 2 条记录吗？')));
    await waitFor(() => expect(api.callsTo('/api/v1/delwhites', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/delwhites', 'POST')[0]!.body.ids!.split(',').sort()).toEqual(['1', '2']);
  });

  it('/config/black: edit sends the entry ID', async () => {
    let rows = [entry(5, '34020000001320000005')];
    const api = stubApi({
      '/api/v1/black': () => v1({ Total: rows.length, List: rows }),
      'POST /api/v1/editblack': (c) => {
        rows = [{ ...rows[0]!, IP: c.body.IP! }];
        return v1(rows[0]);
      },
    });
    renderConsole(<BlackListPage />);
    const row = (await screen.findByText('34020000001320000005')).closest('tr')!;
    expect(screen.queryByTestId('white-switch')).not.toBeInTheDocument();
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('设备国标编码')).toHaveValue('34020000001320000005');
    fireEvent.change(within(dialog).getByLabelText('IP 地址'), { target: { value: '192.168.9.9' } });
    fireEvent.click(okButton(dialog));
    await waitFor(() => expect(api.callsTo('/api/v1/editblack', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/editblack', 'POST')[0]!.body).toMatchObject({ ID: '5', DeviceID: '34020000001320000005', IP: '192.168.9.9' });
    expect(await screen.findByText('192.168.9.9')).toBeInTheDocument();
  });

  it('/alarm/list: labels, snapshot with the token, type filter, delete, clear, reload on a pushed alarm', async () => {
    const events = stubEventsSocket();
    let rows = [alarm(2, { Snapshot: '/api/v1/alarm/snapshot/2', Longitude: 116.39, Latitude: 39.9 }), alarm(1, { AlarmType: 18, AlarmMethod: 6, AlarmPriority: 3, ChannelID: '', ChannelName: '' })];
    const api = stubApi({
      '/api/v1/alarmlist': (c) => {
        const type = Number(c.query.get('type') ?? 0);
        const list = type ? rows.filter((r) => r.AlarmType === type) : rows;
        return v1({ Total: list.length, Alarms: list });
      },
      '/api/v1/devicesconfig': () => v1({ Devices: [{ DeviceID: '34020000001320000001', DeviceName: 'Gate NVR' }], TotalCount: 1 }),
      'POST /api/v1/deletealarm': (c) => {
        rows = rows.filter((r) => String(r.ID) !== c.body.id);
        return v1({ Deleted: 1 });
      },
      'POST /api/v1/clearalarm': () => {
        const n = rows.length;
        rows = [];
        return v1({ Deleted: n });
      },
    });
    connectEvents('tok-admin');
    renderConsole(<AlarmListPage />);
    expect(await screen.findByText('运动目标检测报警')).toBeInTheDocument();
    expect(screen.getByText('存储设备磁盘故障报警')).toBeInTheDocument();
    expect(screen.getByText('一级警情')).toBeInTheDocument();
    expect(screen.getByText('设备故障报警')).toBeInTheDocument();
    expect(screen.getByText('116.390000, 39.900000')).toBeInTheDocument();
    const img = screen.getByRole('img', { name: '抓图' });
    expect(img.getAttribute('src')).toBe('/api/v1/alarm/snapshot/2?token=tok-admin');
    const first = api.callsTo('/api/v1/alarmlist')[0]!;
    expect(first.query.get('start')).toBe('0');
    expect(first.query.get('limit')).toBe('20');

    // Type filter: the spec 3 table, 0 = all.
    openFilters();
    fireEvent.mouseDown(within(screen.getByTestId('alarm-type')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('运动目标检测报警', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(api.callsTo('/api/v1/alarmlist').at(-1)!.query.get('type')).toBe('7'));
    await waitFor(() => expect(screen.queryByText('存储设备磁盘故障报警')).not.toBeInTheDocument());

    const row = screen.getByText('motion', { selector: 'td' }).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    fireEvent.click(okButton(await lastPopover('确定删除这条报警吗？')));
    await waitFor(() => expect(api.callsTo('/api/v1/deletealarm', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/deletealarm', 'POST')[0]!.body).toEqual({ id: '2' });

    // A pushed alarm reloads the list (throttled to once a second).
    rows = [alarm(9, { AlarmType: 7, AlarmDescription: 'pushed' }), ...rows];
    const before = api.callsTo('/api/v1/alarmlist').length;
    act(() => events.push('alarm', rows[0]));
    expect(await screen.findByText('pushed', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(api.callsTo('/api/v1/alarmlist').length).toBe(before + 1);

    openMoreActions();
    fireEvent.click(screen.getByTestId('alarm-clear'));
    fireEvent.click(okButton(await lastPopover('确定清空符合当前筛选条件的全部报警吗？此操作不可恢复。')));
    await waitFor(() => expect(api.callsTo('/api/v1/clearalarm', 'POST')).toHaveLength(1));
    const clear = api.callsTo('/api/v1/clearalarm', 'POST')[0]!;
    expect(clear.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(clear.body).toEqual({ type: '7' });
  });
});
