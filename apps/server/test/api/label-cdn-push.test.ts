/**
 * A group's channel lists (label/channelsconfig, the group page's members, and labels/{id}/channels) give an administrator the
 * same CdnPush as channelsconfig, masked the same way; an operator who sees the group gets none and
 * the CDN address without its key. The channel is switched off, so its push is 'stopped' saying why
 * and nothing is dialled.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '@opencvr/shared';
import { useAdminApp } from './admin-app.js';
import { makeOperator } from './support.js';

const api = useAdminApp();
const CDN_URL = 'rtmp://pub:pa55word@127.0.0.1:9/live/S3CRETKEY';

async function channelWithCdnInLabel() {
  const dev = (await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/c' })).json().EasyDarwin.Body.DeviceID as string;
  expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', Enable: 0, EnableCdn: 1, CdnUrl: CDN_URL })).statusCode).toBe(200);
  const label = (await api.post('/api/v1/addlabel', { name: 'Site', parentid: 0 })).json().EasyDarwin.Body.ID as number;
  expect((await api.post('/api/v1/label/updatechannels', { id: label, channels: `${dev}:1` })).statusCode).toBe(200);
  return { dev, label };
}

const first = async (url: string, token?: string) => ((await api.body(url, token)).Channels as ChannelRow[])[0]!;

describe('a group’s channel list: CDN push state', () => {
  it('an administrator gets the CdnPush of channelsconfig, in the asked language, address masked', async () => {
    const { dev, label } = await channelWithCdnInLabel();
    const inLabel = await first(`/api/v1/label/channelsconfig?id=${label}&lang=en-US`);
    expect(inLabel.CdnPush).toMatchObject({ State: 'stopped', Url: 'rtmp://127.0.0.1:9/live/***', ReasonCode: 'statusChannelDisabled', Runs: 0 });
    expect(inLabel.CdnPush).toEqual((await first(`/api/v1/channelsconfig?device=${dev}&lang=en-US`)).CdnPush);
    expect((await first(`/api/v1/label/channelsconfig?id=${label}`)).CdnPush?.Reason).toBe((await first(`/api/v1/channelsconfig?device=${dev}`)).CdnPush?.Reason);
    expect(JSON.stringify(inLabel.CdnPush)).not.toMatch(/S3CRETKEY|pa55word/);
    // Every channel under the group (its devices' and sub-groups' too): the same.
    expect((await first(`/api/v1/labels/${label}/channels?lang=en-US`)).CdnPush).toEqual(inLabel.CdnPush);
  });

  it('an operator given the group gets no CdnPush and the address without its key', async () => {
    const { label } = await channelWithCdnInLabel();
    const op = await makeOperator(api.t, api.admin);
    expect((await api.post('/api/v1/role/channels', { roleid: op.roleId, labels: [label] })).statusCode).toBe(200);
    const row = await first(`/api/v1/label/channelsconfig?id=${label}`, op.token);
    expect(row.EnableCdn).toBe(1);
    expect(row.CdnPush).toBeUndefined();
    expect(row.CdnUrl).toBe('rtmp://127.0.0.1:9/live/***');
    expect((await first(`/api/v1/labels/${label}/channels`, op.token)).CdnPush).toBeUndefined();
  });
});
