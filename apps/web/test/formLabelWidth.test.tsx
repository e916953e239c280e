/**
 * Spec 9 "form label width 165": the console's page forms (device, channel) give their labels a
 * 165 px column, so the fields line up whatever the label's length.
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { FORM_LABEL_WIDTH, type ChannelRow } from '@opencvr/shared';
import DeviceFormPage from '../src/features/devices/pages/DeviceFormPage';
import ChannelFormPage from '../src/features/devices/pages/ChannelFormPage';
import { adminSessionPerTest } from './helpers/session';
import { renderConsole, stubApi, v1 } from './helpers/console';

adminSessionPerTest();

/** The flex of every label column in the page's form. */
const labelColumns = () =>
  [...document.querySelectorAll<HTMLElement>('.ant-form-item-label')].map((el) => el.style.flex);

describe('form label width', { timeout: 60_000 }, () => {
  it('is 165 px on the add-device form', async () => {
    stubApi({});
    renderConsole(
      <Routes>
        <Route path="/device/form/:devid" element={<DeviceFormPage />} />
      </Routes>,
      { path: '/device/form/0' },
    );
    await screen.findByLabelText('设备名称');
    expect(FORM_LABEL_WIDTH).toBe(165);
    const cols = labelColumns();
    expect(cols.length).toBeGreaterThan(2);
    expect(new Set(cols)).toEqual(new Set(['0 0 165px']));
  });

  it('is 165 px on the channel form', async () => {
    const channel = { ChannelID: '3', ParentDeviceID: '1001', DeviceName: 'Gate', Name: 'Lobby', Protocol: 'RTSP', RtspUrl: 'rtsp://10.0.0.9/s', Transport: 'TCP', Online: 0, Enable: 1, OnDemand: 1 } as unknown as ChannelRow;
    stubApi({ '/api/v1/channelsconfig': () => v1({ Channels: [channel], ChannelCount: 1 }) });
    renderConsole(
      <Routes>
        <Route path="/device/channelform/:devid/:chnid" element={<ChannelFormPage />} />
      </Routes>,
      { path: '/device/channelform/1001/3?deviceName=Gate&deviceType=RTSP&channelName=Lobby' },
    );
    await screen.findByLabelText('通道名称');
    const cols = labelColumns();
    expect(cols.length).toBeGreaterThan(2);
    expect(new Set(cols)).toEqual(new Set(['0 0 165px']));
  });
});
