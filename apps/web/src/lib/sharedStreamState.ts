/**
 * The camera's state of a public page's one stream (/share and /players: no login). The console's
 * streamstat socket needs a login; this one, /api/v1/ws/share/streamstat, is let in by the shared
 * link's play token and tells that stream's state and reason once a second, nothing else. The live
 * player needs it for HLS and WebRTC, whose media carry no camera state (WS-fMP4 and WS-FLV do).
 * One socket per player (a public page has one); it reconnects WS_RECONNECT_MS after a close, except
 * when the server closed it for its token (1008: the link expired; the page says so itself) or because
 * the link's channel does not exist (WS_CHANNEL_GONE_CLOSE: deleted, or its device).
 */
import { useEffect, useState } from 'react';
import { WS_CHANNEL_GONE_CLOSE, WS_RECONNECT_MS, type Lang } from '@opencvr/shared';
import { currentLang } from '../i18n';
import type { StreamTarget } from './streamStat';

/** What the public socket says of the stream: its state ('live', 'retrying', …) and why, in the page's language. */
export interface SharedStreamState {
  state: string;
  reason: string;
}

export interface SharedStreamTarget extends StreamTarget {
  /** The shared link's play_token (the page's query). */
  token: string;
}

/** Closed by the server for its token, or for a channel that is gone: opening again cannot help. */
const FINAL_CLOSES: ReadonlySet<number> = new Set([1008, WS_CHANNEL_GONE_CLOSE]);

export function sharedStreamStateUrl(
  target: SharedStreamTarget,
  loc: Pick<Location, 'protocol' | 'host'> = window.location,
  lang: Lang = currentLang(),
): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = new URLSearchParams({ device: target.device, channel: target.channel, stream: String(target.flow), play_token: target.token, lang });
  return `${proto}//${loc.host}/api/v1/ws/share/streamstat?${q}`;
}

/**
 * The stream's state while mounted, from each message a new object (so a newer message can be told
 * from an older one with the same words); undefined before the first and for a null target.
 */
export function useSharedStreamState(target: SharedStreamTarget | null): SharedStreamState | undefined {
  const [state, setState] = useState<SharedStreamState>();
  const device = target?.device;
  const channel = target?.channel;
  const flow = target?.flow;
  const token = target?.token;
  useEffect(() => {
    setState(undefined);
    if (device === undefined || channel === undefined || flow === undefined || !token || typeof WebSocket === 'undefined') return;
    let ws: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let ended = false;
    const open = () => {
      const socket = new WebSocket(sharedStreamStateUrl({ device, channel, flow, token }));
      ws = socket;
      socket.onmessage = (ev: MessageEvent) => {
        if (typeof ev.data !== 'string') return;
        let m: { type?: unknown; state?: unknown; reason?: unknown };
        try {
          m = JSON.parse(ev.data) as typeof m;
        } catch {
          return;
        }
        if (m?.type !== 'streamstat' || typeof m.state !== 'string') return;
        setState({ state: m.state, reason: typeof m.reason === 'string' ? m.reason : '' });
      };
      socket.onclose = (ev: CloseEvent) => {
        if (ended || ws !== socket) return;
        ws = null;
        // What it said no longer holds once it is gone.
        setState(undefined);
        if (!FINAL_CLOSES.has(ev.code)) retry = setTimeout(open, WS_RECONNECT_MS);
      };
    };
    open();
    return () => {
      ended = true;
      clearTimeout(retry);
      ws?.close();
    };
  }, [device, channel, flow, token]);
  return state;
}
