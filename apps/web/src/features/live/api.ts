/** Calls of the live pages (issue 4), one function per call. */
import type { ChannelRow } from '@opencvr/shared';
import { getV1 } from '../../lib/request';
import type { StreamAnswer } from '../../components/player/api';

interface ChannelPage {
  Channels: ChannelRow[];
  ChannelCount: number;
}

/** Every channel of a device at every level (getchannels). */
export const fetchDeviceChannels = (device: string) =>
  getV1<ChannelPage>('/api/v1/getchannels', { device, start: 0, limit: 9999 });

/** A page of one device's cameras at every level (no directories), matching q by name or ID. */
export const fetchDeviceCameras = (device: string, q: string, start: number, limit: number) =>
  getV1<ChannelPage>(`/api/v1/devices/${encodeURIComponent(device)}/channels`, { q: q || undefined, start, limit });

/** Cameras read to find one channel: those matching its ID, a page of them. */
const ONE_CHANNEL_PAGE = 50;

/**
 * One channel of a device (the player's name, state and PTZ): the cameras matching its ID, the exact
 * one picked; every channel only when more than a page match and it was not among them. The player
 * read all of an NVR's channels (500: 350 KB) for one name.
 */
export async function fetchOneChannel(device: string, channel: string): Promise<ChannelRow | null> {
  const page = await fetchDeviceCameras(device, channel, 0, ONE_CHANNEL_PAGE);
  const hit = page.Channels.find((c) => c.ChannelID === channel);
  if (hit || page.ChannelCount <= page.Channels.length) return hit ?? null;
  return (await fetchDeviceChannels(device)).Channels.find((c) => c.ChannelID === channel) ?? null;
}

export const fetchFavoriteChannels = (start: number, limit: number) => getV1<ChannelPage>('/api/v1/favorites', { start, limit });

/** Channels across devices (the wall's picker); quiet: errors on the browse page pass on silently. */
export const fetchAllChannels = (q: string, start: number, limit: number, quiet = false) =>
  getV1<ChannelPage>('/api/v1/all/channels', { q: q || undefined, start, limit }, { quiet });

export interface ShareLink {
  /** Path with the play token: /share/{dev}/{chn}/{flow}?play_token=… */
  URL: string;
  /** Unix seconds. */
  ExpiresAt: number;
}

export const createShareLink = (device: string, channel: string, stream: number, expire: number) =>
  getV1<ShareLink>('/api/v1/devices/sharelink', { device, channel, stream, expire });

/** The public pages' call: the stream of a shared link, no login. */
export const openSharedStream = (device: string, channel: string, stream: number, playToken: string) =>
  getV1<StreamAnswer>(
    '/api/v1/share/channelstream',
    { device, channel, stream, protocol: 'ws_m4s', play_token: playToken },
    { quiet: true },
  );
