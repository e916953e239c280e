/**
 * Spec 2 route table: /news/list (message list with read then delete), /version/index (version and
 * the help topics with their jump targets) and /ai/dashboard (server figures, bytes in base 1024).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { VERSION, type NewsItem, type OtherConfig, type ServerInfo, type StateDevice, type StateTop } from '@opencvr/shared';
import NewsListPage from '../src/features/news/pages/NewsListPage';
import VersionPage from '../src/features/version/pages/VersionPage';
import DashboardPage from '../src/features/dashboard/pages/DashboardPage';
import { clearSession } from '../src/lib/session';
import { useConfig } from '../src/lib/stores/config';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { atAnyPath } from './helpers/where';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => {} }));

const GiB = 1024 ** 3;
const v2 = <T,>(data: T) => ({ code: 200, msg: 'OK', data });
/** The rows of an antd List (their action lists are list items too). */
const listRows = () => [...document.querySelectorAll<HTMLElement>('.ant-list-item')];
const findRows = (n?: number) =>
  waitFor(() => {
    const rows = listRows();
    expect(rows.length).toBeGreaterThan(0);
    if (n !== undefined) expect(rows).toHaveLength(n);
    return rows;
  });

beforeEach(() => {
  captureNotices();
  clearSession();
  useSession.getState().login('tok', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('/news/list', { timeout: 30_000 }, () => {
  const item = (ID: number, Status: 'ON' | 'OFF', sign: 0 | 1): NewsItem => ({
    ID,
    Status,
    DeviceID: `3402000000132000000${ID}`,
    ChannelID: `ch${ID}`,
    ChannelName: `Gate ${ID}`,
    NewsTime: `2026-01-01 10:0${ID}:00`,
    sign,
  });

  it('lists newslist rows (device, channel, 上线/离线, time); read then delete', async () => {
    const api = stubApi({
      '/api/v1/newslist': () => v1({ total: 2, unread: 1, list: [item(2, 'OFF', 0), item(1, 'ON', 1)] }),
      'POST /api/v1/news/read': () => v1({}),
      'POST /api/v1/news/delete': () => v1({}),
    });
    renderConsole(<NewsListPage />, { path: '/news/list' });
    const rows = await findRows(2);
    expect(rows[0]).toHaveTextContent('Gate 2');
    expect(rows[0]).toHaveTextContent('离线');
    expect(rows[0]).toHaveTextContent('34020000001320000002');
    expect(rows[0]).toHaveTextContent('2026-01-01 10:02:00');
    expect(rows[1]).toHaveTextContent('Gate 1');
    expect(rows[1]).toHaveTextContent('上线');
    expect(api.callsTo('/api/v1/newslist')[0]!.query.get('start')).toBe('0');

    // Unread: read first; read: delete.
    expect(within(rows[0]!).getByRole('button', { name: /已\s*读/ })).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(within(rows[1]!).getByRole('button', { name: /删\s*除/ })).toBeInTheDocument();

    fireEvent.click(within(rows[0]!).getByRole('button', { name: /已\s*读/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/news/read', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/news/read')[0]!.body).toEqual({ id: '2' });
    await waitFor(() => expect(within(listRows()[0]!).getByRole('button', { name: /删\s*除/ })).toBeInTheDocument());

    fireEvent.click(within(listRows()[0]!).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/news/delete', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/news/delete')[0]!.body).toEqual({ id: '2' });
    await waitFor(() => expect(listRows()).toHaveLength(1));
    expect(listRows()[0]).toHaveTextContent('Gate 1');
  });

  it('read all marks every row read', async () => {
    const api = stubApi({
      '/api/v1/newslist': () => v1({ total: 2, unread: 2, list: [item(2, 'OFF', 0), item(1, 'ON', 0)] }),
      'POST /api/v1/news/read': () => v1({}),
    });
    renderConsole(<NewsListPage />, { path: '/news/list' });
    await findRows(2);
    fireEvent.click(screen.getByRole('button', { name: '全部已读' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: /删\s*除/ })).toHaveLength(2));
    expect(api.callsTo('/api/v1/news/read')[0]!.body).toEqual({});
  });
});

describe('/version/index', { timeout: 30_000 }, () => {
  const info = { Server: 'OpenCVR', Version: '3.7.3', VersionType: 'community', InterfaceVersion: 'v1', ChannelCount: 64, Hardware: 'x86_64', NodeVersion: 'v22.0.0', StartUpTime: '2026-01-01 00:00:00', RunningTime: '1天' } as ServerInfo;
  const topics: [string, string][] = [
    ['录像计划', '/config/recording'],
    ['版本信息', '/version/index'],
    ['基础配置', '/config/base'],
    ['用户管理', '/user/index'],
    ['设备接入配置', '/config/device'],
  ];

  it('shows version 3.7.3 and the server figures', async () => {
    stubApi({ '/api/v1/getserverinfo': () => v1(info) });
    renderConsole(atAnyPath(<VersionPage />), { path: '/version/index' });
    expect(VERSION).toBe('3.7.3');
    const console = (await screen.findByText('平台版本')).closest('tr')!;
    expect(console).toHaveTextContent('3.7.3');
    expect(screen.getByText('通道数量').closest('tr')).toHaveTextContent('64');
    expect(screen.getByText('OpenCVR 3.7.3')).toBeInTheDocument();
  });

  it.each(topics)('help topic %s jumps to %s', async (title, to) => {
    stubApi({ '/api/v1/getserverinfo': () => v1(info) });
    renderConsole(atAnyPath(<VersionPage />), { path: '/ai/dashboard' });
    // Every topic of spec 2 with its description.
    const items = await findRows(5);
    expect(items.map((li) => li.querySelector('.ant-list-item-meta-title')?.textContent)).toEqual(topics.map(([t]) => t));
    const row = items.find((li) => li.querySelector('.ant-list-item-meta-title')?.textContent === title)!;
    fireEvent.click(within(row).getByRole('button', { name: /前\s*往/ }));
    expect(screen.getByTestId('where')).toHaveTextContent(to);
  });

  it('descriptions name the topics of spec 2', async () => {
    stubApi({ '/api/v1/getserverinfo': () => v1(info) });
    renderConsole(atAnyPath(<VersionPage />), { path: '/version/index' });
    expect(await screen.findByText('录像计划、计划编辑、录像保存天数')).toBeInTheDocument();
    expect(screen.getByText('通道数量、升级版本、HTTPS证书上传')).toBeInTheDocument();
    expect(screen.getByText('RTMP、RTSP、HLS内核开关，级联，播放地址鉴权，站点标题文字')).toBeInTheDocument();
    expect(screen.getByText('添加用户')).toBeInTheDocument();
    expect(screen.getByText('设备信息、国标密码')).toBeInTheDocument();
  });

  it('without RecordVersion the recording topic is gone', async () => {
    useConfig.getState().setOtherConfig({ Initial: false, Title: '', Version: '', RecordVersion: false } as unknown as OtherConfig);
    stubApi({ '/api/v1/getserverinfo': () => v1(info) });
    renderConsole(atAnyPath(<VersionPage />), { path: '/version/index' });
    await screen.findByText('基础配置');
    expect(screen.queryByText('录像计划')).toBeNull();
    expect(listRows()).toHaveLength(4);
  });
});

describe('/ai/dashboard', { timeout: 30_000 }, () => {
  const info = {
    Version: '3.7.3',
    StartUpTime: '2026-01-01 00:00:00',
    RunningSeconds: 90061,
    Hostname: 'cvr-host',
    Platform: 'linux',
    Database: 'sqlite',
    LoadAvg: [0.5, 0.25, 0.125],
    DiskPath: '/data',
    CPUModel: 'Test CPU',
    CPUCount: 8,
  } as ServerInfo;
  const top: StateTop = {
    cpu: 12.34,
    memory: { total: 8 * GiB, used: 3 * GiB },
    disk: { total: 1024 * GiB, used: 256 * GiB },
    network: { rx: 1536, tx: 5 * 1024 * 1024 },
    uptime: 90061,
    time: '2026-01-02 01:01:01',
  };
  const device: StateDevice = { devices: { total: 5, online: 3 }, channels: { total: 12, online: 7 }, users: 4 };

  it('renders the figures from getserverinfo, state/top and state/device, bytes in base 1024', async () => {
    const api = stubApi({
      '/api/v1/getserverinfo': () => v1(info),
      '/api/v2/state/top': () => v2(top),
      '/api/v2/state/device': () => v2(device),
    });
    renderConsole(<DashboardPage />, { path: '/ai/dashboard' });
    // 3 GiB of 8 GiB: base 1000 would print 3.22 GB / 8.59 GB.
    expect(await screen.findByText('3.00 GB / 8.00 GB')).toBeInTheDocument();
    expect(screen.getByText('256.00 GB / 1.00 TB')).toBeInTheDocument();
    expect(screen.getByText('↓ 1.50 KB/s ↑ 5.00 MB/s', { normalizer: (s) => s.replace(/\s+/g, ' ').trim() })).toBeInTheDocument();
    expect(screen.getByText('3 / 5')).toBeInTheDocument();
    expect(screen.getByText('7 / 12')).toBeInTheDocument();
    expect(screen.getByText('Test CPU × 8')).toBeInTheDocument();
    expect(screen.getByText('cvr-host')).toBeInTheDocument();
    expect(screen.getByText('sqlite')).toBeInTheDocument();
    expect(screen.getByText('0.50 / 0.25 / 0.13')).toBeInTheDocument();
    // 1 d 1 h 1 m 1 s.
    expect(screen.getByText('1天 1时 1分 1秒')).toBeInTheDocument();
    // Progress: memory 37.5 %, disk 25 %, CPU 12.3 %.
    const progress = [...document.querySelectorAll('[role="progressbar"]')].map((p) => p.getAttribute('aria-valuenow'));
    expect(progress).toEqual(['12.3', '37.5', '25']);
    for (const p of ['/api/v1/getserverinfo', '/api/v2/state/top', '/api/v2/state/device']) expect(api.callsTo(p).length, p).toBeGreaterThan(0);
  });
});
