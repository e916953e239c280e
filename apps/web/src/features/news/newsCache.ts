/**
 * The bell's messages kept in localStorage as `newslist` (spec 3 "stored locally"): the newest page
 * and the counts, so a reloaded console shows the count and the list at once, and still shows them
 * while the server does not answer; the server's answer replaces them. The copy names its user: logout
 * keeps newslist (spec 4 clears other keys), and the next user of the browser must not see it.
 */
import { PAGE_SIZE, STORAGE_KEYS, type NewsItem } from '@opencvr/shared';

export interface NewsSnapshot {
  total: number;
  unread: number;
  items: NewsItem[];
}

interface Stored extends NewsSnapshot {
  user: number;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function isNewsItem(v: unknown): v is NewsItem {
  if (!v || typeof v !== 'object') return false;
  const n = v as Record<string, unknown>;
  return (
    isCount(n.ID) &&
    (n.Status === 'ON' || n.Status === 'OFF') &&
    typeof n.DeviceID === 'string' &&
    typeof n.ChannelID === 'string' &&
    typeof n.ChannelName === 'string' &&
    typeof n.NewsTime === 'string' &&
    (n.sign === 0 || n.sign === 1)
  );
}

/** The copy `user` left, or null (none, another user's, or not ours: edited by hand, an older format). */
export function readNewsCache(user: number | undefined): NewsSnapshot | null {
  if (user === undefined) return null;
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE_KEYS.newslist) ?? 'null') as Partial<Stored> | null;
    if (!v || v.user !== user || !isCount(v.total) || !isCount(v.unread) || !Array.isArray(v.items)) return null;
    if (!v.items.every(isNewsItem)) return null;
    return { total: v.total, unread: v.unread, items: v.items.slice(0, PAGE_SIZE) };
  } catch {
    return null;
  }
}

/** Keeps the newest page and the counts for `user`; a full or refused storage only loses the copy. */
export function writeNewsCache(user: number | undefined, s: NewsSnapshot): void {
  if (user === undefined) return;
  const stored: Stored = { user, total: s.total, unread: s.unread, items: s.items.slice(0, PAGE_SIZE) };
  try {
    localStorage.setItem(STORAGE_KEYS.newslist, JSON.stringify(stored));
  } catch {
    // Quota or privacy mode: the list still comes from the server.
  }
}
