import { describe, expect, it } from 'vitest';
import { useAdminApp } from './admin-app.js';
import { makeOperator } from './support.js';

const api = useAdminApp();
const { get, body, post } = api;


async function addRtsp(name: string, url = 'rtsp://127.0.0.1:8554/cam') {
  const res = await post('/api/v1/adddevice', { DeviceName: name, DeviceType: 'RTSP', RtspUrl: url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body.DeviceID as string;
}
async function addChannel(device: string, extra: Record<string, unknown> = {}) {
  const res = await post('/api/v1/addchannel', { ParentDeviceID: device, RtspUrl: 'rtsp://10.0.0.9/s', ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body.ChannelID as string;
}

describe('devices', () => {
  it('adds an RTSP device with its first channel, lists it with counts, pages and searches', async () => {
    const id = await addRtsp('Front gate', 'rtsp://user:secret@10.1.2.3:8554/main');
    expect(id).toMatch(/^\d+$/);
    for (let i = 0; i < 24; i++) await addRtsp(`Cam ${String(i).padStart(2, '0')}`);
    const p1 = await body('/api/v1/devicesconfig?start=0&limit=20');
    expect(p1.TotalCount).toBe(25);
    expect(p1.DeviceCount).toBe(25);
    expect(p1.Devices).toHaveLength(20);
    expect(p1.Devices[0]).toMatchObject({ DeviceID: id, DeviceName: 'Front gate', DeviceType: 'RTSP', DeviceIp: '10.1.2.3', DevicePort: 8554, ChannelNum: 1, onlineChannelNums: 0, Online: 0, clusterOnline: 1 });
    // Found by the address in its URL.
    expect((await body('/api/v1/devicesconfig?q=10.1.2.3')).Devices.map((d: { DeviceID: string }) => d.DeviceID)).toEqual([id]);
    expect((await body('/api/v1/devicesconfig?start=20&limit=20')).Devices).toHaveLength(5);
    expect((await body('/api/v1/devicesconfig?q=gate')).TotalCount).toBe(1);
    expect((await body('/api/v1/devicesconfig?q=GATE')).TotalCount).toBe(1);
    expect((await body('/api/v1/devicesconfig?q=%25')).TotalCount).toBe(0);
    const ch = await body(`/api/v1/channelsconfig?device=${id}`);
    expect(ch.ChannelCount).toBe(1);
    expect(ch.Channels[0]).toMatchObject({ ChannelID: '1', ParentDeviceID: id, Name: 'Front gate', IP: '10.1.2.3', Port: 8554, Protocol: 'RTSP', Parental: 0, Online: 0, FavoritesChannel: 0 });
    expect(ch.Channels[0].RtspUrl).toBe('rtsp://user:secret@10.1.2.3:8554/main');
    const info = await body(`/api/v1/deviceinfo?device=${id}`);
    expect(info.DeviceName).toBe('Front gate');
  });

  it('validates input, refuses duplicates and changes nothing on refusal', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ DeviceName: '', DeviceType: 'RTSP' }, 'DeviceName'],
      [{ DeviceName: 'x', DeviceType: 'NOPE' }, 'DeviceType'],
      [{ DeviceName: 'x', DeviceType: 'RTSP', DevicePort: 70000 }, 'DevicePort'],
      [{ DeviceName: 'x', DeviceType: 'RTSP', RtspUrl: 'file:///etc/passwd' }, 'RtspUrl'],
      [{ DeviceName: 'x', DeviceType: 'GB28181' }, 'DeviceID'],
      [{ DeviceName: 'x', DeviceType: 'GB28181', DeviceID: '3402000000132000000' }, 'DeviceID'],
      [{ DeviceName: 'x', DeviceType: 'RTSP', DeviceID: '../etc' }, 'DeviceID'],
    ];
    for (const [payload, field] of bad) {
      const res = await post('/api/v1/adddevice', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().msg).toContain(field);
    }
    await addRtsp('Dup');
    const dup = await post('/api/v1/adddevice', { DeviceName: 'Dup', DeviceType: 'RTSP' });
    expect(dup.statusCode).toBe(409);
    const gb = await post('/api/v1/adddevice', { DeviceName: 'NVR', DeviceType: 'GB28181', DeviceID: '34020000001320000001' });
    expect(gb.json().EasyDarwin.Body.DeviceID).toBe('34020000001320000001');
    const gbDup = await post('/api/v1/adddevice', { DeviceName: 'NVR2', DeviceType: 'GB28181', DeviceID: '34020000001320000001' });
    expect(gbDup.statusCode).toBe(409);
    expect((await body('/api/v1/devicesconfig')).TotalCount).toBe(2);
    const badCh = await post('/api/v1/addchannel', { ParentDeviceID: '34020000001320000001', Latitude: 91 });
    expect(badCh.statusCode).toBe(400);
    expect(badCh.json().msg).toContain('Latitude');
    const noDev = await post('/api/v1/addchannel', { ParentDeviceID: '999', Name: 'x' });
    expect(noDev.statusCode).toBe(404);
  });

  it('edits a device and a channel', async () => {
    const id = await addRtsp('Old');
    expect((await post('/api/v1/editdevice', { DeviceID: id, DeviceName: 'New', DeviceUserPW: 'pw', Enable: false })).statusCode).toBe(200);
    expect(await body(`/api/v1/deviceinfo?device=${id}`)).toMatchObject({ DeviceName: 'New', DeviceUserPW: 'pw', Enable: 0 });
    const edit = await post('/api/v1/editchannel', { ParentDeviceID: id, ChannelID: '1', Name: 'Lobby', RtspUrl: 'rtsp://10.9.9.9:10554/x', Longitude: 121.5, Latitude: 31.2, OnDemand: 0 });
    expect(edit.statusCode).toBe(200);
    const ch = (await body(`/api/v1/channelsconfig?device=${id}`)).Channels[0];
    expect(ch).toMatchObject({ Name: 'Lobby', IP: '10.9.9.9', Port: 10554, Longitude: 121.5, Latitude: 31.2, OnDemand: 0 });
    const map = await body('/api/v1/channelsmap');
    expect(map.Channels).toEqual([{ DeviceID: id, ChannelID: '1', Name: 'Lobby', Online: 0, Longitude: 121.5, Latitude: 31.2 }]);
    expect((await post('/api/v1/editchannel', { ParentDeviceID: id, ChannelID: '77', Name: 'x' })).statusCode).toBe(404);
  });

  it("a channel row carries its device's Enable (DeviceEnable) in the lists the square reads: a disabled device plays none of its channels", async () => {
    const id = await addRtsp('Cam');
    expect((await get(`/api/v1/addfavoriteschannel?device=${id}&channel=1`)).statusCode).toBe(200);
    const lists = [`/api/v1/channelsconfig?device=${id}`, `/api/v1/devices/${id}/channels`, '/api/v1/all/channels?cameras=1', '/api/v1/favorites?cameras=1'];
    for (const url of lists) expect((await body(url)).Channels[0], url).toMatchObject({ Enable: 1, DeviceEnable: 1 });
    expect((await post('/api/v1/editdevice', { DeviceID: id, Enable: 0 })).statusCode).toBe(200);
    // The channel's own flag is unchanged (the channel form edits it); the device's says why it will not play.
    for (const url of lists) expect((await body(url)).Channels[0], url).toMatchObject({ Enable: 1, DeviceEnable: 0 });
  });

  it('keeps GAT1400 devices out of every tree but in the device list', async () => {
    await addRtsp('Cam');
    const gat = await post('/api/v1/adddevice', { DeviceName: 'Plate server', DeviceType: 'GAT1400' });
    const gatId = gat.json().EasyDarwin.Body.DeviceID;
    await addChannel(gatId, { Name: 'plate cam' });
    expect((await body('/api/v1/devicesconfig')).TotalCount).toBe(2);
    const tree = await body('/api/v1/devices?start=0&limit=50');
    expect(tree.Devices.map((d: { DeviceName: string }) => d.DeviceName)).toEqual(['Cam']);
    expect((await body(`/api/v1/channels?device=${gatId}`)).ChannelCount).toBe(0);
    expect((await body('/api/v1/all/channels?q=plate')).ChannelCount).toBe(0);
  });
});

