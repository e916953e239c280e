/**
 * The channel form of an rtsps:// or https:// channel shows its server certificate (channelsconfig's TlsCert,
 * administrators only): the pinned fingerprint, none pinned yet, or an authority's; while the camera
 * presents another certificate, both fingerprints and "trust the new certificate", whose confirmation
 * shows both and whose editchannel carries exactly the fingerprint shown (TlsPin). Operators and
 * rtsp:// channels see nothing of it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { ChannelRow, TlsCertStatus } from '@opencvr/shared';
import ChannelFormPage from '../src/features/devices/pages/ChannelFormPage';
import { setLang } from '../src/i18n';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

const DEV = '1001';
const OLD = Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).padStart(2, '0').toUpperCase()).join(':');
const NEW = Array.from({ length: 32 }, (_, i) => (255 - i * 5).toString(16).padStart(2, '0').toUpperCase()).join(':');

const row = (TlsCert: TlsCertStatus | undefined, RtspUrl = 'rtsps://10.0.0.9:322/s') =>
  ({
    ChannelID: '3',
    ParentDeviceID: DEV,
    DeviceName: 'Front gate',
    Name: 'Lobby',
    Parental: 0,
    Protocol: 'RTSP',
    RtspUrl,
    Transport: 'TCP',
    Enable: 1,
    OnDemand: 1,
    Online: 0,
    EnableCdn: 0,
    ...(TlsCert ? { TlsCert } : {}),
  }) as unknown as ChannelRow;

let current: ChannelRow;
let api: ReturnType<typeof stubApi>;
let notices: string[];

function loginAs(role: 'admin' | 'operator') {
  useSession.getState().login(`tok-${role}`, { id: 1, name: role, nick_name: '', role, role_name: role, role_id: 1, Status: 1, MustChangePassword: false });
}

beforeEach(() => {
  setLang('zh-CN');
  notices = captureNotices();
  loginAs('admin');
  api = stubApi({
    '/api/v1/channelsconfig': () => v1({ Channels: [current], ChannelCount: 1 }),
    'POST /api/v1/editchannel': () => {
      // The server pins the fingerprint and the camera is let in again.
      current = row({ State: 'pinned', Pin: NEW });
      return v1({ ChannelID: '3', DeviceID: DEV });
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().clear();
  setLang('zh-CN');
});

function renderForm() {
  renderConsole(
    <Routes>
      <Route path="/device/channelform/:devid/:chnid" element={<ChannelFormPage />} />
    </Routes>,
    { path: `/device/channelform/${DEV}/3?deviceName=Front%20gate&deviceType=RTSP&channelName=Lobby` },
  );
}

async function formLoaded() {
  const name = (await screen.findByLabelText(/通道名称|Name/)) as HTMLInputElement;
  await waitFor(() => expect(name.value).toBe('Lobby'));
}

// antd's first render in jsdom compiles its styles synchronously: slow on a busy machine.
describe('channel form: rtsps:// camera certificate', { timeout: 60_000 }, () => {
  it('pinned: the fingerprint under 摄像机证书, copyable, and no trust action', async () => {
    current = row({ State: 'pinned', Pin: OLD });
    renderForm();
    const state = await screen.findByTestId('tls-cert-state');
    expect(screen.getByText('摄像机证书')).toBeInTheDocument();
    expect(state).toHaveTextContent('已固定的证书（SHA-256）');
    expect(within(state).getByTestId('tls-pin')).toHaveTextContent(OLD);
    expect(within(state).getByRole('button', { name: /复制|Copy/i })).toBeInTheDocument();
    expect(within(state).queryByRole('button', { name: /信任新证书/ })).toBeNull();
    expect(within(state).queryByTestId('tls-presented')).toBeNull();
  });

  it('none pinned yet, and an authority vouching, say so', async () => {
    current = row({ State: 'none', Pin: '' });
    renderForm();
    expect(await screen.findByTestId('tls-cert-state')).toHaveTextContent('尚未固定：首次连接成功时记录摄像机证书的指纹');
    current = row({ State: 'authority', Pin: '' });
    await waitFor(() => expect(screen.getByTestId('tls-cert-state')).toHaveTextContent('由受信任的证书颁发机构担保，无需固定'), { timeout: 10_000 });
  });

  it('a changed certificate in English: both fingerprints, the confirmation shows both, editchannel pins the one shown', async () => {
    current = row({ State: 'pinned', Pin: OLD, Presented: NEW });
    renderForm();
    // renderConsole starts in Chinese; the console's language changes as a user changes it.
    act(() => setLang('en-US'));
    const state = await screen.findByTestId('tls-cert-state');
    expect(await screen.findByText('Camera certificate')).toBeInTheDocument();
    expect(within(state).getByTestId('tls-pin')).toHaveTextContent(OLD);
    expect(state).toHaveTextContent('Certificate the camera presents now (SHA-256), refused');
    expect(within(state).getByTestId('tls-presented')).toHaveTextContent(NEW);

    fireEvent.click(within(state).getByRole('button', { name: 'Trust the new certificate' }));
    const confirm = await screen.findByTestId('tls-trust-confirm');
    expect(screen.getByText('Trust the camera’s new certificate?')).toBeInTheDocument();
    expect(confirm).toHaveTextContent(`Old certificate${OLD}New certificate${NEW}`);
    // Nothing is sent before the confirmation.
    expect(api.callsTo('/api/v1/editchannel', 'POST')).toHaveLength(0);
    // antd's own button (its locale is the provider's: Chinese in these tests).
    fireEvent.click(screen.getByRole('button', { name: /^(OK|确\s*定)$/ }));

    await waitFor(() => expect(api.callsTo('/api/v1/editchannel', 'POST')).toHaveLength(1));
    // Only the pin: what the administrator may be typing in the form is not saved by this action.
    expect(api.callsTo('/api/v1/editchannel', 'POST')[0]!.body).toEqual({ ParentDeviceID: DEV, ChannelID: '3', TlsPin: NEW });
    await waitFor(() => expect(within(screen.getByTestId('tls-cert-state')).getByTestId('tls-pin')).toHaveTextContent(NEW));
    expect(screen.queryByTestId('tls-presented')).toBeNull();
    expect(notices).toContain('success:The new certificate is trusted: connecting again');
  });

  it('an operator sees none of it, even given a TlsCert', async () => {
    loginAs('operator');
    current = row({ State: 'pinned', Pin: OLD, Presented: NEW });
    renderForm();
    await formLoaded();
    expect(screen.queryByTestId('tls-cert-state')).toBeNull();
    expect(screen.queryByText('摄像机证书')).toBeNull();
  });

  it('an https:// channel (HLS) has the same section, in a stream server\'s words: the server gives its TlsCert too', async () => {
    current = row({ State: 'pinned', Pin: OLD, Presented: NEW }, 'https://cdn.example/live/lobby.m3u8');
    renderForm();
    const state = await screen.findByTestId('tls-cert-state');
    expect(screen.getByText('服务器证书')).toBeInTheDocument();
    expect(screen.queryByText('摄像机证书')).toBeNull();
    expect(within(state).getByTestId('tls-pin')).toHaveTextContent(OLD);
    expect(state).toHaveTextContent('流服务器现在出示的证书（SHA-256），已拒绝连接');
    expect(within(state).getByTestId('tls-presented')).toHaveTextContent(NEW);
    fireEvent.click(within(state).getByRole('button', { name: '信任新证书' }));
    expect(await screen.findByTestId('tls-trust-confirm')).toHaveTextContent('请先与服务器管理员核对新指纹');
    expect(screen.getByText('信任流服务器的新证书？')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /^(OK|确\s*定)$/ }));
    await waitFor(() => expect(api.callsTo('/api/v1/editchannel', 'POST')).toHaveLength(1));
    expect(api.callsTo('/api/v1/editchannel', 'POST')[0]!.body).toEqual({ ParentDeviceID: DEV, ChannelID: '3', TlsPin: NEW });
  });

  it('an rtsp:// channel (no TlsCert) has no certificate section', async () => {
    current = row(undefined, 'rtsp://10.0.0.9/s');
    renderForm();
    await formLoaded();
    expect(screen.queryByTestId('tls-cert-state')).toBeNull();
    expect(screen.queryByText('摄像机证书')).toBeNull();
  });
});
