/** GB28181 device calls of /device/list (issue 6): catalog refresh and its progress, remote control, device info. */
import type { CatalogProgress, DeviceRow, GbDeviceDetails } from '@opencvr/shared';
import { getV1 } from '../../lib/request';

export type GbDeviceInfo = DeviceRow & { GB?: GbDeviceDetails };

export const fetchCatalog = (device: string) => getV1<CatalogProgress>('/api/v1/devices/fetchcatalog', { device });
export const fetchCatalogStatus = (device: string) =>
  getV1<Partial<CatalogProgress> & { DeviceID: string; Running: boolean }>('/api/v1/devices/catalogstatus', { device }, { quiet: true });
export const rebootDevice = (device: string) =>
  getV1<{ DeviceID: string; Command: string; Result: string; Answered: boolean }>('/api/v1/remotedevctrl', { device, command: 'reboot' });
/** With refresh the server asks the device (DeviceInfo, DeviceStatus) before answering. */
export const fetchGbDeviceInfo = (device: string, refresh: boolean) =>
  getV1<GbDeviceInfo>('/api/v1/deviceinfo', refresh ? { device, refresh: 1 } : { device });

/** Polls the catalog progress until the answer ended (or `timeoutMs` passed). */
export async function waitCatalog(device: string, sn: number, timeoutMs = 300_000): Promise<Partial<CatalogProgress> | undefined> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 1000));
    const p = await fetchCatalogStatus(device).catch(() => undefined);
    if (p && !p.Running && (p.SN === undefined || p.SN === sn)) return p;
  }
  return undefined;
}
