/**
 * /video/backlist's device picker at a site's size (1,500 cameras): a page of matches from the
 * server as the operator types (it loaded every device, devices limit 9999, to fill the dropdown),
 * a device opened from the address keeps its name though it is not on the first page, and the
 * channels recorded today are tags a page at a time (a site that records every camera had 1,500); an
 * NVR's channels come from the server a page at a time, searched there.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BacklistPage from '../src/features/playback/pages/BacklistPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { channelsPage, searchedDevices, siteDevices } from './helpers/lists';
import { loginAdmin, logout } from './helpers/dialogs';
import { today } from '../src/features/playback/day';

const DEVICES = siteDevices(1500);

let recorded: { id: string; DeviceID: string; ChannelID: string; Name: string }[] = [];
let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  recorded = [];
  captureNotices();
  loginAdmin();
  api = stubApi({
    '/api/v1/record/querydevices': (c) => {
      const start = Number(c.query.get('start') ?? 0);
      const limit = c.query.get('limit');
      return v1({ Channels: limit ? recorded.slice(start, start + Number(limit)) : recorded, Total: recorded.length });
    },
    '/api/v1/channels': (c) => {
      const q = c.query.get('q') ?? '';
      const nvr = Array.from({ length: 500 }, (_, i) => ({ ChannelID: String(i + 1), ParentDeviceID: c.query.get('device'), Name: `NVR ch ${i + 1}`, Parental: 0 })).filter(
        (x) => !q || x.Name.includes(q) || x.ChannelID.includes(q),
      );
      return channelsPage(c, nvr);
    },
    '/api/v1/devices': searchedDevices(DEVICES),
    // A device by its exact ID (the one of the address); an unknown one is answered 404 in its test.
    '/api/v1/deviceinfo': (c) => v1(DEVICES.find((x) => x.DeviceID === c.query.get('device'))!),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  logout();
});

const open = (path: string) =>
  renderConsole(
    <Routes>
      <Route path="/video/backlist/:devid" element={<BacklistPage />} />
    </Routes>,
    { path },
  );

describe('BacklistPage: the device picker with 1,500 devices', { timeout: 60_000 }, () => {
  it('lists a page of matches and searches on the server', async () => {
    open('/video/backlist/0');
    const box = within(await screen.findByTestId('backlist-device')).getByRole('combobox');
    fireEvent.mouseDown(box);
    expect(await screen.findByText('还有 1450 个设备：输入名称 / ID / IP 查找')).toBeInTheDocument();
    fireEvent.change(box, { target: { value: 'cam-1234' } });
    expect(await screen.findByText('cam-1234 (1234)', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(api.callsTo('/api/v1/devices').at(-1)!.query.get('q')).toBe('cam-1234');
    for (const c of api.callsTo('/api/v1/devices')) expect(Number(c.query.get('limit'))).toBeLessThanOrEqual(50);
  });

  it('asks for the devices when the picker opens, once: drawn, it leaves the first page to the video tree', async () => {
    // The page asked devices?start=0&limit=50 as it was drawn, beside the sidebar tree's same page:
    // twice on every visit. A device from the address is named by one call, not the page and then it.
    open('/video/backlist/0');
    const box = within(await screen.findByTestId('backlist-device')).getByRole('combobox');
    await screen.findByText('请选择设备');
    expect(api.callsTo('/api/v1/devices')).toHaveLength(0);
    fireEvent.mouseDown(box);
    expect(await screen.findByText('cam-0001 (1)')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/devices').map((c) => [c.query.get('start'), c.query.get('limit'), c.query.get('q')])).toEqual([['0', '50', null]]);
    cleanup();
    api.calls.length = 0;
    open('/video/backlist/3');
    const picker = await screen.findByTestId('backlist-device');
    await waitFor(() => expect(within(picker).getByText('cam-0003 (3)')).toBeInTheDocument());
    // By its exact ID (a search for "3" can list 50 others first), and only that.
    expect(api.callsTo('/api/v1/devices')).toHaveLength(0);
    expect(api.callsTo('/api/v1/deviceinfo').map((c) => c.query.get('device'))).toEqual(['3']);
  });

  it('says a device of the address the server does not list is not there, instead of an empty channel list', async () => {
    // /video/backlist/9999 showed 9999 in the picker over 暂无数据 (the channels of an unknown device answer empty).
    // The server: deviceinfo 404, and the channel list of an unknown device empty (it answers any ID).
    const stubbed = api.fetchMock;
    const json = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://console.test');
      if (url.searchParams.get('device') !== '9999') return stubbed(input, init);
      if (url.pathname === '/api/v1/deviceinfo') return json({ code: 404, msg: '设备 9999 不存在' }, 404);
      if (url.pathname === '/api/v1/channels') return json(v1({ Channels: [], ChannelCount: 0 }));
      return stubbed(input, init);
    });
    const notices = captureNotices();
    open('/video/backlist/9999');
    expect(await screen.findByTestId('backlist-device-missing')).toHaveTextContent('没有可查看的设备 9999，请从列表中选择设备');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByTestId('backlist-search')).toBeNull();
    // Said once, on the page: the 404 is no notice.
    expect(notices).toEqual([]);
    cleanup();
    open('/video/backlist/1400');
    expect(await screen.findByText('NVR ch 20')).toBeInTheDocument();
    expect(screen.queryByTestId('backlist-device-missing')).toBeNull();
  });

  it('names a device from the address that is beyond the first page', async () => {
    open('/video/backlist/1400');
    const picker = await screen.findByTestId('backlist-device');
    await waitFor(() => expect(within(picker).getByText('cam-1400 (1400)')).toBeInTheDocument());
  });

  it('shows the channels recorded today a page at a time', async () => {
    recorded = DEVICES.map((d) => ({ id: `${d.DeviceID}:1`, DeviceID: d.DeviceID, ChannelID: '1', Name: `${d.DeviceName} ch1` }));
    open('/video/backlist/0');
    expect(await screen.findByText('cam-0001 ch1')).toBeInTheDocument();
    expect(screen.getAllByText(/^cam-\d+ ch1$/)).toHaveLength(50);
    fireEvent.click(screen.getByTitle('30'));
    expect(await screen.findByText('cam-1500 ch1')).toBeInTheDocument();
    expect(screen.getAllByText(/^cam-\d+ ch1$/)).toHaveLength(50);
    // The server answers the page of tags shown, not all 1,500.
    const calls = api.callsTo('/api/v1/record/querydevices');
    for (const c of calls) expect(c.query.get('limit')).toBe('50');
    expect(calls.at(-1)!.query.get('start')).toBe('1450');
    // the total, as the other paged lists say it (session 26 walk: no count under 30 pages of tags)
    expect(screen.getByText('共 1500 个通道')).toBeInTheDocument();
  });

  it("asks the server for the page of an NVR's channels shown", async () => {
    open('/video/backlist/1400');
    expect(await screen.findByText('NVR ch 20')).toBeInTheDocument();
    expect(screen.queryByText('NVR ch 21')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTitle('25'));
    expect(await screen.findByText('NVR ch 500')).toBeInTheDocument();
    const calls = api.callsTo('/api/v1/channels');
    expect(calls.at(-1)!.query.get('start')).toBe('480');
    for (const c of calls) expect(c.query.get('limit')).toBe('20');
    expect(screen.getByText('共 500 个通道')).toBeInTheDocument();
  });

  it('shows no empty column when none of the channels has recordings on its device', async () => {
    // The column of the "on the device" button (GB28181 cameras) stood as a blank header and blank
    // cells beside every RTSP camera.
    open('/video/backlist/1400');
    expect(await screen.findByText('NVR ch 20')).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['通道编号', '通道名称', '今日录像', '开启录像']);
  });

  it('opens a channel from the keyboard: its name and its recorded-today tag are links to its recordings', async () => {
    // The row and the tag took a click only: Tab never reached a channel of the list.
    const day = today();
    recorded = [{ id: '1400:7', DeviceID: '1400', ChannelID: '7', Name: 'Gate ch7' }];
    open('/video/backlist/0');
    expect(await screen.findByRole('link', { name: 'Gate ch7' })).toHaveAttribute('href', `/video/backchannel/1400/7/${day}`);
    cleanup();
    open('/video/backlist/1400');
    const link = await screen.findByRole('link', { name: 'NVR ch 3' });
    expect(link).toHaveAttribute('href', `/video/backchannel/1400/3/${day}`);
  });

  it("searches an NVR's channels on the server, from page 1", async () => {
    open('/video/backlist/1400');
    expect(await screen.findByText('NVR ch 20')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('3'));
    expect(await screen.findByText('NVR ch 60')).toBeInTheDocument();
    fireEvent.change(within(screen.getByTestId('backlist-search')).getByRole('searchbox'), { target: { value: 'ch 250' } });
    expect(await screen.findByText('NVR ch 250', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getAllByText(/^NVR ch \d+$/)).toHaveLength(1);
    const last = api.callsTo('/api/v1/channels').at(-1)!;
    expect(last.query.get('q')).toBe('ch 250');
    expect(last.query.get('start')).toBe('0');
  });
});
