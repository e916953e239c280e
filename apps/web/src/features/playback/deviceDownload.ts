/**
 * Download of a range kept on a GB28181 device (server routes/api/gb-records.ts): the server asks
 * the device for the range (INVITE s=Download, sent faster than real time) and writes an MP4; the
 * console follows its progress (streaminfo, once a second) and then fetches the file with the
 * byte progress of any download. The device phase cannot be cancelled on the server (no call for
 * it): cancelling stops following it here, and the server forgets the task after an hour.
 */
import { getV1 } from '../../lib/request';
import { channelIdOf } from './api';
import { fetchWithProgress, type Progress } from './download';

export interface DeviceDownloadInfo {
  request_id: string;
  State: 'downloading' | 'remuxing' | 'done' | 'failed';
  /** 0-100. */
  Progress: number;
  Reason?: string;
  URL: string;
  Name: string;
}

/** The device sends at this multiple of real time (the server accepts 1, 2, 4, 8). */
export const DEVICE_DOWNLOAD_SPEED = 4;

export const startDeviceDownload = (device: string, channel: string, start: string, seconds: number) =>
  getV1<DeviceDownloadInfo>(`/api/v1/downloaddevicerecord/${encodeURIComponent(channelIdOf(device, channel))}/${start}/${seconds}`, { speed: DEVICE_DOWNLOAD_SPEED });

export const deviceDownloadInfo = (requestId: string) => getV1<DeviceDownloadInfo>('/api/v1/downloadrecord/streaminfo', { request_id: requestId }, { quiet: true });

export type DeviceDownloadProgress = { phase: 'device'; percent: number } | ({ phase: 'file' } & Progress);

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('aborted', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    });
  });

/** Runs the whole download: the device's transfer to the server, then the file to the browser. */
export async function downloadFromDevice(
  o: { device: string; channel: string; start: string; seconds: number; fallbackName: string; pollMs?: number },
  onProgress: (p: DeviceDownloadProgress) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; name: string }> {
  let info = await startDeviceDownload(o.device, o.channel, o.start, o.seconds);
  onProgress({ phase: 'device', percent: info.Progress });
  while (info.State === 'downloading' || info.State === 'remuxing') {
    await wait(o.pollMs ?? 1000, signal);
    info = await deviceDownloadInfo(info.request_id);
    onProgress({ phase: 'device', percent: info.Progress });
  }
  if (info.State === 'failed' || !info.URL) throw new Error(info.Reason || info.State);
  return fetchWithProgress(info.URL, (p) => onProgress({ phase: 'file', ...p }), info.Name || o.fallbackName, signal);
}
