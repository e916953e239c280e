/**
 * Download of a range kept on a GB28181 device (server routes/api/gb-records.ts): the server asks
 * the device for the range (INVITE s=Download, sent faster than real time) and writes an MP4; the
 * console follows its progress (streaminfo, once a second) and then fetches the file with the
 * byte progress of any download. Cancelling (the signal) tells the server (downloadrecord/stop): it
 * sends the device BYE and removes its files. A console that stops asking (the tab closed) leaves the
 * server to cancel the download itself after a while.
 */
import { getV1 } from '../../lib/request';
import { channelIdOf } from './api';
import { fetchWithProgress, type Progress } from './download';

export interface DeviceDownloadInfo {
  request_id: string;
  State: 'downloading' | 'remuxing' | 'done' | 'failed' | 'cancelled';
  /** 0-100. */
  Progress: number;
  /** Why it ended, in the console's language (the server renders it). */
  Reason?: string;
  URL: string;
  Name: string;
}

/** The device sends at this multiple of real time (the server accepts 1, 2, 4, 8). */
export const DEVICE_DOWNLOAD_SPEED = 4;

export const startDeviceDownload = (device: string, channel: string, start: string, seconds: number) =>
  getV1<DeviceDownloadInfo>(`/api/v1/downloaddevicerecord/${encodeURIComponent(channelIdOf(device, channel))}/${start}/${seconds}`, { speed: DEVICE_DOWNLOAD_SPEED });

export const deviceDownloadInfo = (requestId: string) => getV1<DeviceDownloadInfo>('/api/v1/downloadrecord/streaminfo', { request_id: requestId }, { quiet: true });

/** Cancels on the server: BYE to the device, its files removed. */
export const stopDeviceDownload = (requestId: string) => getV1<DeviceDownloadInfo>('/api/v1/downloadrecord/stop', { request_id: requestId }, { quiet: true });

const aborted = () => new DOMException('aborted', 'AbortError');

export type DeviceDownloadProgress = { phase: 'device'; percent: number } | ({ phase: 'file' } & Progress);

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(aborted());
    });
  });

/** Runs the whole download: the device's transfer to the server, then the file to the browser; `signal` cancels it there too. */
export async function downloadFromDevice(
  o: { device: string; channel: string; start: string; seconds: number; fallbackName: string; pollMs?: number },
  onProgress: (p: DeviceDownloadProgress) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; name: string }> {
  let info = await startDeviceDownload(o.device, o.channel, o.start, o.seconds);
  const id = info.request_id;
  const stop = () => void stopDeviceDownload(id).catch(() => undefined);
  // Cancelled while the device was being asked: the server is told as soon as the download has an id.
  if (signal?.aborted) {
    stop();
    throw aborted();
  }
  signal?.addEventListener('abort', stop, { once: true });
  try {
    onProgress({ phase: 'device', percent: info.Progress });
    while (info.State === 'downloading' || info.State === 'remuxing') {
      await wait(o.pollMs ?? 1000, signal);
      info = await deviceDownloadInfo(id);
      onProgress({ phase: 'device', percent: info.Progress });
    }
    // failed, or cancelled by the server (nobody followed it): its Reason says why.
    if (info.State !== 'done' || !info.URL) throw new Error(info.Reason || info.State);
    return await fetchWithProgress(info.URL, (p) => onProgress({ phase: 'file', ...p }), info.Name || o.fallbackName, signal);
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}