describe('sub-channels', () => {
  it('lists one level at a time by subset and deletes a directory with everything under it', async () => {
    const id = await addRtsp('NVR');
    const dir = await addChannel(id, { Name: 'Floor 1', Parental: 1, RtspUrl: '' });
    const sub = await addChannel(id, { Name: 'Floor 1 / Room A', Parental: 1, ParentID: dir, RtspUrl: '' });
    await addChannel(id, { Name: 'Room A cam', ParentID: sub });
    await addChannel(id, { Name: 'Corridor', ParentID: dir });
    const top = await body(`/api/v1/channelsconfig?device=${id}`);
    expect(top.Channels.map((c: { Name: string }) => c.Name)).toEqual(['NVR', 'Floor 1']);
    expect(top.Channels[1]).toMatchObject({ Parental: 1, SubChannelNum: 2, GBID: dir });
    expect((await body(`/api/v1/channelsconfig?device=${id}&subset=${dir}`)).Channels.map((c: { Name: string }) => c.Name)).toEqual(['Floor 1 / Room A', 'Corridor']);
    expect((await body(`/api/v1/subchannels?device=${id}&subset=${sub}`)).Channels.map((c: { Name: string }) => c.Name)).toEqual(['Room A cam']);
    expect((await body(`/api/v1/getchannels?device=${id}`)).ChannelCount).toBe(5);
    expect((await body('/api/v1/devicesconfig')).Devices[0].ChannelNum).toBe(3); // cameras only
    const missingParent = await post('/api/v1/addchannel', { ParentDeviceID: id, ParentID: '999', Name: 'x' });
    expect(missingParent.statusCode).toBe(404);

    const del = await get(`/api/v1/delchannel?device=${id}&channel=${dir},404`);
    expect(del.json().EasyDarwin.Body.error).toEqual(['404']);
    expect((await body(`/api/v1/getchannels?device=${id}`)).Channels.map((c: { Name: string }) => c.Name)).toEqual(['NVR']);
  });
});

