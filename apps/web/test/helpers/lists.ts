/**
 * Stub answers of the list calls the server pages (start and limit in the query), and the site-sized
 * lists (1,500 cameras) several console tests page through.
 */
import { v1, type Call } from './console';

/** The rows of the page a call asks for: `limit` rows from `start`. */
export function pageOf<T>(call: Pick<Call, 'query'>, rows: readonly T[]): T[] {
  const start = Number(call.query.get('start'));
  return rows.slice(start, start + Number(call.query.get('limit')));
}

/** A channel list's answer: the page asked for and how many there are in all. */
export const channelsPage = <T>(call: Pick<Call, 'query'>, rows: readonly T[]) =>
  v1({ Channels: pageOf(call, rows), ChannelCount: rows.length });

/** A device list's answer: the page asked for and how many there are in all. */
export const devicesPage = <T>(call: Pick<Call, 'query'>, rows: readonly T[]) =>
  v1({ Devices: pageOf(call, rows), TotalCount: rows.length });

export interface SiteDevice {
  DeviceID: string;
  DeviceName: string;
  DeviceType: string;
}

/** A site's RTSP cameras, one device each: IDs 1…count, named cam-0001, cam-0002, … */
export const siteDevices = (count: number): SiteDevice[] =>
  Array.from({ length: count }, (_, i) => ({
    DeviceID: String(i + 1),
    DeviceName: `cam-${String(i + 1).padStart(4, '0')}`,
    DeviceType: 'RTSP',
  }));

/** The devices call a device filter makes as the operator types: matched by name or ID (q), then paged. */
export const searchedDevices = (devices: readonly SiteDevice[]) => (call: Call) => {
  const q = call.query.get('q') ?? '';
  return devicesPage(call, devices.filter((d) => !q || d.DeviceName.includes(q) || d.DeviceID.includes(q)));
};

/** A site's cameras as channel rows, channel 1 of devices 1…count, named Camera 1, Camera 2, …, all online. */
export const siteChannels = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    ChannelID: '1',
    ParentDeviceID: String(i + 1),
    DeviceName: `cam-${i + 1}`,
    DeviceType: 'RTSP',
    Name: `Camera ${i + 1}`,
    Parental: 0,
    Enable: 1,
    Online: 1,
  }));
