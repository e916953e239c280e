/**
 * The playback pages of a GB28181 channel. The timeline page with no platform recordings offers the
 * device's and keeps the choice in the address. The recording list: with no platform recordings it offers the device's, lists
 * the files kept on the device (RecordInfo) with their record type, and its play button opens the
 * timeline on the device's recordings at that file (the source travels in the address).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BacktimePage from '../src/features/playback/pages/BacktimePage';
import BackchannelPage from '../src/features/playback/pages/BackchannelPage';
import BacklistPage from '../src/features/playback/pages/BacklistPage';
import { clearSession } from '../src/lib/session';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';
import { Where } from './helpers/where';

const DAY = '20261127';
const DEV = '34020000001180000001';
const CH = '34020000001310000001';

beforeEach(() => loginAdmin());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('/video/backtime of a GB28181 channel', { timeout: 30_000 }, () => {
  it('offers the device recordings, lists its files with their type, and plays one on the device timeline', async () => {
    const file = (from: string, to: string, Type: string) => ({ name: 'f', startAt: `${DAY}${from}`, endAt: `${DAY}${to}`, duration: 600, FilePath: '/d/1.mp4', Type, FileSize: 0 });
    const api = stubApi({
      [`/api/v1/devices/${DEV}/channels`]: () => v1({ Channels: [{ ChannelID: CH, ParentDeviceID: DEV, DeviceName: 'NVR', Name: '大门口', DeviceType: 'GB28181' }], ChannelCount: 1 }),
      '/api/v1/record/querydaily': () => ({ total: 0, list: [] }),
      '/api/v1/devices/record/files': () =>
        v1({ Total: 2, RecordList: [file('010000', '011000', 'time'), file('090000', '093000', 'alarm')], Complete: 1, Received: 2, SumNum: 2 }),
    });
    renderConsole(
      <>
        <Routes>
          <Route path="/video/backtime/:devid/:chnid/:day" element={<BacktimePage />} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </>,
      { path: `/video/backtime/${DEV}/${CH}/${DAY}` },
    );
    fireEvent.click(await screen.findByTestId('try-device-source'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`/video/backtime/${DEV}/${CH}/${DAY}?source=Device`));
    const row = (await screen.findByText('09:00:00 – 09:30:00')).closest('tr')!;
    expect(row).toHaveTextContent('报警录像');
    expect(screen.getByText('01:00:00 – 01:10:00').closest('tr')).toHaveTextContent('定时录像');
    expect(api.callsTo('/api/v1/devices/record/files')[0].query.get('id')).toBe(`${DEV}:${CH}`);
    fireEvent.click(within(row).getByRole('button', { name: /播\s*放/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`/video/backchannel/${DEV}/${CH}/${DAY}?t=${9 * 3600}&source=Device`));
  });
});

describe('/video/backchannel of a GB28181 channel', { timeout: 30_000 }, () => {
  it('with no platform recordings that day offers the device recordings, asked with recordType=Device, and keeps the choice in the address', async () => {
    const api = stubApi({
      [`/api/v1/devices/${DEV}/channels`]: () => v1({ Channels: [{ ChannelID: CH, ParentDeviceID: DEV, DeviceName: 'NVR', Name: '大门口', DeviceType: 'GB28181' }], ChannelCount: 1 }),
      '/api/v1/record/querymonthly': () => '0'.repeat(30),
      '/api/v1/record/querydaily': (c) =>
        c.query.get('recordType') === 'Device'
          ? { total: 1, list: [{ name: 'a', startAt: `${DAY}010000`, endAt: `${DAY}030000`, duration: 7200, important: 0 }], complete: 1, received: 12, sumNum: 12 }
          : { total: 0, list: [] },
    });
    renderConsole(
      <>
        <Routes>
          <Route path="/video/backchannel/:devid/:chnid/:day" element={<BackchannelPage />} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </>,
      { path: `/video/backchannel/${DEV}/${CH}/${DAY}` },
    );
    fireEvent.click(await screen.findByTestId('try-device-source'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`/video/backchannel/${DEV}/${CH}/${DAY}?source=Device`));
    expect(await screen.findByTestId('day-summary')).toHaveTextContent('02:00:00');
    expect(api.callsTo('/api/v1/record/querydaily').at(-1)!.query.get('recordType')).toBe('Device');
    // The list page keeps the source.
    // By its text, not by role: a role query over the whole page builds its accessibility tree, about
    // a third of this test's CPU, and the test ran out of its 30 s on a loaded machine.
    fireEvent.click(screen.getByText('录像列表').closest('button')!);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`/video/backtime/${DEV}/${CH}/${DAY}?source=Device`));
  });
});

describe('a device that cannot be asked', { timeout: 30_000 }, () => {
  it('the day card says why the list is missing (the server’s answer), not that the day has no recordings', async () => {
    // No querydaily stub: the stub answers 404 with its text, as the server answers 409 for an offline device.
    stubApi({
      [`/api/v1/devices/${DEV}/channels`]: () => v1({ Channels: [{ ChannelID: CH, ParentDeviceID: DEV, DeviceName: 'NVR', Name: '大门口', DeviceType: 'GB28181' }], ChannelCount: 1 }),
      '/api/v1/record/querymonthly': () => '0'.repeat(30),
    });
    renderConsole(
      <Routes>
        <Route path="/video/backchannel/:devid/:chnid/:day" element={<BackchannelPage />} />
      </Routes>,
      { path: `/video/backchannel/${DEV}/${CH}/${DAY}?source=Device` },
    );
    expect(await screen.findByTestId('day-error')).toHaveTextContent('no stub for GET /api/v1/record/querydaily');
    expect(screen.queryByText('当天没有录像')).toBeNull();
  });
});

describe('/video/backlist of a GB28181 device', { timeout: 30_000 }, () => {
  it('a channel row opens its recordings on the device (today there are none on the platform)', async () => {
    stubApi({
      '/api/v1/devices': () => v1({ Devices: [{ DeviceID: DEV, DeviceName: 'NVR', DeviceType: 'GB28181' }], TotalCount: 1 }),
      '/api/v1/channels': () => v1({ Channels: [{ ChannelID: CH, ParentDeviceID: DEV, DeviceName: 'NVR', Name: '大门口', DeviceType: 'GB28181', Parental: 0 }], ChannelCount: 1 }),
      '/api/v1/record/querydevices': () => v1({ Channels: [], Total: 0 }),
    });
    renderConsole(
      <>
        <Routes>
          <Route path="/video/backlist/:devid" element={<BacklistPage />} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </>,
      { path: `/video/backlist/${DEV}` },
    );
    fireEvent.click(await screen.findByTestId('backlist-device-records'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toMatch(new RegExp(`^/video/backchannel/${DEV}/${CH}/\\d{8}\\?source=Device$`)));
  });
});