describe('IDs shared by a device and its channel', () => {
  it('a parent naming a channel whose ID equals the device ID is that channel, not the top level', async () => {
    const id = await addRtsp('NVR');
    // Pad the device's channel numbers up to its own ID, so channel <id> exists as a directory.
    for (let n = 2; n <= Number(id); n++) await addChannel(id, { Name: `Dir ${n}`, Parental: 1, RtspUrl: '' });
    const child = await addChannel(id, { Name: 'Inside', ParentID: id });
    const top = await body(`/api/v1/channelsconfig?device=${id}&limit=100`);
    expect(top.Channels.map((c: { ChannelID: string }) => c.ChannelID)).not.toContain(child);
    const inside = await body(`/api/v1/channelsconfig?device=${id}&subset=${id}`);
    expect(inside.Channels.map((c: { Name: string }) => c.Name)).toEqual(['Inside']);
    // And with no channel of that ID, the device as parent means the top level.
    const other = await addRtsp('Solo');
    await api.t.ctx.db.deleteFrom('channels').where('parent_device_id', '=', other).execute();
    await addChannel(other, { Name: 'Top', ParentID: other });
    expect((await body(`/api/v1/channelsconfig?device=${other}`)).Channels.map((c: { Name: string }) => c.Name)).toEqual(['Top']);
  });
});

