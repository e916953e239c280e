import { describe, expect, it } from 'vitest';
import {
  applyCrumbEffect,
  deviceCrumbs,
  isDevicePath,
  trailAfterRoute,
  trailForSubset,
  type Crumb,
  type SubChannel,
} from '../src/features/devices/breadcrumb';

const trail: SubChannel[] = [
  { uuid: 'D1:1', Name: 'Building A', subset: '1' },
  { uuid: 'D1:2', Name: 'Floor 2', subset: '2' },
];
const q = { deviceName: 'NVR east', deviceType: 'GB28181' };
const labels = (cs: Crumb[]) => cs.map((c) => (c.label ? (c.name ? `${c.label}(${c.name})` : c.label) : `>${c.name}`));

describe('device breadcrumb: labels and pages', () => {
  it('list page: device management / device, the trailing segment dropped', () => {
    expect(labels(deviceCrumbs('/device/list', {}, []))).toEqual(['deviceManagement', 'device']);
    expect(labels(deviceCrumbs('/device/list/extra', {}, []))).toEqual(['deviceManagement', 'device']);
  });
  it('group page: device management / device group, the trailing segment dropped', () => {
    expect(labels(deviceCrumbs('/device/group', {}, []))).toEqual(['deviceManagement', 'deviceGroup']);
    expect(labels(deviceCrumbs('/device/group/7', {}, []))).toEqual(['deviceManagement', 'deviceGroup']);
  });
  it('device form: device detail under the device list', () => {
    expect(labels(deviceCrumbs('/device/form/0', {}, []))).toEqual(['deviceManagement', 'device', 'deviceDetail']);
  });
  it('channel list and channel detail labels', () => {
    expect(labels(deviceCrumbs('/device/channel/D1', {}, []))).toEqual(['deviceManagement', 'device', 'channelList']);
    expect(labels(deviceCrumbs('/device/channelform/D1/5', {}, []))).toEqual(['deviceManagement', 'device', 'channelList', 'channelDetail']);
  });
  it('paths outside /device have no crumbs', () => {
    expect(deviceCrumbs('/video/square/0', q, trail)).toEqual([]);
  });
});

describe('device breadcrumb: names in brackets', () => {
  it('device crumbs (device detail, channel list) get the device name when deviceName is in the query', () => {
    expect(labels(deviceCrumbs('/device/form/D1', q, []))).toEqual(['deviceManagement', 'device', 'deviceDetail(NVR east)']);
    expect(labels(deviceCrumbs('/device/channel/D1', q, []))).toEqual(['deviceManagement', 'device', 'channelList(NVR east)']);
  });
  it('without deviceName no brackets', () => {
    expect(deviceCrumbs('/device/channel/D1', { deviceName: '' }, []).every((c) => !c.name)).toBe(true);
  });
  it('the channel detail crumb gets the channel name when channelName is present', () => {
    const cs = deviceCrumbs('/device/channelform/D1/5', { ...q, channelName: 'Lobby 1' }, []);
    expect(labels(cs).at(-1)).toBe('channelDetail(Lobby 1)');
    expect(labels(deviceCrumbs('/device/channelform/D1/5', q, [])).at(-1)).toBe('channelDetail');
  });
});

describe('device breadcrumb: sub-channel trail', () => {
  it('in the channel list the trail follows the channel list crumb', () => {
    expect(labels(deviceCrumbs('/device/channel/D1', q, trail))).toEqual([
      'deviceManagement',
      'device',
      'channelList(NVR east)',
      '>Building A',
      '>Floor 2',
    ]);
  });
  it('in the channel form the trail sits between the channel list and the channel detail', () => {
    expect(labels(deviceCrumbs('/device/channelform/D1/9', { ...q, channelName: 'Corridor' }, trail))).toEqual([
      'deviceManagement',
      'device',
      'channelList(NVR east)',
      '>Building A',
      '>Floor 2',
      'channelDetail(Corridor)',
    ]);
  });
  it('outside the channel views the trail is not shown', () => {
    expect(labels(deviceCrumbs('/device/form/D1', q, trail))).toEqual(['deviceManagement', 'device', 'deviceDetail(NVR east)']);
    expect(labels(deviceCrumbs('/device/list', q, trail))).toEqual(['deviceManagement', 'device']);
  });
  it('trail crumbs link to their level of the channel list (subset) with the device query', () => {
    const cs = deviceCrumbs('/device/channel/D1', q, trail);
    expect(cs[3].to).toBe('/device/channel/D1?deviceName=NVR+east&deviceType=GB28181&subset=1');
    expect(cs[2].to).toBe('/device/channel/D1?deviceName=NVR+east&deviceType=GB28181');
  });
});

