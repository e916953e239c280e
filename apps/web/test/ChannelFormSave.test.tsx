/** Issue 3, spec 2/3: /device/channelform/{devid}/{chnid} loads the channel, saves the changed fields through editchannel and goes back to the list. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { ChannelRow } from '@opencvr/shared';
import ChannelFormPage from '../src/features/devices/pages/ChannelFormPage';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

const DEV = '1001';
const channel = {
  ChannelID: '3',
  ParentDeviceID: DEV,
  DeviceName: 'Front gate',
  Name: 'Lobby',
  Parental: 0,
  GBID: '3',
  Protocol: 'RTSP',
  RtspUrl: 'rtsp://10.0.0.9/s',
  Transport: 'TCP',
  Online: 0,
  Enable: 1,
  OnDemand: 1,
  FavoritesChannel: 0,
} as unknown as ChannelRow;

let api: ReturnType<typeof stubApi>;
let notices: string[];

beforeEach(() => {
  notices = captureNotices();
  useSession.getState().login('tok-admin', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
  api = stubApi({
    '/api/v1/channelsconfig': () => v1({ Channels: [channel], ChannelCount: 1 }),
    'POST /api/v1/editchannel': () => v1({ ChannelID: '3', DeviceID: DEV }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

function renderForm() {
  renderConsole(
    <Routes>
      <Route path="/device/channelform/:devid/:chnid" element={<ChannelFormPage />} />
      <Route path="/device/channel/:devid" element={<div>channel list page</div>} />
    </Routes>,
    { path: `/device/channelform/${DEV}/3?deviceName=Front%20gate&deviceType=RTSP&channelName=Lobby` },
  );
}

// antd's first render in jsdom compiles its styles synchronously: slow on a busy machine.
describe('ChannelFormPage saving', { timeout: 60_000 }, () => {
  it('sends editchannel with the changed name for this device and channel, then goes back', async () => {
    renderForm();
    const name = (await screen.findByLabelText('通道名称')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Lobby'));
    expect(api.callsTo('/api/v1/channelsconfig')[0]!.query.get('device')).toBe(DEV);

    fireEvent.change(name, { target: { value: '  Main lobby ' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));

    await waitFor(() => expect(api.callsTo('/api/v1/editchannel', 'POST')).toHaveLength(1));
    const edit = api.callsTo('/api/v1/editchannel', 'POST')[0]!;
    expect(edit.body).toMatchObject({ ParentDeviceID: DEV, ChannelID: '3', Name: 'Main lobby', RtspUrl: 'rtsp://10.0.0.9/s' });
    // identity and place in the tree are not sent on an edit
    expect(edit.body).not.toHaveProperty('Parental');
    expect(edit.body).not.toHaveProperty('ParentID');
    expect(await screen.findByText('channel list page')).toBeInTheDocument();
    expect(notices).toContain('success:修改成功!');
  });

  it('sends nothing when the name is blanked', async () => {
    renderForm();
    const name = (await screen.findByLabelText('通道名称')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Lobby'));
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('请输入通道名称')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/editchannel')).toHaveLength(0);
  });
});
