/**
 * The recording list of a GB28181 channel (?source=Device): a file downloaded from the device is
 * cancelled on the server (downloadrecord/stop) by the row's cancel button, or when the page is left
 * while the device still sends, so the device is told to stop (BYE) and the server's part file goes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BacktimePage from '../src/features/playback/pages/BacktimePage';
import { clearSession } from '../src/lib/session';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

const DAY = '20261127';
const DEV = '34020000001180000001';
const CH = '34020000001310000001';
const ID = 'c'.repeat(32);

beforeEach(() => loginAdmin());
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

/** The list with one file on the device, its download answered as still coming from the device. */
async function openList() {
  const channel = () => v1({ Channels: [{ ChannelID: CH, ParentDeviceID: DEV, DeviceName: 'NVR', Name: '大门口', DeviceType: 'GB28181' }], ChannelCount: 1 });
  const info = (State: string, Progress: number) => v1({ request_id: ID, State, Progress, Reason: '', URL: '', Name: 'a.mp4' });
  const api = stubApi({
    [`/api/v1/devices/${DEV}/channels`]: channel,
    '/api/v1/channels': channel,
    '/api/v1/devices/record/files': () =>
      v1({ Total: 1, RecordList: [{ name: 'f', startAt: `${DAY}090000`, endAt: `${DAY}093000`, duration: 1800, FilePath: '/d/1.mp4', Type: 'time', FileSize: 0 }], Complete: 1, Received: 1, SumNum: 1 }),
    [`/api/v1/downloaddevicerecord/${encodeURIComponent(`${DEV}:${CH}`)}/${DAY}090000/1800`]: () => info('downloading', 5),
    '/api/v1/downloadrecord/streaminfo': () => info('downloading', 10),
    '/api/v1/downloadrecord/stop': () => info('cancelled', 10),
  });
  const view = renderConsole(
    <Routes>
      <Route path="/video/backtime/:devid/:chnid/:day" element={<BacktimePage />} />
    </Routes>,
    { path: `/video/backtime/${DEV}/${CH}/${DAY}?source=Device` },
  );
  const row = (await screen.findByText('09:00:00 – 09:30:00')).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: /下\s*载/ }));
  await waitFor(() => expect(api.callsTo('/api/v1/downloadrecord/streaminfo').length).toBeGreaterThan(0));
  expect(api.callsTo('/api/v1/downloadrecord/stop')).toHaveLength(0);
  return { api, view, row };
}

describe('/video/backtime?source=Device download', { timeout: 30_000 }, () => {
  it('the row\'s cancel button stops the download on the server and gives the download button back', async () => {
    const { api, row } = await openList();
    fireEvent.click(within(row).getByRole('button', { name: /取消下载/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/downloadrecord/stop')).toHaveLength(1));
    expect(api.callsTo('/api/v1/downloadrecord/stop')[0].query.get('request_id')).toBe(ID);
    await waitFor(() => expect(within(row).getByRole('button', { name: /下\s*载/ })).toBeInTheDocument());
  });

  it('leaving the page while the device sends the file stops the download on the server', async () => {
    const { api, view } = await openList();
    view.unmount();
    await waitFor(() => expect(api.callsTo('/api/v1/downloadrecord/stop')).toHaveLength(1));
    expect(api.callsTo('/api/v1/downloadrecord/stop')[0].query.get('request_id')).toBe(ID);
  });
});