describe('device breadcrumb: links and effects', () => {
  it('only the last crumb has no link', () => {
    for (const [path, t] of [
      ['/device/list', []],
      ['/device/group', []],
      ['/device/form/D1', []],
      ['/device/channel/D1', trail],
      ['/device/channelform/D1/9', trail],
    ] as const) {
      const cs = deviceCrumbs(path, q, [...t]);
      expect(cs.at(-1)!.to).toBeUndefined();
      expect(cs.at(-1)!.effect).toEqual({ type: 'none' });
      expect(cs.slice(0, -1).every((c) => typeof c.to === 'string')).toBe(true);
    }
  });
  it('a sub-channel crumb cuts the trail back to its entry', () => {
    const three = [...trail, { uuid: 'D1:3', Name: 'Room 5', subset: '3' }];
    const cs = deviceCrumbs('/device/channel/D1', q, three);
    const first = cs.find((c) => c.name === 'Building A')!;
    expect(first.effect).toEqual({ type: 'cut', index: 0 });
    expect(applyCrumbEffect(three, first.effect)).toEqual([three[0]]);
    const second = cs.find((c) => c.name === 'Floor 2')!;
    expect(applyCrumbEffect(three, second.effect)).toEqual(three.slice(0, 2));
  });
  it('any other non-last crumb clears the trail', () => {
    const cs = deviceCrumbs('/device/channelform/D1/9', q, trail);
    for (const c of cs.filter((c) => c.label && c.to)) {
      expect(c.effect).toEqual({ type: 'clear' });
      expect(applyCrumbEffect(trail, c.effect)).toEqual([]);
    }
  });
  it('the last crumb leaves the trail alone', () => {
    const cs = deviceCrumbs('/device/channel/D1', q, trail);
    expect(applyCrumbEffect(trail, cs.at(-1)!.effect)).toEqual(trail);
  });
});

describe('device breadcrumb: Edit segments', () => {
  it('a segment containing Edit gives a base crumb and an edit crumb', () => {
    expect(labels(deviceCrumbs('/device/channelEdit/D1', q, []))).toEqual(['deviceManagement', 'device', 'channelList(NVR east)', 'edit']);
    expect(labels(deviceCrumbs('/device/formEdit/D1', {}, []))).toEqual(['deviceManagement', 'device', 'deviceDetail', 'edit']);
    const cs = deviceCrumbs('/device/formEdit/D1', {}, []);
    expect(cs.at(-2)!.to).toBe('/device/form/D1');
    expect(cs.at(-1)!.to).toBeUndefined();
  });
});

describe('sub-channel trail and the route', () => {
  it('is cleared when the route leaves the device pages', () => {
    expect(trailAfterRoute('/video/square/0', trail)).toEqual([]);
    expect(trailAfterRoute('/user/index', trail)).toEqual([]);
    expect(trailAfterRoute('/devices/list', trail)).toEqual([]);
    expect(trailAfterRoute('/device/channelform/D1/9', trail)).toBe(trail);
    expect(isDevicePath('/device')).toBe(true);
  });
  it('follows the level shown: top level empties it, a known level cuts it, an unknown one keeps it', () => {
    expect(trailForSubset(trail, null)).toEqual([]);
    expect(trailForSubset(trail, '1')).toEqual([trail[0]]);
    expect(trailForSubset(trail, '2')).toEqual(trail);
    expect(trailForSubset(trail, '99')).toBe(trail);
  });
});
