/** What clicking a channel in the sidebar does (spec 2 "Video pages"), as a pure rule. */

export interface ClickableChannel {
  DeviceID: string;
  ChannelID: string;
  Online: number;
  Enable: number;
}

export type ChannelClick = { kind: 'play'; to: string } | { kind: 'offline' } | { kind: 'disabled' };

/**
 * Online and enabled: the player (/video/player/{devid}/{chnid}/0, flow 0 = main stream).
 * Otherwise a notice; a disabled channel is named as such first, because a disabled channel is also
 * never online and "offline" would hide the reason.
 */
export function channelClick(c: ClickableChannel): ChannelClick {
  if (c.Enable !== 1) return { kind: 'disabled' };
  if (c.Online !== 1) return { kind: 'offline' };
  return { kind: 'play', to: `/video/player/${encodeURIComponent(c.DeviceID)}/${encodeURIComponent(c.ChannelID)}/0` };
}
