/**
 * Snapshots of the playing frame: a PNG named by channel and local time (YYYYMMDDHHmmss, spec 9), by
 * the rule of a recording's download (shared channelFileName: the channel's name with its spaces).
 */
import { channelFileName } from '@opencvr/shared';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function localStamp(d: Date): string {
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}

/** The snapshot's file name: `<channel>_<YYYYMMDDHHmmss>.png`, named as the download is. */
export function snapshotName(channel: string, d: Date): string {
  return channelFileName(channel, [localStamp(d)], 'png');
}

/** Draws the current frame to a canvas (null before the first frame). */
export function frameCanvas(video: HTMLVideoElement): HTMLCanvasElement | null {
  const w = video.videoWidth;
  const h = video.videoHeight;
  if (!w || !h) return null;
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  canvas.getContext('2d')?.drawImage(video, 0, 0, w, h);
  return canvas;
}

export async function downloadSnapshot(video: HTMLVideoElement, channel: string, now = new Date()): Promise<boolean> {
  const canvas = frameCanvas(video);
  if (!canvas) return false;
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) return false;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = snapshotName(channel, now);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return true;
}