describe('labels, favourites and what a role may see', () => {
  it('a user of a role sees, lists, searches and favours only the channels given to the role', async () => {
    const a = await addRtsp('Site A');
    const b = await addRtsp('Site B');
    const a2 = await addChannel(a, { Name: 'A back door' });
    await addChannel(b, { Name: 'B yard' });

    const top = (await post('/api/v1/addlabel', { name: 'Campus' })).json().EasyDarwin.Body.ID;
    const child = (await post('/api/v1/addlabel', { name: 'Building 1', parentid: top })).json().EasyDarwin.Body.ID;
    expect((await post('/api/v1/addlabel', { name: 'Building 1', parentid: top })).statusCode).toBe(409);
    expect((await post('/api/v1/label/updatechannels', { id: child, channels: `${a}:${a2}` })).statusCode).toBe(200);
    const bad = await post('/api/v1/label/updatechannels', { id: child, channels: `${a}:${a2},${b}:999` });
    expect(bad.statusCode).toBe(400);
    expect((await body(`/api/v1/label/channelsconfig?id=${child}`)).ChannelCount).toBe(1);

    const op = await makeOperator(api.t, api.admin);
    // nothing given yet: nothing visible
    expect((await body('/api/v1/devicesconfig', op.token)).TotalCount).toBe(0);
    expect((await body('/api/v1/all/channels', op.token)).ChannelCount).toBe(0);

    expect((await post('/api/v1/role/channels', { roleid: op.roleId, labels: [top] })).statusCode).toBe(200);
    const devs = await body('/api/v1/devicesconfig', op.token);
    expect(devs.TotalCount).toBe(1);
    expect(devs.Devices[0]).toMatchObject({ DeviceID: a, ChannelNum: 1, DeviceUserPW: '' });
    const chans = await body(`/api/v1/channelsconfig?device=${a}`, op.token);
    expect(chans.Channels.map((c: { Name: string }) => c.Name)).toEqual(['A back door']);
    expect((await body(`/api/v1/channelsconfig?device=${b}`, op.token)).ChannelCount).toBe(0);
    expect((await body('/api/v1/all/channels?q=yard', op.token)).ChannelCount).toBe(0);
    expect((await body('/api/v1/all/channels?q=door', op.token)).ChannelCount).toBe(1);
    expect((await get(`/api/v1/deviceinfo?device=${b}`, op.token)).statusCode).toBe(404);
    // the group tree: the role's top is the given label
    const roots = await body('/api/v1/group/children?labelid=0', op.token);
    expect(roots.Nodes.map((n: { Name: string }) => n.Name)).toEqual(['Campus']);
    const inside = await body(`/api/v1/group/children?labelid=${child}`, op.token);
    expect(inside.Nodes).toEqual([expect.objectContaining({ NodeType: 'camera', Name: 'A back door', DeviceID: a, ChannelID: a2 })]);
    expect((await body(`/api/v1/labels/${top}/channels`, op.token)).ChannelCount).toBe(1);

    // favourites only of visible channels, with the flag following
    expect((await get(`/api/v1/addfavoriteschannel?device=${b}&channel=1`, op.token)).statusCode).toBe(404);
    expect((await body(`/api/v1/addfavoriteschannel?device=${a}&channel=${a2}`, op.token)).FavoritesChannel).toBe(1);
    expect((await body(`/api/v1/channelsconfig?device=${a}`, op.token)).Channels[0].FavoritesChannel).toBe(1);
    expect((await body('/api/v1/favorites', op.token)).ChannelCount).toBe(1);
    expect((await body('/api/v1/favoritechannels', op.token)).Channels).toEqual([{ DeviceID: a, ChannelID: a2 }]);
    expect((await body('/api/v1/favorites')).ChannelCount).toBe(0); // per user
    expect((await body(`/api/v1/deletefavoriteschannel?device=${a}&channel=${a2}`, op.token)).FavoritesChannel).toBe(0);

    // a single channel granted directly adds to what the labels give
    await post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: b, ChannelID: '2' }] });
    expect((await body('/api/v1/all/channels', op.token)).ChannelCount).toBe(2);
    expect((await body(`/api/v1/role/channels?roleid=${op.roleId}`)).Labels).toEqual([top]);

    // admin-only inventory calls refuse the operator
    for (const [url, payload] of [
      ['/api/v1/adddevice', { DeviceName: 'x', DeviceType: 'RTSP' }],
      ['/api/v1/addlabel', { name: 'x' }],
      ['/api/v1/role/channels', { roleid: op.roleId, labels: [] }],
    ] as const) {
      expect((await post(url, payload, op.token)).statusCode, url).toBe(403);
    }
    expect((await get(`/api/v1/deldevice?device=${a}`, op.token)).statusCode).toBe(403);
    expect((await body('/api/v1/devicesconfig')).TotalCount).toBe(2);
  });

  it('moves and deletes labels, refusing a move under itself', async () => {
    const l1 = (await post('/api/v1/addlabel', { name: 'L1' })).json().EasyDarwin.Body.ID;
    const l2 = (await post('/api/v1/addlabel', { name: 'L2', parentid: l1 })).json().EasyDarwin.Body.ID;
    const l3 = (await post('/api/v1/addlabel', { name: 'L3', parentid: l2 })).json().EasyDarwin.Body.ID;
    const cycle = await post('/api/v1/updatelabel', { id: l1, parentid: l3 });
    expect(cycle.statusCode).toBe(400);
    expect((await post('/api/v1/updatelabelName', { id: l3, name: 'Third' })).statusCode).toBe(200);
    expect((await body('/api/v1/labellist?parentid=' + l2)).Labels).toEqual([expect.objectContaining({ ID: l3, Name: 'Third', ParentID: l2 })]);
    expect((await post('/api/v1/updatelabel', { id: l3, parentid: 0 })).statusCode).toBe(200);
    expect((await body('/api/v1/labellist')).Labels.map((l: { Name: string }) => l.Name)).toEqual(['L1', 'Third']);
    expect((await post('/api/v1/deletelabel', { id: l1 })).statusCode).toBe(200);
    expect((await body('/api/v1/alllabel')).Labels.map((l: { Name: string }) => l.Name)).toEqual(['Third']);
  });

  it('deleting a device removes its channels, label entries, favourites and grants in one go', async () => {
    const a = await addRtsp('Doomed');
    const keep = await addRtsp('Kept');
    const lbl = (await post('/api/v1/addlabel', { name: 'G' })).json().EasyDarwin.Body.ID;
    await post('/api/v1/label/updatechannels', { id: lbl, channels: [{ DeviceID: a, ChannelID: '1' }, { DeviceID: keep, ChannelID: '1' }] });
    await post('/api/v1/label/updatedevices', { id: lbl, devices: [a] });
    const op = await makeOperator(api.t, api.admin);
    await post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: a, ChannelID: '1' }] });
    await get(`/api/v1/addfavoriteschannel?device=${a}&channel=1`);

    expect((await get(`/api/v1/deldevice?device=${a}`)).statusCode).toBe(200);
    const db = api.t.ctx.db;
    expect(await db.selectFrom('channels').select('id').where('parent_device_id', '=', a).execute()).toEqual([]);
    expect((await db.selectFrom('label_channels').selectAll().execute()).length).toBe(1);
    expect(await db.selectFrom('label_devices').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('favorites').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('role_channels').selectAll().execute()).toEqual([]);
    expect((await get(`/api/v1/deldevice?device=${a}`)).statusCode).toBe(404);

    const batch = await api.t.app.inject({ method: 'DELETE', url: '/api/v1/devices', payload: { devices: [keep, 'ghost'] }, headers: { token: api.admin } });
    expect(batch.json().EasyDarwin.Body).toEqual({ Deleted: [keep], error: ['ghost'] });
    expect((await body('/api/v1/devicesconfig')).TotalCount).toBe(0);
  });
});

