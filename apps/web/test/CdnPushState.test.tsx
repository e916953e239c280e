/**
 * The channel form shows the CDN push's state (channelsconfig's CdnPush): pushing since when with
 * bytes and bitrate; login refused with the reason rendered from its code in the console's language
 * and the next try; read again when the events socket says the push moved.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { CdnPushStatus, ChannelRow } from '@opencvr/shared';
import ChannelFormPage from '../src/features/devices/pages/ChannelFormPage';
import { setLang } from '../src/i18n';
import { useSession } from '../src/lib/stores/session';
import { connectEvents, disconnectEvents } from '../src/lib/ws';
import { formatDateTime } from '../src/lib/time';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { stubEventsSocket } from './helpers/events-socket';

const DEV = '1001';
const URL_MASKED = 'rtmp://cdn.example/live/***';
const row = (CdnPush: CdnPushStatus | undefined, EnableCdn = 1) =>
  ({
    ChannelID: '3',
    ParentDeviceID: DEV,
    DeviceName: 'Front gate',
    Name: 'Lobby',
    Parental: 0,
    Protocol: 'RTSP',
    RtspUrl: 'rtsp://10.0.0.9/s',
    Transport: 'TCP',
    Enable: 1,
    OnDemand: 1,
    EnableCdn,
    CdnUrl: 'rtmp://pub:pw@cdn.example/live/KEY',
    CdnPush,
  }) as unknown as ChannelRow;

let current: ChannelRow;
let api: ReturnType<typeof stubApi>;

beforeEach(() => {
  setLang('zh-CN');
  useSession.getState().login('tok-admin', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
  api = stubApi({ '/api/v1/channelsconfig': () => v1({ Channels: [current], ChannelCount: 1 }) });
});
afterEach(() => {
  disconnectEvents();
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

// antd's first render in jsdom compiles its styles synchronously: slow on a busy machine.
describe('channel form: CDN push state', { timeout: 60_000 }, () => {
  it('pushing: since when, bytes sent and bitrate, the masked address', async () => {
    const since = '2026-11-27T22:30:00.000Z';
    current = row({ State: 'pushing', Url: URL_MASKED, Since: since, BytesSent: 1.5 * 1024 * 1024, Bitrate: 512_000, Runs: 1 });
    renderForm();
    const state = await screen.findByTestId('cdn-push-state');
    expect(within(state).getByText('推流中')).toBeInTheDocument();
    expect(within(state).getByText(URL_MASKED)).toBeInTheDocument();
    expect(state).toHaveTextContent(`开始于 ${formatDateTime(since)} · 已发送 1.50 MB · 码率 512 kbps`);
    expect(screen.getByText('CDN推流状态')).toBeInTheDocument();
    expect(state).not.toHaveTextContent('KEY');
  });

  it('login refused: the reason from its code in English, the next try, and the socket’s news read at once', async () => {
    const events = stubEventsSocket();
    connectEvents('tok-admin');
    current = row({
      State: 'loginRefused',
      Url: URL_MASKED,
      NextTryIn: 30,
      // The server's text is in its default language: the console renders the code.
      Reason: 'CDN 服务器拒绝了用户名或密码（llnw）',
      ReasonCode: 'cdnAuthFailed',
      ReasonVars: { method: 'llnw' },
      Runs: 2,
    });
    renderForm();
    await screen.findByTestId('cdn-push-state');
    act(() => setLang('en-US'));
    const state = screen.getByTestId('cdn-push-state');
    expect(await within(state).findByText('Login refused')).toBeInTheDocument();
    expect(state).toHaveTextContent('Reason: the CDN server refused the user name or password (llnw)');
    expect(state).toHaveTextContent(/next try in (30|29) s · connection 2/);
    const reads = api.callsTo('/api/v1/channelsconfig').length;

    // The address was edited and the push works: the socket says so, the page reads the state again.
    current = row({ State: 'pushing', Url: URL_MASKED, Since: '2026-11-27T22:31:00.000Z', BytesSent: 2048, Bitrate: 8000, Runs: 3 });
    act(() => events.push('cdn', { DeviceID: DEV, ChannelID: '9', CdnPush: null }));
    act(() => events.push('cdn', { DeviceID: DEV, ChannelID: '3', CdnPush: { State: 'connecting', Url: URL_MASKED, Runs: 3 } }));
    expect(await within(screen.getByTestId('cdn-push-state')).findByText('Pushing')).toBeInTheDocument();
    // One read for this channel's event, none for the other channel's (the 5 s refresh is far off).
    expect(api.callsTo('/api/v1/channelsconfig').length).toBe(reads + 1);
    expect(screen.getByTestId('cdn-push-state')).not.toHaveTextContent('Reason');
  });

  it('connecting again after a failure: the failure is shown as the last one, in a neutral tone; red only while retrying', async () => {
    const events = stubEventsSocket();
    connectEvents('tok-admin');
    const failed = { Reason: 'x', ReasonCode: 'cdnAuthFailed', ReasonVars: { method: 'llnw' }, Runs: 2 } as const;
    current = row({ State: 'connecting', Url: URL_MASKED, ...failed });
    renderForm();
    const state = await screen.findByTestId('cdn-push-state');
    expect(within(state).getByText('连接中')).toBeInTheDocument();
    // It read "原因：…" in the error colour, as if the new run had failed too.
    const line = within(state).getByText('上次失败：CDN 服务器拒绝了用户名或密码（llnw）');
    expect(line).toHaveClass('ant-typography-secondary');
    expect(line).not.toHaveClass('ant-typography-danger');
    expect(state).not.toHaveTextContent('原因');

    current = row({ State: 'retrying', Url: URL_MASKED, NextTryIn: 4, ...failed });
    act(() => events.push('cdn', { DeviceID: DEV, ChannelID: '3', CdnPush: null }));
    expect(await within(screen.getByTestId('cdn-push-state')).findByText('原因：CDN 服务器拒绝了用户名或密码（llnw）')).toHaveClass('ant-typography-danger');
  });

  it('stopped: says why', async () => {
    current = row({ State: 'stopped', Url: URL_MASKED, Reason: '通道未开启', ReasonCode: 'statusChannelDisabled', Runs: 0 });
    renderForm();
    const state = await screen.findByTestId('cdn-push-state');
    expect(within(state).getByText('未推流')).toBeInTheDocument();
    expect(state).toHaveTextContent('原因：通道未开启');
  });

  it('a channel whose saved EnableCdn is off says the push starts once saved', async () => {
    current = row(undefined, 0);
    renderForm();
    const name = (await screen.findByLabelText('通道名称')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Lobby'));
    act(() => screen.getByRole('switch', { name: 'CDN转推' }).click());
    expect(await screen.findByText('保存后开始推流')).toBeInTheDocument();
  });
});
