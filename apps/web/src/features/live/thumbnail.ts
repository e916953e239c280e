/**
 * The URL of a channel's stored thumbnail (GET /api/v1/devices/channelthumb): a file read on the
 * server, never a stream opened. An <img> sends no token header, so the token rides in the query.
 */
export function channelThumbUrl(device: string, channel: string, token: string): string {
  const q = new URLSearchParams({ device, channel });
  if (token) q.set('token', token);
  return `/api/v1/devices/channelthumb?${q.toString()}`;
}
