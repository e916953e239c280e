/**
 * The group tree of a role given channels one by one (issue 4, session 24 audit): an operator whose
 * role was given a single channel, without a group, saw an empty group list (暂无数据), so the live
 * sidebar and the wall had no way to the camera. The tree's top now holds, after the role's groups,
 * the devices of its single channels; a device opens on those channels only (at any depth of the
 * device), and an administrator's tree is as before.
 */
import { describe, expect, it } from 'vitest';
import { useAdminApp } from './admin-app.js';
import { makeOperator } from './support.js';

const api = useAdminApp();
const { body, post } = api;

const ok = async (url: string, payload: Record<string, unknown>) => {
  const res = await post(url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body;
};
const names = (b: { Nodes: { Name: string }[] }) => b.Nodes.map((n) => n.Name);

describe('group tree of a role given single channels', { timeout: 60_000 }, () => {
  it('shows the devices of the channels given one by one, each opening on those channels only', async () => {
    const nvr = (await ok('/api/v1/adddevice', { DeviceName: 'NVR', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:8554/a' })).DeviceID as string;
    await ok('/api/v1/addchannel', { ParentDeviceID: nvr, Name: 'Gate', RtspUrl: 'rtsp://127.0.0.1:8554/b' }); // 2
    await ok('/api/v1/addchannel', { ParentDeviceID: nvr, Name: 'Yard', RtspUrl: 'rtsp://127.0.0.1:8554/c' }); // 3
    const other = (await ok('/api/v1/adddevice', { DeviceName: 'Other', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:8554/d' })).DeviceID as string;
    const labelled = (await ok('/api/v1/adddevice', { DeviceName: 'Labelled', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:8554/e' })).DeviceID as string;
    const group = (await ok('/api/v1/addlabel', { name: 'Campus', parentid: 0 })).ID as number;
    await ok('/api/v1/label/updatedevices', { id: group, devices: [labelled], mode: 'set' });

    const op = await makeOperator(api.t, api.admin);
    await ok('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: nvr, ChannelID: '2' }] });

    // Before: Nodes [] (the group list said 暂无数据).
    const top = await body('/api/v1/group/children?labelid=0&start=0&limit=50', op.token);
    expect(top.Nodes).toEqual([expect.objectContaining({ NodeType: 'device', IsSearchDevice: 1, Name: 'NVR', DeviceID: nvr, ParentID: '0' })]);
    expect(top.Count).toBe(1);
    const inside = await body(`/api/v1/group/devicechannels?deviceid=${nvr}&labelid=0&start=0&limit=50`, op.token);
    expect(inside.Nodes).toEqual([expect.objectContaining({ NodeType: 'camera', Name: 'Gate', DeviceID: nvr, ChannelID: '2' })]);
    expect(inside.Count).toBe(1);
    // Nothing outside the role: another device's channels are not listed under any device node.
    expect((await body(`/api/v1/group/devicechannels?deviceid=${other}&labelid=0&start=0&limit=50`, op.token)).Nodes).toEqual([]);

    // A group given too comes first; a channel the group already reaches is not shown twice.
    await ok('/api/v1/role/channels', {
      roleid: op.roleId,
      labels: [group],
      channels: [
        { DeviceID: nvr, ChannelID: '2' },
        { DeviceID: labelled, ChannelID: '1' },
      ],
    });
    const both = await body('/api/v1/group/children?labelid=0', op.token);
    expect(names(both)).toEqual(['Campus', 'NVR']);
    expect(names(await body(`/api/v1/group/children?labelid=${group}`, op.token))).toEqual(['Labelled']);
    expect(names(await body(`/api/v1/group/devicechannels?deviceid=${labelled}&labelid=${group}`, op.token))).toEqual(['Labelled']);
    // Paged as any level: the device is the second node.
    expect(names(await body('/api/v1/group/children?labelid=0&start=1&limit=50', op.token))).toEqual(['NVR']);

    // The administrator's tree is as before: the groups only, a device opening on its top level.
    expect(names(await body('/api/v1/group/children?labelid=0'))).toEqual(['Campus']);
    expect(names(await body(`/api/v1/group/devicechannels?deviceid=${nvr}&labelid=0`))).toEqual(['NVR', 'Gate', 'Yard']);
  });

  it('lists a channel given one by one that sits inside a device directory', async () => {
    const nvr = (await ok('/api/v1/adddevice', { DeviceName: 'GB NVR', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:8554/a' })).DeviceID as string;
    const dir = (await ok('/api/v1/addchannel', { ParentDeviceID: nvr, Name: 'Floor 2', Parental: true })).ChannelID as string;
    const cam = (await ok('/api/v1/addchannel', { ParentDeviceID: nvr, Name: 'Stairs', ParentID: dir, RtspUrl: 'rtsp://127.0.0.1:8554/s' })).ChannelID as string;
    const op = await makeOperator(api.t, api.admin);
    await ok('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: nvr, ChannelID: cam }] });

    expect(names(await body('/api/v1/group/children?labelid=0', op.token))).toEqual(['GB NVR']);
    // The directory is not the role's: the camera is listed at the device, not behind it.
    expect(names(await body(`/api/v1/group/devicechannels?deviceid=${nvr}&labelid=0`, op.token))).toEqual(['Stairs']);
  });

  it('says which cameras are the asking user\'s favourites, in a group and at a device of single channels', async () => {
    // An operator has the group tree only: without the flag the tree had no star, and the
    // favourites tab and the square's favourites stayed empty for every operator.
    const nvr = (await ok('/api/v1/adddevice', { DeviceName: 'Fav NVR', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:8554/a' })).DeviceID as string;
    await ok('/api/v1/addchannel', { ParentDeviceID: nvr, Name: 'Door', RtspUrl: 'rtsp://127.0.0.1:8554/b' }); // 2
    await ok('/api/v1/addchannel', { ParentDeviceID: nvr, Name: 'Lift', RtspUrl: 'rtsp://127.0.0.1:8554/c' }); // 3
    const group = (await ok('/api/v1/addlabel', { name: 'Lobby', parentid: 0 })).ID as number;
    await ok('/api/v1/label/updatechannels', { id: group, channels: [{ DeviceID: nvr, ChannelID: '1' }, { DeviceID: nvr, ChannelID: '2' }], mode: 'set' });
    const op = await makeOperator(api.t, api.admin);
    await ok('/api/v1/role/channels', { roleid: op.roleId, labels: [group], channels: [{ DeviceID: nvr, ChannelID: '3' }] });
    for (const channel of ['2', '3']) {
      const fav = await body(`/api/v1/addfavoriteschannel?device=${nvr}&channel=${channel}`, op.token);
      expect(fav.FavoritesChannel).toBe(1);
    }
    const flags = (b: { Nodes: { Name: string; FavoritesChannel?: number }[] }) => b.Nodes.map((n) => [n.Name, n.FavoritesChannel]);
    expect(flags(await body(`/api/v1/group/children?labelid=${group}`, op.token))).toEqual([
      [`Fav NVR`, 0],
      ['Door', 1],
    ]);
    expect(flags(await body(`/api/v1/group/devicechannels?deviceid=${nvr}&labelid=0`, op.token))).toEqual([['Lift', 1]]);
    // Another user's favourites are not the operator's: the administrator sees none of them.
    expect(flags(await body(`/api/v1/group/children?labelid=${group}`))).toEqual([
      ['Fav NVR', 0],
      ['Door', 0],
    ]);
  });
});
