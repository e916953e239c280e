/**
 * /video/backlist: a GB28181 channel's 设备录像 is the row's action, in the 操作 column the list
 * pins at the right on a phone, beside the channel columns that scroll sideways (it was a column
 * of its own, without a title, that scrolled out of sight with them).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BacklistPage from '../src/features/playback/pages/BacklistPage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { channelsPage, searchedDevices } from './helpers/lists';
import { loginAdmin, logout } from './helpers/dialogs';
import { wideWindow } from './helpers/viewport';

const NVR = '34020000001320000001';

beforeEach(() => {
  captureNotices();
  loginAdmin();
  stubApi({
    '/api/v1/record/querydevices': () => v1({ Channels: [], Total: 0 }),
    '/api/v1/channels': (c) =>
      channelsPage(c, [
        { ChannelID: '34020000001310000001', ParentDeviceID: NVR, Name: 'Gate', DeviceType: 'GB28181', EnableRecord: 0 },
      ]),
    '/api/v1/devices': searchedDevices([{ DeviceID: NVR, DeviceName: 'NVR', DeviceType: 'GB28181' }]),
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  logout();
});

const open = () =>
  renderConsole(
    <Routes>
      <Route path="/video/backlist/:devid" element={<BacklistPage />} />
    </Routes>,
    { path: `/video/backlist/${NVR}` },
  );

describe('BacklistPage: the device recordings action', () => {
  it('is in the 操作 column, pinned at the right on a phone', async () => {
    open();
    const action = await screen.findByTestId('backlist-device-records');
    expect(action).toHaveTextContent('设备录像');
    const cell = action.closest('td')!;
    expect(cell).toHaveClass('ant-table-cell-fix-end');
    const header = screen.getByRole('columnheader', { name: '操作' }) as HTMLTableCellElement;
    expect(header).toHaveClass('ant-table-cell-fix-end');
    expect(header.cellIndex).toBe(cell.cellIndex);
  });

  it('is in the 操作 column in a wide window too', async () => {
    wideWindow();
    open();
    const cell = (await screen.findByTestId('backlist-device-records')).closest('td')!;
    expect((screen.getByRole('columnheader', { name: '操作' }) as HTMLTableCellElement).cellIndex).toBe(cell.cellIndex);
  });
});
