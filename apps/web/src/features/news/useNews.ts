/**
 * The channel online/offline messages: pages of PAGE_SIZE loaded on demand, the unread count, and
 * live additions from the events websocket. "Load more" asks for the page after the last message
 * shown (newslist's `before`), not at an offset: a burst of messages arriving at the top, or one
 * deleted in another tab, shifted the offset, so the next page repeated rows or skipped some.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { PAGE_SIZE, type NewsItem } from '@opencvr/shared';
import { useSession } from '../../lib/stores/session';
import { useWsTopic } from '../../lib/ws';
import { deleteNews, fetchNews, readNews } from './api';
import { readNewsCache, writeNewsCache } from './newsCache';

/** How long pushed messages are gathered into one update of the list and counts. */
const NEWS_BATCH_MS = 200;

/** True once the call succeeded, false when it failed. */
const settled = (call: Promise<unknown>) => call.then(() => true, () => false);

export function useNews(enabled: boolean) {
  const user = useSession((s) => s.userinfo?.id);
  // What this user's console showed last (newsCache), until the server answers.
  const [cached] = useState(() => readNewsCache(user));
  const [items, setItems] = useState<NewsItem[]>(() => cached?.items ?? []);
  const [total, setTotal] = useState(() => cached?.total ?? 0);
  const [unread, setUnread] = useState(() => cached?.unread ?? 0);
  const [loading, setLoading] = useState(false);
  /** The last page came back short: the log's end is shown (until the list is read from the top again). */
  const [atEnd, setAtEnd] = useState(false);
  const loadingRef = useRef(false);

  /** A read from the top asked for while another read was on its way: made once that one is back. */
  const readAgain = useRef(false);

  /** The first page (no `after`), or the page after the message `after`. */
  const load = useCallback(async (after?: number) => {
    if (loadingRef.current) return;
    loadingRef.current = true;
    readAgain.current = false;
    setLoading(true);
    try {
      const page = await fetchNews(PAGE_SIZE, after);
      setTotal(page.total);
      setUnread(page.unread);
      setAtEnd(page.list.length < PAGE_SIZE);
      setItems((prev) => {
        const base = after === undefined ? [] : prev;
        // A pushed message may also come in a page: each message once.
        const seen = new Set(base.map((n) => n.ID));
        return [...base, ...page.list.filter((n) => !seen.has(n.ID))];
      });
    } catch {
      // The request layer has shown the failure.
    } finally {
      loadingRef.current = false;
      setLoading(false);
    }
    if (readAgain.current) void load();
  }, []);

  useEffect(() => {
    if (enabled) void load();
  }, [enabled, load]);

  // The events socket says hello on each connection. What the server pushed while there was none (the
  // socket's first seconds, a server restart, a network gap before it reconnects) is not sent again:
  // the bell counted a channel's message only if the socket was open when it came, and kept a short
  // count until a reload. The first page and the counts are read again then; a read on its way may
  // have been answered before the socket was there, so it is followed by another.
  useWsTopic('hello', () => {
    if (!enabled) return;
    if (loadingRef.current) readAgain.current = true;
    else void load();
  });

  useEffect(() => writeNewsCache(user, { total, unread, items }), [user, total, unread, items]);

  // A camera server lost or back sends a message per channel (1,500 in seconds) to every console.
  // They are taken in batches (one render per batch, not per message: the list page froze for
  // seconds), and only the newest stay in the list, as many as it already held: the rest are
  // reached by scrolling, so a tab open through a day of flapping does not hold every message.
  const pending = useRef<NewsItem[]>([]);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The rows shown, for the counts: a pushed message already in the list came in a page read after
  // the server stored it (a read on hello, a reload), whose total and unread counted it already.
  const shown = useRef(items);
  shown.current = items;
  useWsTopic('news', (item) => {
    pending.current.push(item);
    if (flushTimer.current) return;
    flushTimer.current = setTimeout(() => {
      flushTimer.current = undefined;
      const batch = pending.current;
      pending.current = [];
      // While a page is on its way no row is dropped: it follows the last row, which must stay.
      const paging = loadingRef.current;
      setItems((prev) => {
        const seen = new Set(prev.map((n) => n.ID));
        const fresh = batch.filter((n) => !seen.has(n.ID) && seen.add(n.ID)).reverse();
        const keep = paging ? prev.length + fresh.length : Math.max(PAGE_SIZE, prev.length);
        // Rows dropped at the bottom are the next page again, even after the log's end was shown.
        if (fresh.length + prev.length > keep) setAtEnd(false);
        return fresh.length ? [...fresh, ...prev].slice(0, keep) : prev;
      });
      const listed = new Set(shown.current.map((n) => n.ID));
      const counted = batch.filter((n) => !listed.has(n.ID) && listed.add(n.ID));
      setTotal((n) => n + counted.length);
      setUnread((n) => n + counted.filter((i) => i.sign === 0).length);
    }, NEWS_BATCH_MS);
  });
  useEffect(() => () => clearTimeout(flushTimer.current), []);

  const hasMore = !atEnd && items.length < total;
  const last = items.at(-1)?.ID;
  const loadMore = useCallback(() => {
    if (hasMore) void load(last);
  }, [hasMore, last, load]);

  // Read and delete answer whether the server took them; a refusal changes nothing here (the
  // request layer has shown it) and is not thrown on to the buttons that call these.
  const markRead = async (id?: number): Promise<boolean> => {
    if (!(await settled(readNews(id)))) return false;
    setItems((prev) => prev.map((n) => (id === undefined || n.ID === id ? { ...n, sign: 1 } : n)));
    setUnread((u) => (id === undefined ? 0 : Math.max(0, u - (items.find((n) => n.ID === id)?.sign === 0 ? 1 : 0))));
    return true;
  };

  const remove = async (id: number): Promise<boolean> => {
    if (!(await settled(deleteNews(id)))) return false;
    const gone = items.find((n) => n.ID === id);
    setItems((prev) => prev.filter((n) => n.ID !== id));
    setTotal((t) => Math.max(0, t - 1));
    if (gone?.sign === 0) setUnread((u) => Math.max(0, u - 1));
    return true;
  };

  return { items, total, unread, loading, hasMore, loadMore, reload: () => load(), markRead, remove };
}
