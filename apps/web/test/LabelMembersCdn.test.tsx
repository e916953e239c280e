/**
 * The group page's channel list has the channel list's CDN push column for administrators: each
 * member channel with EnableCdn on shows its push (a refused certificate's reason on hover), '-' for
 * the others; a push of one of its channels that moves (events socket, topic cdn) is read again, and
 * only then: the group holds channels of several devices, so a channel is its device and its id. An
 * operator gets no column (and the server sends them no CdnPush).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { CdnPushStatus, ChannelRow, LabelRow } from '@opencvr/shared';
import { LabelMembers } from '../src/features/devices/components/LabelMembers';
import { useSession } from '../src/lib/stores/session';
import { connectEvents, disconnectEvents } from '../src/lib/ws';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { stubEventsSocket } from './helpers/events-socket';

const LABEL: LabelRow = { ID: 7, Name: 'Site', ParentID: 0, ChannelNum: 3, DeviceNum: 0, ChildNum: 0 };
const URL_MASKED = 'rtmps://cdn.example/live/***';
const channel = (ParentDeviceID: string, ChannelID: string, CdnPush?: CdnPushStatus) =>
  ({ ChannelID, ParentDeviceID, DeviceName: `Dev ${ParentDeviceID}`, Name: `Cam ${ParentDeviceID}-${ChannelID}`, Parental: 0, Enable: 1, Online: 1, EnableCdn: CdnPush ? 1 : 0, CdnPush }) as unknown as ChannelRow;

let rows: ChannelRow[];
let api: ReturnType<typeof stubApi>;

const loginAs = (role: 'admin' | 'operator') =>
  useSession.getState().login(`tok-${role}`, { id: 1, name: role, nick_name: '', role, role_name: role, role_id: 1, Status: 1, MustChangePassword: false });

beforeEach(() => {
  api = stubApi({
    '/api/v1/label/channelsconfig': () => v1({ Channels: rows, ChannelCount: rows.length }),
    '/api/v1/label/devicesconfig': () => v1({ Devices: [], TotalCount: 0 }),
  });
});
afterEach(() => {
  disconnectEvents();
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

describe('group page: CDN push column', { timeout: 60_000 }, () => {
  it('an administrator sees each member channel’s push, its reason on hover, read again when the socket says one of them moved', async () => {
    loginAs('admin');
    const events = stubEventsSocket();
    connectEvents('tok-admin');
    rows = [
      channel('1001', '1', { State: 'pushing', Url: URL_MASKED, Since: '2026-11-27T22:30:00.000Z', BytesSent: 2 * 1024 * 1024, Bitrate: 1_500_000, Runs: 1 }),
      channel('2002', '1', { State: 'retrying', Url: URL_MASKED, NextTryIn: 8, Reason: 'x', ReasonCode: 'tlsCertSelfSigned', Runs: 3 }),
      channel('2002', '2'),
    ];
    renderConsole(<LabelMembers label={LABEL} />);
    await screen.findByText('Cam 2002-2');
    expect(screen.getByRole('columnheader', { name: 'CDN转推' })).toBeInTheDocument();
    const cells = await screen.findAllByTestId('cdn-push-cell');
    expect(cells.map((c) => c.textContent)).toEqual(['推流中', '重试中']);

    fireEvent.mouseEnter(cells[0]!);
    expect(await screen.findByText('已发送 2.00 MB · 码率 1.5 Mbps')).toBeInTheDocument();
    fireEvent.mouseEnter(cells[1]!);
    expect(await screen.findByText('原因：服务器的 TLS 证书是自签名证书，不受信任（可用 RTMPS_CA_FILE 信任它）')).toBeInTheDocument();

    // The ingest's CA was trusted: the socket says 2002's channel 1 moved; the column reads the page again.
    const reads = api.callsTo('/api/v1/label/channelsconfig').length;
    rows = [rows[0]!, channel('2002', '1', { State: 'pushing', Url: URL_MASKED, BytesSent: 10, Bitrate: 8000, Runs: 4 }), rows[2]!];
    act(() => events.push('cdn', { DeviceID: '2002', ChannelID: '1', CdnPush: { State: 'connecting', Url: URL_MASKED, Runs: 4 } }));
    await waitFor(() => expect(screen.getAllByTestId('cdn-push-cell').map((c) => c.textContent)).toEqual(['推流中', '推流中']));
    expect(api.callsTo('/api/v1/label/channelsconfig').length).toBe(reads + 1);
    // Channel 1 of a device outside the group: nothing is read.
    act(() => events.push('cdn', { DeviceID: '3003', ChannelID: '1', CdnPush: null }));
    await new Promise((r) => setTimeout(r, 100));
    expect(api.callsTo('/api/v1/label/channelsconfig').length).toBe(reads + 1);
  });

  it('an operator sees no CDN column and nothing is read for it', async () => {
    loginAs('operator');
    // As the server answers an operator: EnableCdn, no CdnPush.
    rows = [{ ...channel('1001', '1'), EnableCdn: 1 } as ChannelRow, channel('2002', '2')];
    renderConsole(<LabelMembers label={LABEL} />);
    await screen.findByText('Cam 2002-2');
    expect(screen.getByRole('columnheader', { name: '在线状态' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'CDN转推' })).toBeNull();
    expect(screen.queryAllByTestId('cdn-push-cell')).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(api.callsTo('/api/v1/label/channelsconfig')).toHaveLength(1);
  });
});
