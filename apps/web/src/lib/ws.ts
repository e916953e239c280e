/**
 * The events websocket as a small topic-keyed store: the last payload of each topic is kept for
 * rendering, and subscribers get every message of their topic. It reconnects WS_RECONNECT_MS after
 * a close until `disconnectEvents` is called (logout).
 */
import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { WS_RECONNECT_MS, type EventMessage } from '@opencvr/shared';

type Topic = EventMessage['topic'];
type PayloadOf<T extends Topic> = Extract<EventMessage, { topic: T }>['payload'];
type Listener = (payload: unknown) => void;

interface WsState {
  connected: boolean;
  last: Partial<Record<Topic, unknown>>;
}

export const useWsStore = create<WsState>(() => ({ connected: false, last: {} }));

const listeners = new Map<string, Set<Listener>>();
let socket: WebSocket | null = null;
let wantedToken = '';
let retry: ReturnType<typeof setTimeout> | null = null;

export function eventsUrl(token: string, loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}/api/v1/ws/events?token=${encodeURIComponent(token)}`;
}

function dispatch(raw: string): void {
  let msg: EventMessage;
  try {
    msg = JSON.parse(raw) as EventMessage;
  } catch {
    return;
  }
  if (!msg || typeof msg.topic !== 'string') return;
  useWsStore.setState((s) => ({ last: { ...s.last, [msg.topic]: msg.payload } }));
  listeners.get(msg.topic)?.forEach((fn) => fn(msg.payload));
}

function open(): void {
  if (!wantedToken || typeof WebSocket === 'undefined') return;
  const ws = new WebSocket(eventsUrl(wantedToken));
  socket = ws;
  ws.onopen = () => useWsStore.setState({ connected: true });
  ws.onmessage = (ev) => dispatch(typeof ev.data === 'string' ? ev.data : '');
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    useWsStore.setState({ connected: false });
    if (wantedToken) retry = setTimeout(open, WS_RECONNECT_MS);
  };
}

export function connectEvents(token: string): void {
  if (token === wantedToken && socket) return;
  disconnectEvents();
  wantedToken = token;
  open();
}

export function disconnectEvents(): void {
  wantedToken = '';
  if (retry) clearTimeout(retry);
  retry = null;
  const ws = socket;
  socket = null;
  ws?.close();
  useWsStore.setState({ connected: false });
}

export function subscribe<T extends Topic>(topic: T, fn: (payload: PayloadOf<T>) => void): () => void {
  const set = listeners.get(topic) ?? new Set<Listener>();
  listeners.set(topic, set);
  const l = fn as Listener;
  set.add(l);
  return () => set.delete(l);
}

/** Calls `fn` for every message of `topic` while the component is mounted. */
export function useWsTopic<T extends Topic>(topic: T, fn: (payload: PayloadOf<T>) => void): void {
  const ref = useRef(fn);
  useEffect(() => {
    ref.current = fn;
  });
  useEffect(() => subscribe(topic, (p) => ref.current(p)), [topic]);
}
