/** Nodes of the group tree (spec 3 "Group (label) node"), built the same way by every call. */
import type { GroupNode, LabelRow } from '@opencvr/shared';

export function labelNode(l: LabelRow): GroupNode {
  return {
    ID: String(l.ID),
    Name: l.Name,
    ParentID: String(l.ParentID),
    Parental: 1,
    IsSearchDevice: 0,
    NodeType: 'directory',
    Online: 1,
    ChildNum: l.ChildNum + l.ChannelNum + l.DeviceNum,
  };
}

/** A device placed in a label (or, for a role's single channels, at the top): opens with group/devicechannels. */
export function deviceNode(d: { device_id: string; device_name: string; online: number; enable: number }, parentId: string): GroupNode {
  return {
    ID: d.device_id,
    Name: d.device_name,
    ParentID: parentId,
    Parental: 1,
    IsSearchDevice: 1,
    NodeType: 'device',
    Online: d.online,
    DeviceID: d.device_id,
    Enable: d.enable,
  };
}

/** A channel: a camera, or a GB directory inside a device (deviceDirectory). */
export function channelNode(
  c: { device: string; channel: string; name: string; online: number; enable: number; parental: number; childNum?: number; favorite?: number },
  parentId: string,
): GroupNode {
  return {
    ID: `${c.device}:${c.channel}`,
    Name: c.name,
    ParentID: parentId,
    Parental: c.parental,
    IsSearchDevice: 0,
    NodeType: c.parental ? 'deviceDirectory' : 'camera',
    Online: c.online,
    DeviceID: c.device,
    ChannelID: c.channel,
    Enable: c.enable,
    ...(c.childNum !== undefined ? { ChildNum: c.childNum } : {}),
    // The asking user's favourite flag, where the call knows it (group/children, group/devicechannels).
    ...(c.favorite !== undefined && !c.parental ? { FavoritesChannel: c.favorite ? 1 : 0 } : {}),
  };
}
