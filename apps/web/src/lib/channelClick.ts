/**
 * What clicking a channel does (spec 2 "Video pages"), one rule for the sidebar (features/video) and the
 * channel cards of /video/square (features/live): a pure rule and the hook that carries it out.
 */
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { msg } from '../i18n';
import { notify } from './notify';

export interface ClickableChannel {
  DeviceID: string;
  ChannelID: string;
  Online: number;
  Enable: number;
  /** The device's Enable where the row carries it (ChannelRow.DeviceEnable): a disabled device plays nothing. */
  DeviceEnable?: number;
}

export type ChannelClick = { kind: 'play'; to: string } | { kind: 'offline' } | { kind: 'disabled' };

/**
 * Online and enabled: the player (/video/player/{devid}/{chnid}/0, flow 0 = main stream).
 * Otherwise a notice; a disabled channel (or one of a disabled device) is named as such first, because
 * it is never played and "offline" would hide the reason.
 */
export function channelClick(c: ClickableChannel, where: { pathname?: string; today?: string } = {}): ChannelClick {
  // On the playback pages a channel opens its recordings for today, online or not (spec 2).
  if (where.pathname?.startsWith('/video/back')) {
    return { kind: 'play', to: `/video/backchannel/${encodeURIComponent(c.DeviceID)}/${encodeURIComponent(c.ChannelID)}/${where.today ?? todayYmd()}` };
  }
  if (!isEnabled(c)) return { kind: 'disabled' };
  if (c.Online !== 1) return { kind: 'offline' };
  return { kind: 'play', to: `/video/player/${encodeURIComponent(c.DeviceID)}/${encodeURIComponent(c.ChannelID)}/0` };
}

/** Whether a channel may play: it and its device are enabled (a row without DeviceEnable: the device is taken as enabled). */
export function isEnabled(c: Pick<ClickableChannel, 'Enable' | 'DeviceEnable'>): boolean {
  return c.Enable === 1 && c.DeviceEnable !== 0;
}

/** Today in local time as YYYYMMDD. */
export function todayYmd(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}`;
}

/** Opens a channel by the rule: its page, or the warning 通道已离线! / 通道未开启! (spec 8 messages). */
export function useOpenChannel(): (c: ClickableChannel) => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(
    (c: ClickableChannel) => {
      const action = channelClick(c, { pathname });
      if (action.kind === 'play') navigate(action.to);
      else notify.warning(msg(action.kind === 'offline' ? 'channelOffline' : 'channelDisabled'));
    },
    [navigate, pathname],
  );
}
