/**
 * The multi-screen wall's rules (spec 3, 9): layouts 1/4/9/16 with the channel of each cell kept in
 * localStorage, the sub-stream for walls of more than 4 cells, and the loop (tour) list cycled
 * through the cells.
 */
import { LAYOUTS, STORAGE_KEYS } from '@opencvr/shared';

export type Layout = (typeof LAYOUTS)[number];

export interface WallChannel {
  device: string;
  channel: string;
  name: string;
}

export interface WallState {
  layout: Layout;
  /** One entry per cell of the largest layout (16); null: empty. */
  cells: (WallChannel | null)[];
  /**
   * The tour as the wall last showed it: running or not, and its page (0-based). Kept with the
   * layout, so a reload puts the wall back as it was (a running tour runs on from its page, a
   * stopped one stays stopped) and a logout, which removes the layout, ends it.
   */
  tour: TourState;
}

export interface TourState {
  running: boolean;
  page: number;
}

export interface LoopState {
  channels: WallChannel[];
  /** "device/channel" of each, as the original console kept them. */
  channelIds: string[];
  /** Seconds per page. */
  interval: number;
}

export const MAX_CELLS = 16;
export const DEFAULT_LOOP_INTERVAL = 10;
export const MIN_LOOP_INTERVAL = 5;
/** The drag data the video sidebar puts on channel nodes. */
export { CHANNEL_DRAG_TYPE } from '../../lib/channelDrag';

export const isLayout = (n: unknown): n is Layout => LAYOUTS.includes(n as Layout);
export const gridSide = (layout: Layout) => Math.sqrt(layout);
/** Walls of more than 4 cells play the sub-stream (flow 1). */
export const cellFlow = (layout: Layout): 0 | 1 => (layout > 4 ? 1 : 0);
export const channelId = (c: Pick<WallChannel, 'device' | 'channel'>) => `${c.device}/${c.channel}`;

export function parseChannel(v: unknown): WallChannel | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const device = o.device ?? o.DeviceID ?? o.ParentDeviceID;
  const channel = o.channel ?? o.ChannelID;
  if ((typeof device !== 'string' && typeof device !== 'number') || (typeof channel !== 'string' && typeof channel !== 'number')) return null;
  if (String(device) === '' || String(channel) === '') return null;
  const name = typeof o.name === 'string' ? o.name : typeof o.Name === 'string' ? o.Name : String(channel);
  return { device: String(device), channel: String(channel), name };
}

const emptyCells = () => Array.from({ length: MAX_CELLS }, () => null as WallChannel | null);

const stoppedTour = (): TourState => ({ running: false, page: 0 });

export function emptyWall(): WallState {
  return { layout: 4, cells: emptyCells(), tour: stoppedTour() };
}

function parseTour(v: unknown): TourState {
  if (!v || typeof v !== 'object') return stoppedTour();
  const o = v as Record<string, unknown>;
  const page = Number(o.page);
  return { running: o.running === true, page: Number.isInteger(page) && page >= 0 ? page : 0 };
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

export function loadWall(store: Store = localStorage): WallState {
  try {
    const raw = JSON.parse(store.getItem(STORAGE_KEYS.multiScreenLayout) ?? 'null') as Partial<WallState> | null;
    if (!raw || typeof raw !== 'object') return emptyWall();
    const layout = isLayout(raw.layout) ? raw.layout : 4;
    const cells = emptyCells();
    if (Array.isArray(raw.cells)) raw.cells.slice(0, MAX_CELLS).forEach((c, i) => (cells[i] = parseChannel(c)));
    return { layout, cells, tour: parseTour(raw.tour) };
  } catch {
    return emptyWall();
  }
}

export function saveWall(w: WallState, store: Store = localStorage): void {
  store.setItem(STORAGE_KEYS.multiScreenLayout, JSON.stringify({ layout: w.layout, cells: w.cells, tour: w.tour }));
}

export function setCell(w: WallState, index: number, c: WallChannel | null): WallState {
  if (index < 0 || index >= MAX_CELLS) return w;
  const cells = w.cells.slice();
  cells[index] = c;
  return { ...w, cells };
}

/** The cell a picked channel goes to after `from`: the next empty visible one, else `from` itself. */
export function nextEmptyCell(w: WallState, from: number): number {
  for (let k = 1; k <= w.layout; k++) {
    const i = (from + k) % w.layout;
    if (!w.cells[i]) return i;
  }
  return from;
}

export function loadLoop(store: Store = localStorage): LoopState {
  try {
    const raw = JSON.parse(store.getItem(STORAGE_KEYS.loopChannels) ?? 'null') as Partial<LoopState> | null;
    const channels = Array.isArray(raw?.channels) ? raw.channels.map(parseChannel).filter((c): c is WallChannel => !!c) : [];
    const interval = Number(raw?.interval);
    return {
      channels,
      channelIds: channels.map(channelId),
      interval: Number.isFinite(interval) && interval >= MIN_LOOP_INTERVAL ? Math.round(interval) : DEFAULT_LOOP_INTERVAL,
    };
  } catch {
    return { channels: [], channelIds: [], interval: DEFAULT_LOOP_INTERVAL };
  }
}

export function saveLoop(l: Pick<LoopState, 'channels' | 'interval'>, store: Store = localStorage): void {
  store.setItem(STORAGE_KEYS.loopChannels, JSON.stringify({ channels: l.channels, channelIds: l.channels.map(channelId), interval: l.interval }));
}

/** The cells of loop page `tick`: the channels taken `layout` at a time, wrapping round. */
export function loopCells(channels: WallChannel[], layout: Layout, tick: number): (WallChannel | null)[] {
  if (!channels.length) return Array.from({ length: layout }, () => null);
  const pages = Math.ceil(channels.length / layout);
  const page = ((tick % pages) + pages) % pages;
  return Array.from({ length: layout }, (_, i) => channels[page * layout + i] ?? null);
}

export function loopPages(channels: WallChannel[], layout: Layout): number {
  return Math.max(1, Math.ceil(channels.length / layout));
}