describe('look-ups and pickers', () => {
  it('answers every remaining inventory look-up with what the database holds', async () => {
    const a = await addRtsp('North gate');
    const b = await addRtsp('South yard');
    const a2 = await addChannel(a, { Name: 'North lobby', Online: 1 });
    await addChannel(b, { Name: 'South dock' });

    // device search (name contains, GAT1400 never), check of ID and name before saving
    expect((await body('/api/v1/devicesearch?q=north')).Devices.map((d: { DeviceID: string }) => d.DeviceID)).toEqual([a]);
    expect((await get('/api/v1/devicesearch?q=')).statusCode).toBe(400);
    expect(await body(`/api/v1/checkdeviceinfo?device=${a}&name=South%20yard`)).toEqual({ IDExists: true, NameExists: true });
    expect(await body('/api/v1/checkdeviceinfo?device=nope&name=Nobody')).toEqual({ IDExists: false, NameExists: false });
    // devices owning channels
    const owners = await body(`/api/v1/devicebychannels?channels=${a}:1,${b}:1,${a}:${a2}`);
    expect(owners.Devices.map((d: { DeviceID: string }) => d.DeviceID).sort()).toEqual([a, b].sort());
    // v2 envelope list
    const v2 = (await get(`/api/v2/channels?device=${a}`)).json();
    expect(v2).toMatchObject({ code: 200, data: { total: 2 } });
    expect(v2.data.list.map((c: { Name: string }) => c.Name)).toEqual(['North gate', 'North lobby']);

    // labels: membership look-ups, device members, search, a device inside the group tree
    const lbl = (await post('/api/v1/addlabel', { name: 'Perimeter' })).json().EasyDarwin.Body.ID;
    await post('/api/v1/label/updatechannels', { id: lbl, channels: `${a}:${a2}` });
    await post('/api/v1/label/updatedevices', { id: lbl, devices: b });
    expect(await body(`/api/v1/labelowninfo?device=${a}&channel=${a2}`)).toEqual({ Labels: [lbl] });
    expect(await body(`/api/v1/labeldeviceowninfo?device=${b}`)).toEqual({ Labels: [lbl] });
    expect(await body(`/api/v1/labeldeviceowninfo?device=${a}`)).toEqual({ Labels: [] });
    const members = await body(`/api/v1/label/devicesconfig?id=${lbl}`);
    expect(members.TotalCount).toBe(1);
    expect(members.Devices[0].DeviceID).toBe(b);
    const found = await body('/api/v1/labels/search?key=lobby');
    expect(found.Nodes).toEqual([expect.objectContaining({ NodeType: 'camera', Name: 'North lobby', ParentID: String(lbl) })]);
    expect((await body('/api/v1/labels/search?key=perim')).Nodes[0]).toMatchObject({ NodeType: 'directory', Name: 'Perimeter' });
    const tree = await body(`/api/v1/group/children?labelid=${lbl}`);
    expect(tree.Nodes.map((n: { NodeType: string; Name: string }) => `${n.NodeType}:${n.Name}`)).toEqual(['device:South yard', 'camera:North lobby']);
    const inside = await body(`/api/v1/group/devicechannels?deviceid=${b}&labelid=${lbl}`);
    expect(inside.Count).toBe(2);
    expect(inside.Nodes.map((n: { Name: string }) => n.Name)).toEqual(['South yard', 'South dock']);
    // every camera under the label: its own channel plus all of the placed device's
    expect((await body(`/api/v1/labels/${lbl}/channels`)).ChannelCount).toBe(3);

    // channel children (a directory's sub-channels)
    const dir = await addChannel(a, { Name: 'Wing', Parental: 1, RtspUrl: '' });
    await addChannel(a, { Name: 'Wing cam', ParentID: dir });
    expect((await body(`/api/v1/channelchild?device=${a}&channel=${dir}`)).Channels.map((c: { Name: string }) => c.Name)).toEqual(['Wing cam']);

    // the picker list: cameras of a device, at every level, leaving out what a label already has
    const pick = await body(`/api/v1/devices/${a}/channels`);
    expect(pick.Channels.map((c: { Name: string }) => c.Name)).toEqual(['North gate', 'North lobby', 'Wing cam']);
    const notYet = await body(`/api/v1/devices/${a}/channels?not_repeat=1&labelid=${lbl}`);
    expect(notYet.Channels.map((c: { Name: string }) => c.Name)).toEqual(['North gate', 'Wing cam']);
    const inNoLabel = await body(`/api/v1/devices/${a}/channels?not_repeat=1`);
    expect(inNoLabel.ChannelCount).toBe(2);
    expect((await body(`/api/v1/devices/${a}/channels?online=1`)).ChannelCount).toBe(0);
    expect((await get('/api/v1/devices/..%2F..%2Fetc/channels')).statusCode).toBe(400);
  });
});
