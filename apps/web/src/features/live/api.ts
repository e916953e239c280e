/** Calls of the live pages (issue 4), one function per call. */
import type { ChannelRow } from '@opencvr/shared';
import { getV1 } from '../../lib/request';
import type { StreamAnswer } from '../../components/player/api';

interface ChannelPage {
  Channels: ChannelRow[];
  ChannelCount: number;
}

/** A page of one device's cameras at every level (no directories), matching q by name or ID. */
export const fetchDeviceCameras = (device: string, q: string, start: number, limit: number) =>
  getV1<ChannelPage>(`/api/v1/devices/${encodeURIComponent(device)}/channels`, { q: q || undefined, start, limit });

/** A page of the user's favourite cameras (cameras=1: no directories), matching q by name or ID. */
export const fetchFavoriteChannels = (q: string, start: number, limit: number) =>
  getV1<ChannelPage>('/api/v1/favorites', { q: q || undefined, cameras: 1, start, limit });

/**
 * Cameras across devices, wherever they sit in a device's folders (the square's every channel, the
 * wall's picker): cameras=1, so a page is 20 cameras and the count theirs (folders dropped here after
 * the server paged them left GB sites with 17 cards a page). Quiet: errors on the browse page pass on silently.
 */
export const fetchAllChannels = (q: string, start: number, limit: number, quiet = false) =>
  getV1<ChannelPage>('/api/v1/all/channels', { q: q || undefined, cameras: 1, start, limit }, { quiet });

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
