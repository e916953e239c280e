/**
 * The streaming-status websocket (spec 4, 7): /api/v1/ws/streamstat?request_id=<generated>&token=….
 * One socket for the console, keyed by playerid like the events socket is by topic: each watcher
 * registers {playerid, device, channel, flow}, the server answers every second with a message
 * carrying that playerid, and the last status per playerid is kept for rendering. The socket opens
 * with the first watcher, closes with the last, and reconnects WS_RECONNECT_MS after a close
 * (re-sending every watched player) while anyone still watches and a token is present.
 */
import { useEffect, useId } from 'react';
import { create } from 'zustand';
import { WS_RECONNECT_MS, type Lang } from '@opencvr/shared';
import { currentLang } from '../i18n';
import { useSession } from './stores/session';

/** What the server reports of a stream (apps/server/src/media/stats.ts StreamStatus, in part). */
export interface StreamStat {
  stream: string;
  state: string;
  reason: string;
  totalViewers: number;
  viewers: Record<string, number>;
  bitrateKbps: number;
  fps: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string;
  uptime: number;
  restarts: number;
  /** The channel is being recorded now (by a plan or by hand). */
  recording?: boolean;
  /** Recorded by hand (realtimerecord/start) until stopped. */
  manualRecording?: boolean;
}

export interface StreamTarget {
  device: string;
  channel: string;
  /** 0 main, 1 sub. */
  flow: number;
}

type Entry = { stat?: StreamStat; error?: string };

interface StreamStatState {
  connected: boolean;
  byPlayer: Record<string, Entry>;
}

export const useStreamStatStore = create<StreamStatState>(() => ({ connected: false, byPlayer: {} }));

const watched = new Map<string, StreamTarget>();
let socket: WebSocket | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;
let requestId = '';
let socketToken = '';

function newRequestId(): string {
  const c = globalThis.crypto;
  return c && 'randomUUID' in c ? c.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** `lang`: the server writes its error texts in the console's language (a websocket sends the browser's Accept-Language). */
export function streamStatUrl(
  token: string,
  reqId: string,
  loc: Pick<Location, 'protocol' | 'host'> = window.location,
  lang: Lang = currentLang(),
): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}/api/v1/ws/streamstat?request_id=${encodeURIComponent(reqId)}&token=${encodeURIComponent(token)}&lang=${lang}`;
}

const addMessage = (playerid: string, t: StreamTarget) => ({ playerid, device: t.device, channel: t.channel, flow: t.flow });

function send(ws: WebSocket, msg: unknown): void {
  if (ws.readyState === 1) ws.send(JSON.stringify(msg));
}

function onMessage(raw: unknown): void {
  if (typeof raw !== 'string') return;
  let m: { type?: string; playerid?: string; msg?: string } & Partial<StreamStat>;
  try {
    m = JSON.parse(raw) as typeof m;
  } catch {
    return;
  }
  if (!m || typeof m.playerid !== 'string' || !watched.has(m.playerid)) return;
  const id = m.playerid;
  let entry: Entry;
  if (m.type === 'streamstat') {
    entry = {
      stat: {
        stream: m.stream ?? '',
        state: m.state ?? '',
        reason: m.reason ?? '',
        totalViewers: m.totalViewers ?? 0,
        viewers: m.viewers ?? {},
        bitrateKbps: m.bitrateKbps ?? 0,
        fps: m.fps ?? 0,
        width: m.width ?? 0,
        height: m.height ?? 0,
        videoCodec: m.videoCodec ?? '',
        audioCodec: m.audioCodec ?? '',
        uptime: m.uptime ?? 0,
        restarts: m.restarts ?? 0,
      },
    };
  } else if (m.type === 'error') entry = { error: m.msg ?? 'error' };
  else return;
  useStreamStatStore.setState((s) => ({ byPlayer: { ...s.byPlayer, [id]: entry } }));
}

function open(): void {
  retry = null;
  const token = useSession.getState().token;
  if (!token || watched.size === 0 || typeof WebSocket === 'undefined') return;
  requestId = newRequestId();
  socketToken = token;
  const ws = new WebSocket(streamStatUrl(token, requestId));
  socket = ws;
  ws.onopen = () => {
    useStreamStatStore.setState({ connected: true });
    send(ws, [...watched].map(([id, t]) => addMessage(id, t)));
  };
  ws.onmessage = (ev: MessageEvent) => onMessage(ev.data);
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    useStreamStatStore.setState({ connected: false });
    if (watched.size > 0 && !retry) retry = setTimeout(open, WS_RECONNECT_MS);
  };
}

function close(): void {
  if (retry) clearTimeout(retry);
  retry = null;
  const ws = socket;
  socket = null;
  ws?.close();
  useStreamStatStore.setState({ connected: false });
}

/** Starts reporting a player's stream; the returned function stops it. */
export function watchStream(playerid: string, target: StreamTarget): () => void {
  watched.set(playerid, target);
  // A socket of another session (re-login) is replaced.
  if (socket && socketToken !== useSession.getState().token) close();
  if (socket) send(socket, addMessage(playerid, target));
  else if (!retry) open();
  return () => {
    if (watched.get(playerid) !== target) return;
    watched.delete(playerid);
    useStreamStatStore.setState((s) => {
      const { [playerid]: _gone, ...rest } = s.byPlayer;
      return { byPlayer: rest };
    });
    if (socket) send(socket, { type: 'remove', playerid });
    if (watched.size === 0) close();
  };
}

/** Closes the socket and forgets every watcher (logout). */
export function stopStreamStats(): void {
  watched.clear();
  close();
  useStreamStatStore.setState({ byPlayer: {} });
}

/**
 * The server's status of a stream while the component is mounted; null target (public pages, no
 * session) watches nothing.
 */
export function useStreamStat(target: StreamTarget | null): Entry | undefined {
  const playerid = useId();
  const token = useSession((s) => s.token);
  const device = target?.device;
  const channel = target?.channel;
  const flow = target?.flow;
  useEffect(() => {
    if (!token || device === undefined || channel === undefined || flow === undefined) return;
    return watchStream(playerid, { device, channel, flow });
  }, [playerid, token, device, channel, flow]);
  return useStreamStatStore((s) => s.byPlayer[playerid]);
}
