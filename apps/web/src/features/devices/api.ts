/** Calls of the device pages (docs/api-inventory.md), one function per call. */
import type { ChannelRow, DeviceRow, DeviceType, LabelRow } from '@opencvr/shared';
import { getV1, postV1, request, v1Body } from '../../lib/request';
import { fetchChannelConfigs, type ChannelRef, type DevicePage } from '../../lib/api/inventory';
import type { EasyDarwinEnvelope } from '@opencvr/shared';

export { fetchDeviceConfigs, fetchChannelConfigs, searchAllChannels } from '../../lib/api/inventory';

export interface DeviceInput {
  DeviceID?: string;
  DeviceType: DeviceType;
  DeviceName: string;
  DeviceIp?: string;
  DevicePort?: number;
  DeviceUserName?: string;
  DeviceUserPW?: string;
  Manufacturer?: string;
  Enable: boolean;
  Transport?: 'UDP' | 'TCP';
  TransportMode?: 'passive' | 'active';
  AlarmSubscribe?: boolean;
  CatalogSubscribe?: boolean;
  PositionSubscribe?: boolean;
  RtspUrl?: string;
}

export type ChannelInput = Partial<
  Pick<
    ChannelRow,
    | 'ChannelID'
    | 'Name'
    | 'Protocol'
    | 'RtspUrl'
    | 'Username'
    | 'Password'
    | 'RecordUrl'
    | 'SnapUrl'
    | 'CdnUrl'
    | 'Onvif'
    | 'Transport'
    | 'ParentID'
    | 'IP'
    | 'Port'
  >
> & {
  Enable?: boolean;
  OnDemand?: boolean;
  EnableRecord?: boolean;
  EnableAudio?: boolean;
  EnableCdn?: boolean;
  EnableH265ToH264?: boolean;
  Parental?: boolean;
  Longitude?: number | null;
  Latitude?: number | null;
  /** editchannel only: the rtsps:// or https:// server certificate's SHA-256 to trust (TlsCert.Presented), '' to pin afresh. */
  TlsPin?: string;
};

export const fetchDeviceInfo = (device: string) => getV1<DeviceRow>('/api/v1/deviceinfo', { device });
export const checkDeviceInfo = (p: { device?: string; name?: string }) =>
  getV1<{ IDExists: boolean; NameExists: boolean }>('/api/v1/checkdeviceinfo', p);
export const addDevice = (d: DeviceInput) => postV1<{ DeviceID: string }>('/api/v1/adddevice', { ...d });
export const editDevice = (d: DeviceInput & { DeviceID: string }) => postV1<DeviceRow>('/api/v1/editdevice', { ...d });
export const deleteDevice = (device: string) => getV1<Record<string, never>>('/api/v1/deldevice', { device });
export const deleteDevices = async (devices: string[]) =>
  v1Body(
    await request<EasyDarwinEnvelope<{ Deleted: string[]; error: string[] }>>('/api/v1/devices', {
      method: 'DELETE',
      data: { devices },
      deleteBody: true,
    }),
  );

/** One channel for the channel form: there is no single-channel call, so search the device by ID. */
export async function fetchChannel(device: string, channel: string): Promise<ChannelRow | undefined> {
  const page = await fetchChannelConfigs({ device, q: channel, start: 0, limit: 1000 });
  return page.Channels.find((c) => c.ChannelID === channel);
}
export const addChannel = (device: string, c: ChannelInput) =>
  postV1<{ ChannelID: string; DeviceID: string }>('/api/v1/addchannel', { ParentDeviceID: device, ...c });
export const editChannel = (device: string, channel: string, c: ChannelInput) =>
  postV1<{ ChannelID: string; DeviceID: string }>('/api/v1/editchannel', { ...c, ParentDeviceID: device, ChannelID: channel });
export const deleteChannel = (device: string, channel: string) => getV1<{ error: string[] }>('/api/v1/delchannel', { device, channel });

export const fetchLabels = (parentid: number) => getV1<{ Labels: LabelRow[]; Count: number }>('/api/v1/labellist', { parentid });
export const addLabel = (name: string, parentid: number) => postV1<{ ID: number }>('/api/v1/addlabel', { name, parentid });
export const renameLabel = (id: number, name: string) => postV1<Record<string, never>>('/api/v1/updatelabelName', { id, name });
export const moveLabel = (id: number, parentid: number) => postV1<Record<string, never>>('/api/v1/updatelabel', { id, parentid });
export const deleteLabel = (id: number) => postV1<Record<string, never>>('/api/v1/deletelabel', { id });
export const fetchLabelChannels = (id: number, start: number, limit: number, q?: string) =>
  getV1<{ Channels: ChannelRow[]; ChannelCount: number }>('/api/v1/label/channelsconfig', { id, start, limit, q: q || undefined });
export const fetchLabelDevices = (id: number, start: number, limit: number) =>
  getV1<DevicePage>('/api/v1/label/devicesconfig', { id, start, limit });
export const updateLabelChannels = (id: number, channels: ChannelRef[], mode: 'add' | 'remove') =>
  postV1<Record<string, never>>('/api/v1/label/updatechannels', {
    id,
    channels: JSON.stringify(channels.map(({ DeviceID, ChannelID }) => ({ DeviceID, ChannelID }))),
    mode,
  });
export const updateLabelDevices = (id: number, devices: string[], mode: 'add' | 'remove') =>
  postV1<Record<string, never>>('/api/v1/label/updatedevices', { id, devices: devices.join(','), mode });
