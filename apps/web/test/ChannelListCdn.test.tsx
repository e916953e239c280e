/**
 * The channel list's CDN push column: each channel with EnableCdn on shows its push's state (pushing
 * with bytes and bitrate in the tooltip, login refused with its reason), '-' for the others; a push
 * that moves (events socket, topic cdn) is read again without the table showing it loads.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { CdnPushStatus, ChannelRow } from '@opencvr/shared';
import ChannelListPage from '../src/features/devices/pages/ChannelListPage';
import { useSession } from '../src/lib/stores/session';
import { connectEvents, disconnectEvents } from '../src/lib/ws';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { stubEventsSocket } from './helpers/events-socket';

const DEV = '1001';
const URL_MASKED = 'rtmp://cdn.example/live/***';
const channel = (ChannelID: string, CdnPush?: CdnPushStatus) =>
  ({ ChannelID, ParentDeviceID: DEV, Name: `Cam ${ChannelID}`, Parental: 0, Protocol: 'RTSP', Enable: 1, Online: 1, EnableCdn: CdnPush ? 1 : 0, CdnPush }) as unknown as ChannelRow;

let rows: ChannelRow[];
let api: ReturnType<typeof stubApi>;

beforeEach(() => {
  useSession.getState().login('tok-admin', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
  api = stubApi({ '/api/v1/channelsconfig': () => v1({ Channels: rows, ChannelCount: rows.length }) });
});
afterEach(() => {
  disconnectEvents();
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

describe('channel list: CDN push column', { timeout: 60_000 }, () => {
  it('shows each push, its figures and reason on hover, and reads again when the socket says one moved', async () => {
    const events = stubEventsSocket();
    connectEvents('tok-admin');
    rows = [
      channel('1', { State: 'pushing', Url: URL_MASKED, Since: '2026-11-27T22:30:00.000Z', BytesSent: 2 * 1024 * 1024, Bitrate: 1_500_000, Runs: 1 }),
      channel('2', { State: 'loginRefused', Url: URL_MASKED, NextTryIn: 30, Reason: 'x', ReasonCode: 'cdnAuthFailed', ReasonVars: { method: 'adobe' }, Runs: 1 }),
      channel('3'),
      // A new run after a failure: the failure is the last one, not the state.
      channel('4', { State: 'connecting', Url: URL_MASKED, Reason: 'x', ReasonCode: 'cdnAuthFailed', ReasonVars: { method: 'adobe' }, Runs: 2 }),
    ];
    renderConsole(
      <Routes>
        <Route path="/device/channel/:devid" element={<ChannelListPage />} />
      </Routes>,
      { path: `/device/channel/${DEV}?deviceName=Gate&deviceType=RTSP` },
    );
    await screen.findByText('Cam 3');
    const cells = await screen.findAllByTestId('cdn-push-cell');
    expect(cells.map((c) => c.textContent)).toEqual(['推流中', '登录被拒绝', '连接中']);
    expect(screen.getByRole('columnheader', { name: 'CDN转推' })).toBeInTheDocument();

    fireEvent.mouseEnter(cells[0]!);
    expect(await screen.findByText('已发送 2.00 MB · 码率 1.5 Mbps')).toBeInTheDocument();
    fireEvent.mouseEnter(cells[1]!);
    expect(await screen.findByText('原因：CDN 服务器拒绝了用户名或密码（adobe）')).toBeInTheDocument();
    fireEvent.mouseEnter(cells[2]!);
    expect(await screen.findByText('上次失败：CDN 服务器拒绝了用户名或密码（adobe）')).toBeInTheDocument();

    // The refused login was fixed: the socket says channel 2 moved; the column reads the page again.
    const reads = api.callsTo('/api/v1/channelsconfig').length;
    rows = [rows[0]!, channel('2', { State: 'pushing', Url: URL_MASKED, BytesSent: 10, Bitrate: 8000, Runs: 2 }), rows[2]!, rows[3]!];
    act(() => events.push('cdn', { DeviceID: DEV, ChannelID: '2', CdnPush: { State: 'connecting', Url: URL_MASKED, Runs: 2 } }));
    await waitFor(() => expect(screen.getAllByTestId('cdn-push-cell').map((c) => c.textContent)).toEqual(['推流中', '推流中', '连接中']));
    expect(api.callsTo('/api/v1/channelsconfig').length).toBe(reads + 1);
    // Another device's push: nothing is read.
    act(() => events.push('cdn', { DeviceID: '2002', ChannelID: '2', CdnPush: null }));
    await new Promise((r) => setTimeout(r, 100));
    expect(api.callsTo('/api/v1/channelsconfig').length).toBe(reads + 1);
  });
});
