/**
 * The channel picker (plans, groups, roles): a search's channels can be taken all at once, with what
 * each row says of the channel (its device's name, its own recording switch), so 1,500 cameras are
 * not ticked one by one; a device's box takes all its cameras (an NVR's 64), half-ticked when some are.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ChannelPicker } from '../src/components/ChannelPicker';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

adminSessionPerTest();

const channel = (i: number) => ({ ParentDeviceID: String(i), ChannelID: '1', Name: `Gate ${i}`, DeviceName: `NVR ${i}`, GBID: '1', Parental: 0, EnableRecord: i % 2 });

describe('ChannelPicker', { timeout: 30_000 }, () => {
  it('takes every channel a search found, and gives none back when unticked', async () => {
    stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [], TotalCount: 0 }),
      '/api/v1/all/channels': (c) => v1(c.query.get('q') === 'gate' ? { Channels: [1, 2, 3].map(channel), ChannelCount: 3 } : { Channels: [], ChannelCount: 0 }),
    });
    const onOk = vi.fn();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={onOk} />);
    fireEvent.change(await screen.findByPlaceholderText('搜索通道名称 / ID'), { target: { value: 'gate' } });
    const all = await screen.findByRole('checkbox', { name: '全选搜索结果（3 个）' });
    fireEvent.click(all);
    expect(screen.getByText('已选 3 项')).toBeInTheDocument();
    fireEvent.click(all);
    expect(screen.getByText('已选 0 项')).toBeInTheDocument();
    fireEvent.click(all);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(onOk).toHaveBeenCalledTimes(1));
    expect(onOk.mock.calls[0]![0].channels).toEqual([1, 2, 3].map((i) => ({ DeviceID: String(i), ChannelID: '1', Name: `Gate ${i}`, DeviceName: `NVR ${i}`, EnableRecord: i % 2 })));
  });
});

describe('ChannelPicker device boxes', { timeout: 30_000 }, () => {
  // An NVR of 64 cameras, 50 shown on expand (the tree's page); its camera list answers at most 40 a
  // call, so taking the device needs more than one page and more than the tree ever loaded.
  const cam = (i: number) => ({ ParentDeviceID: 'NVR', ChannelID: String(i), Name: `Cam ${i}`, DeviceName: 'NVR 64', GBID: String(i), Parental: 0, EnableRecord: 1 });
  const cams = Array.from({ length: 64 }, (_, i) => cam(i + 1));
  const serve = () =>
    stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [{ DeviceID: 'NVR', DeviceName: 'NVR 64' }], TotalCount: 1 }),
      '/api/v1/channelsconfig': (c) => v1({ Channels: cams.slice(Number(c.query.get('start')), Number(c.query.get('start')) + 50), ChannelCount: 64 }),
      '/api/v1/devices/NVR/channels': (c) => {
        const start = Number(c.query.get('start'));
        return v1({ Channels: cams.slice(start, start + Math.min(40, Number(c.query.get('limit')))), ChannelCount: 64 });
      },
    });
  const row = (name: string) => screen.getByText(name).closest('.ant-tree-treenode') as HTMLElement;
  const box = (name: string) => row(name).querySelector('.ant-tree-checkbox') as HTMLElement;

  it('ticks all of a device’s cameras, not loaded ones too, half-ticks it when some are unticked, and sends the same channel list', async () => {
    const api = serve();
    const onOk = vi.fn();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={onOk} />);
    await screen.findByText('NVR 64');
    fireEvent.click(box('NVR 64'));
    expect(await screen.findByText('已选 64 项')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/devices/NVR/channels').map((c) => c.query.get('start'))).toEqual(['0', '40']);
    expect(box('NVR 64')).toHaveClass('ant-tree-checkbox-checked');

    // Expanded, one camera unticked: the device is half-ticked; ticked again, it takes all back.
    fireEvent.click(row('NVR 64').querySelector('.ant-tree-switcher')!);
    await screen.findByText('Cam 1');
    fireEvent.click(box('Cam 1'));
    expect(screen.getByText('已选 63 项')).toBeInTheDocument();
    expect(box('NVR 64')).toHaveClass('ant-tree-checkbox-indeterminate');
    fireEvent.click(box('NVR 64'));
    expect(await screen.findByText('已选 64 项')).toBeInTheDocument();
    expect(box('NVR 64')).toHaveClass('ant-tree-checkbox-checked');
    // The tree's virtual list takes its own render to enable the box the read had disabled.
    await waitFor(() => expect(box('NVR 64')).not.toHaveClass('ant-tree-checkbox-disabled'));

    // Unticked, the device gives all back.
    fireEvent.click(box('NVR 64'));
    expect(screen.getByText('已选 0 项')).toBeInTheDocument();
    expect(box('NVR 64')).not.toHaveClass('ant-tree-checkbox-checked');
    expect(box('NVR 64')).not.toHaveClass('ant-tree-checkbox-indeterminate');

    fireEvent.click(box('NVR 64'));
    expect(await screen.findByText('已选 64 项')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: /确\s*定/ })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(onOk).toHaveBeenCalledTimes(1));
    expect(onOk.mock.calls[0]![0]).toEqual({
      channels: cams.map((c) => ({ DeviceID: 'NVR', ChannelID: c.ChannelID, Name: c.Name, DeviceName: 'NVR 64', EnableRecord: 1 })),
      devices: [],
    });
  });

  it('half-ticks a device whose cameras were picked one by one', async () => {
    serve();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={() => undefined} />);
    await screen.findByText('NVR 64');
    expect(box('NVR 64')).not.toHaveClass('ant-tree-checkbox-indeterminate');
    fireEvent.click(row('NVR 64').querySelector('.ant-tree-switcher')!);
    await screen.findByText('Cam 2');
    fireEvent.click(box('Cam 2'));
    expect(box('NVR 64')).toHaveClass('ant-tree-checkbox-indeterminate');
  });

  it('while a ticked device is read, OK is disabled and keeps its name (no lingering loading icon), then takes the cameras', async () => {
    let answer: (body: unknown) => void = () => undefined;
    const cam1 = { ParentDeviceID: 'D6', ChannelID: '1', Name: 'Gate', DeviceName: 'Gate', GBID: '1', Parental: 0, EnableRecord: 0 };
    stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [{ DeviceID: 'D6', DeviceName: 'Gate' }], TotalCount: 1 }),
      '/api/v1/devices/D6/channels': () => new Promise((resolve) => (answer = resolve)),
    });
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={() => undefined} />);
    await screen.findByText('Gate');
    fireEvent.click(box('Gate'));
    expect(await screen.findByText('正在读取设备的通道…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^\s*确\s*定\s*$/ })).toBeDisabled();
    answer(v1({ Channels: [cam1], ChannelCount: 1 }));
    expect(await screen.findByText('已选 1 项')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: /^\s*确\s*定\s*$/ })).toBeEnabled());
  });

  it('says so when a ticked device has no cameras, and picks nothing', async () => {
    stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [{ DeviceID: 'EMPTY', DeviceName: 'Empty NVR' }], TotalCount: 1 }),
      '/api/v1/devices/EMPTY/channels': () => v1({ Channels: [], ChannelCount: 0 }),
    });
    const notices = captureNotices();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={() => undefined} />);
    await screen.findByText('Empty NVR');
    fireEvent.click(box('Empty NVR'));
    await waitFor(() => expect(notices).toEqual(['warning:设备 Empty NVR 没有可选的通道']));
    expect(screen.getByText('已选 0 项')).toBeInTheDocument();
    expect(box('Empty NVR')).not.toHaveClass('ant-tree-checkbox-checked');
  });
});

describe('ChannelPicker folder boxes', { timeout: 30_000 }, () => {
  // A GB NVR in folders: at the top a business group G and a camera; in G a camera and a virtual
  // organisation O of 30 cameras. Its camera list answers at most 20 a call, so taking G (31) needs
  // two pages, and takes O's cameras without O ever being expanded.
  const DEV = 'GBNVR';
  const row = (ChannelID: string, ParentID: string, Parental = 0) => ({
    ParentDeviceID: DEV,
    ChannelID,
    GBID: ChannelID,
    ParentID,
    Parental,
    Name: ChannelID === 'G' ? '业务分组' : ChannelID === 'O' ? '虚拟组织' : `Cam ${ChannelID}`,
    DeviceName: 'GB NVR',
    EnableRecord: 1,
  });
  const orgCams = Array.from({ length: 30 }, (_, i) => row(`O${i + 1}`, 'O'));
  const levels: Record<string, ReturnType<typeof row>[]> = {
    '': [row('G', '', 1), row('T1', '')],
    G: [row('O', 'G', 1), row('G1', 'G')],
    O: orgCams,
  };
  const below: Record<string, ReturnType<typeof row>[]> = { G: [row('G1', 'G'), ...orgCams], O: orgCams };
  const serve = () =>
    stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [{ DeviceID: DEV, DeviceName: 'GB NVR' }], TotalCount: 1 }),
      '/api/v1/channelsconfig': (c) => {
        const level = levels[c.query.get('subset') ?? ''] ?? [];
        return v1({ Channels: level.slice(Number(c.query.get('start')), Number(c.query.get('start')) + 50), ChannelCount: level.length });
      },
      [`/api/v1/devices/${DEV}/channels`]: (c) => {
        const all = below[c.query.get('under') ?? ''] ?? [];
        const start = Number(c.query.get('start'));
        return v1({ Channels: all.slice(start, start + Math.min(20, Number(c.query.get('limit')))), ChannelCount: all.length });
      },
    });
  const node = (name: string) => screen.getByText(name).closest('.ant-tree-treenode') as HTMLElement;
  const box = (name: string) => node(name).querySelector('.ant-tree-checkbox') as HTMLElement;
  // antd's Tree ignores a switcher click while an expand motion is still running (rc-tree's
  // listChanging), which a loaded machine stretches: the click is made again until the node is open.
  const expand = async (name: string, child: string) => {
    await waitFor(() => {
      if (!node(name).classList.contains('ant-tree-treenode-switcher-open')) fireEvent.click(node(name).querySelector('.ant-tree-switcher')!);
      expect(screen.getByText(child)).toBeInTheDocument();
    });
  };
  const ok = () => screen.getByRole('button', { name: /^\s*确\s*定\s*$/ });

  it('a folder’s box takes every camera below it at every depth, read page by page; half-ticked when some are unticked; unticked it gives them back', async () => {
    const api = serve();
    const onOk = vi.fn();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={onOk} />);
    await screen.findByText('GB NVR');
    await expand('GB NVR', '业务分组');
    fireEvent.click(box('业务分组'));
    expect(await screen.findByText('已选 31 项')).toBeInTheDocument();
    expect(api.callsTo(`/api/v1/devices/${DEV}/channels`).map((c) => [c.query.get('under'), c.query.get('start')])).toEqual([
      ['G', '0'],
      ['G', '20'],
    ]);
    expect(box('业务分组')).toHaveClass('ant-tree-checkbox-checked');
    // The device has a camera outside the folder: it is half-ticked.
    expect(box('GB NVR')).toHaveClass('ant-tree-checkbox-indeterminate');
    await waitFor(() => expect(box('业务分组')).not.toHaveClass('ant-tree-checkbox-disabled'));

    // One camera two folders down unticked: both folders are half-ticked.
    await expand('业务分组', '虚拟组织');
    await expand('虚拟组织', 'Cam O7');
    expect(box('虚拟组织')).toHaveClass('ant-tree-checkbox-checked');
    fireEvent.click(box('Cam O7'));
    expect(screen.getByText('已选 30 项')).toBeInTheDocument();
    expect(box('虚拟组织')).toHaveClass('ant-tree-checkbox-indeterminate');
    expect(box('业务分组')).toHaveClass('ant-tree-checkbox-indeterminate');

    // The inner folder ticked again takes its cameras: both folders are whole again.
    fireEvent.click(box('虚拟组织'));
    expect(await screen.findByText('已选 31 项')).toBeInTheDocument();
    expect(box('虚拟组织')).toHaveClass('ant-tree-checkbox-checked');
    expect(box('业务分组')).toHaveClass('ant-tree-checkbox-checked');
    await waitFor(() => expect(box('虚拟组织')).not.toHaveClass('ant-tree-checkbox-disabled'));

    // Unticked, the outer folder gives back all 31, the inner one's too.
    fireEvent.click(box('业务分组'));
    expect(screen.getByText('已选 0 项')).toBeInTheDocument();
    for (const name of ['业务分组', '虚拟组织', 'GB NVR']) {
      expect(box(name)).not.toHaveClass('ant-tree-checkbox-checked');
      expect(box(name)).not.toHaveClass('ant-tree-checkbox-indeterminate');
    }

    // Ticked again, OK sends the cameras (never the folder itself).
    fireEvent.click(box('虚拟组织'));
    expect(await screen.findByText('已选 30 项')).toBeInTheDocument();
    await waitFor(() => expect(ok()).toBeEnabled());
    fireEvent.click(ok());
    await waitFor(() => expect(onOk).toHaveBeenCalledTimes(1));
    expect(onOk.mock.calls[0]![0]).toEqual({
      channels: orgCams.map((c) => ({ DeviceID: DEV, ChannelID: c.ChannelID, Name: c.Name, DeviceName: 'GB NVR', EnableRecord: 1 })),
      devices: [],
    });
  });

  it('a folder whole through the box above it, unticked, is read first and gives back its cameras only', async () => {
    const api = serve();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={() => undefined} />);
    await screen.findByText('GB NVR');
    await expand('GB NVR', '业务分组');
    fireEvent.click(box('业务分组'));
    expect(await screen.findByText('已选 31 项')).toBeInTheDocument();
    await expand('业务分组', '虚拟组织');
    expect(box('虚拟组织')).toHaveClass('ant-tree-checkbox-checked');
    await waitFor(() => expect(box('业务分组')).not.toHaveClass('ant-tree-checkbox-disabled'));
    fireEvent.click(box('虚拟组织'));
    expect(await screen.findByText('已选 1 项')).toBeInTheDocument();
    expect(api.callsTo(`/api/v1/devices/${DEV}/channels`).map((c) => c.query.get('under'))).toEqual(['G', 'G', 'O', 'O']);
    expect(box('虚拟组织')).not.toHaveClass('ant-tree-checkbox-checked');
    expect(box('业务分组')).toHaveClass('ant-tree-checkbox-indeterminate');
    expect(box('Cam G1')).toHaveClass('ant-tree-checkbox-checked');
  });

  it('cameras ticked one by one half-tick every folder above them', async () => {
    serve();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={() => undefined} />);
    await screen.findByText('GB NVR');
    await expand('GB NVR', '业务分组');
    await expand('业务分组', '虚拟组织');
    await expand('虚拟组织', 'Cam O2');
    expect(box('业务分组')).not.toHaveClass('ant-tree-checkbox-indeterminate');
    fireEvent.click(box('Cam O2'));
    for (const name of ['虚拟组织', '业务分组', 'GB NVR']) expect(box(name)).toHaveClass('ant-tree-checkbox-indeterminate');
    fireEvent.click(box('Cam O2'));
    for (const name of ['虚拟组织', '业务分组', 'GB NVR']) expect(box(name)).not.toHaveClass('ant-tree-checkbox-indeterminate');
  });

  it('while a ticked folder is read, OK is disabled under its own name and the footer says so', async () => {
    let answer: (body: unknown) => void = () => undefined;
    stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [{ DeviceID: DEV, DeviceName: 'GB NVR' }], TotalCount: 1 }),
      '/api/v1/channelsconfig': () => v1({ Channels: [row('G', '', 1)], ChannelCount: 1 }),
      [`/api/v1/devices/${DEV}/channels`]: () => new Promise((resolve) => (answer = resolve)),
    });
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={() => undefined} />);
    await screen.findByText('GB NVR');
    await expand('GB NVR', '业务分组');
    fireEvent.click(box('业务分组'));
    expect(await screen.findByText('正在读取目录下的通道…')).toBeInTheDocument();
    expect(ok()).toBeDisabled();
    answer(v1({ Channels: [row('G1', 'G')], ChannelCount: 1 }));
    expect(await screen.findByText('已选 1 项')).toBeInTheDocument();
    await waitFor(() => expect(ok()).toBeEnabled());
  });

  it('says so when a ticked folder has no cameras, and picks nothing', async () => {
    stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [{ DeviceID: DEV, DeviceName: 'GB NVR' }], TotalCount: 1 }),
      '/api/v1/channelsconfig': () => v1({ Channels: [row('G', '', 1)], ChannelCount: 1 }),
      [`/api/v1/devices/${DEV}/channels`]: () => v1({ Channels: [], ChannelCount: 0 }),
    });
    const notices = captureNotices();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={() => undefined} />);
    await screen.findByText('GB NVR');
    await expand('GB NVR', '业务分组');
    fireEvent.click(box('业务分组'));
    await waitFor(() => expect(notices).toEqual(['warning:目录 业务分组 下没有可选的通道']));
    expect(screen.getByText('已选 0 项')).toBeInTheDocument();
    expect(box('业务分组')).not.toHaveClass('ant-tree-checkbox-checked');
  });

  it('a search’s “all results” takes the cameras it found, not a folder it found', async () => {
    stubApi({
      '/api/v1/devicesconfig': () => v1({ Devices: [], TotalCount: 0 }),
      '/api/v1/all/channels': () => v1({ Channels: [row('G', '', 1), row('T1', ''), row('G1', 'G')], ChannelCount: 3 }),
    });
    const onOk = vi.fn();
    renderConsole(<ChannelPicker open mode="channels" title="选择通道" onCancel={() => undefined} onOk={onOk} />);
    fireEvent.change(await screen.findByPlaceholderText('搜索通道名称 / ID'), { target: { value: 'x' } });
    fireEvent.click(await screen.findByRole('checkbox', { name: '全选搜索结果（2 个）' }));
    expect(screen.getByText('已选 2 项')).toBeInTheDocument();
    fireEvent.click(ok());
    await waitFor(() => expect(onOk).toHaveBeenCalledTimes(1));
    expect(onOk.mock.calls[0]![0].channels.map((c: { ChannelID: string }) => c.ChannelID)).toEqual(['T1', 'G1']);
  });
});
