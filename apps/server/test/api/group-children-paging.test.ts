/**
 * group/children pages on request: a group holding a site's cameras (1,500) answered every one of
 * them to a tree that shows 50 at a time. start/limit are optional (the whole level without them,
 * as EasyCVR consoles call it) and Count says how many the level holds.
 */
import { describe, expect, it } from 'vitest';
import { useAdminApp } from './admin-app.js';

const api = useAdminApp();
const { body } = api;
const post = async (url: string, payload: Record<string, unknown>) => {
  const res = await api.t.app.inject({ method: 'POST', url, payload, headers: { token: api.admin } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body;
};

describe('group/children paging', { timeout: 60_000 }, () => {
  it('answers a page of a big group and its count; the whole level without paging', async () => {
    const device = (await post('/api/v1/adddevice', { DeviceName: 'NVR', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:8554/cam' })).DeviceID as string;
    for (let i = 2; i <= 120; i++) await post('/api/v1/addchannel', { ParentDeviceID: device, Name: `ch ${i}`, RtspUrl: `rtsp://127.0.0.1:8554/cam?${i}` });
    const group = (await post('/api/v1/addlabel', { name: 'Site', parentid: 0 })).ID as number;
    await post('/api/v1/addlabel', { name: 'Floor 1', parentid: group });
    const channels = Array.from({ length: 120 }, (_, i) => ({ DeviceID: device, ChannelID: String(i + 1) }));
    await post('/api/v1/label/updatechannels', { id: group, channels, mode: 'set' });

    const whole = await body(`/api/v1/group/children?labelid=${group}`);
    expect(whole.Nodes).toHaveLength(121);
    expect(whole.Count).toBe(121);

    const first = await body(`/api/v1/group/children?labelid=${group}&start=0&limit=50`);
    expect(first.Count).toBe(121);
    expect(first.Nodes).toHaveLength(50);
    expect(first.Nodes[0]).toMatchObject({ NodeType: 'directory', Name: 'Floor 1' });
    const last = await body(`/api/v1/group/children?labelid=${group}&start=100&limit=50`);
    expect(last.Nodes).toHaveLength(21);
    expect(last.Nodes.at(-1)).toMatchObject({ NodeType: 'camera', ChannelID: '120' });
  });
});
