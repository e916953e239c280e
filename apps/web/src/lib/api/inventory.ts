/**
 * Inventory calls used outside one feature: the channel picker and the role-channels dialog
 * (components/) and the device pages both list devices, channels and labels the same way; the live
 * and playback pages read their one channel the same way.
 */
import type { ChannelRow, DeviceRow, LabelRow } from '@opencvr/shared';
import { getV1, postV1 } from '../request';

export interface DevicePage {
  Devices: DeviceRow[];
  TotalCount: number;
}
export interface ChannelPage {
  Channels: ChannelRow[];
  ChannelCount: number;
}
export interface ChannelRef {
  DeviceID: string;
  ChannelID: string;
}

const opt = (s: string | undefined) => (s ? s : undefined);

export const fetchDeviceConfigs = (p: { start: number; limit: number; q?: string; type?: string }) =>
  getV1<DevicePage>('/api/v1/devicesconfig', { start: p.start, limit: p.limit, q: opt(p.q), protocol_type: opt(p.type) });

export const fetchChannelConfigs = (p: { device: string; subset?: string; start: number; limit: number; q?: string }) =>
  getV1<ChannelPage>('/api/v1/channelsconfig', { device: p.device, subset: opt(p.subset), start: p.start, limit: p.limit, q: opt(p.q) });

/**
 * One camera of a device by its exact ID, wherever it sits in the device's folders (the player's and
 * the playback pages' name, state, device type and PTZ); null when there is none or it is not visible.
 * Those pages read every channel of the device (an NVR's 500: 350 KB) or searched by the ID, which
 * matches hundreds when IDs are small numbers ("5" is in 15, 25, 150…).
 */
export const fetchOneChannel = (device: string, channel: string) =>
  getV1<ChannelPage>(`/api/v1/devices/${encodeURIComponent(device)}/channels`, { channel, start: 0, limit: 1 }).then(
    (p) => p.Channels.find((c) => c.ChannelID === channel) ?? null,
  );

/** A page of one device's cameras at every level of its folders, or below one folder (the server pages cameras only). */
const fetchDeviceCameras = (device: string, under: string | undefined, start: number, limit: number) =>
  getV1<ChannelPage>(`/api/v1/devices/${encodeURIComponent(device)}/channels`, { under: opt(under), start, limit });

/** Pages one device's cameras at a time when a picker takes the whole device (an NVR's 64 or 500). */
const DEVICE_CAMERAS_PAGE = 500;

/**
 * Every camera of one device, or of one of its folders (`under`: the folder's GBID) at every depth,
 * page by page: a picker's device or folder tick takes them all, also those the lazily loaded tree has
 * not shown (folded, behind "load more" or under sub-folders).
 */
export async function fetchAllDeviceCameras(device: string, under?: string): Promise<ChannelRow[]> {
  const all: ChannelRow[] = [];
  for (;;) {
    const page = await fetchDeviceCameras(device, under, all.length, DEVICE_CAMERAS_PAGE);
    all.push(...page.Channels);
    // An empty page ends it too: a count that grew while paging must not loop.
    if (!page.Channels.length || all.length >= page.ChannelCount) return all;
  }
}

/** Channel search across every device (needs a non-empty query, spec 5). */
export const searchAllChannels = (q: string, limit: number, start = 0, quiet = false) =>
  getV1<ChannelPage>('/api/v1/all/channels', { q, start, limit }, { quiet });

export const fetchAllLabels = () => getV1<{ Labels: LabelRow[]; Count: number }>('/api/v1/alllabel');

export const fetchRoleChannels = (roleid: number) =>
  getV1<{ Channels: (ChannelRef & { Name: string })[]; Labels: number[] }>('/api/v1/role/channels', { roleid });

/** Replaces the role's grants; the lists travel as JSON text in a form, as EasyCVR's handler reads them. */
export const saveRoleChannels = (roleid: number, labels: number[], channels: ChannelRef[]) =>
  postV1<Record<string, never>>(
    '/api/v1/role/channels',
    { roleid, labels: JSON.stringify(labels), channels: JSON.stringify(channels.map(({ DeviceID, ChannelID }) => ({ DeviceID, ChannelID }))) },
    { form: true },
  );
