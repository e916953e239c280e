/**
 * The channel online/offline messages: pages of PAGE_SIZE loaded on demand, the unread count, and
 * live additions from the events websocket.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { PAGE_SIZE, type NewsItem } from '@opencvr/shared';
import { useWsTopic } from '../../lib/ws';
import { deleteNews, fetchNews, readNews } from './api';

/** How long pushed messages are gathered into one update of the list and counts. */
const NEWS_BATCH_MS = 200;

export function useNews(enabled: boolean) {
  const [items, setItems] = useState<NewsItem[]>([]);
  const [total, setTotal] = useState(0);
  const [unread, setUnread] = useState(0);
  const [loading, setLoading] = useState(false);
  const loadingRef = useRef(false);

  const load = useCallback(async (start: number) => {
    if (loadingRef.current) return;
    loadingRef.current = true;
    setLoading(true);
    try {
      const page = await fetchNews(start, PAGE_SIZE);
      setTotal(page.total);
      setUnread(page.unread);
      setItems((prev) => {
        const base = start === 0 ? [] : prev;
        const seen = new Set(base.map((n) => n.ID));
        return [...base, ...page.list.filter((n) => !seen.has(n.ID))];
      });
    } catch {
      // The request layer has shown the failure.
    } finally {
      loadingRef.current = false;
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (enabled) void load(0);
  }, [enabled, load]);

  // A camera server lost or back sends a message per channel (1,500 in seconds) to every console.
  // They are taken in batches (one render per batch, not per message: the list page froze for
  // seconds), and only the newest stay in the list, as many as it already held: the rest are
  // reached by scrolling, so a tab open through a day of flapping does not hold every message.
  const pending = useRef<NewsItem[]>([]);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useWsTopic('news', (item) => {
    pending.current.push(item);
    if (flushTimer.current) return;
    flushTimer.current = setTimeout(() => {
      flushTimer.current = undefined;
      const batch = pending.current;
      pending.current = [];
      setItems((prev) => {
        const seen = new Set(prev.map((n) => n.ID));
        const fresh = batch.filter((n) => !seen.has(n.ID) && seen.add(n.ID)).reverse();
        return fresh.length ? [...fresh, ...prev].slice(0, Math.max(PAGE_SIZE, prev.length)) : prev;
      });
      setTotal((n) => n + batch.length);
      setUnread((n) => n + batch.filter((i) => i.sign === 0).length);
    }, NEWS_BATCH_MS);
  });
  useEffect(() => () => clearTimeout(flushTimer.current), []);

  const hasMore = items.length < total;
  const loadMore = useCallback(() => {
    if (hasMore) void load(items.length);
  }, [hasMore, items.length, load]);

  const markRead = async (id?: number) => {
    await readNews(id);
    setItems((prev) => prev.map((n) => (id === undefined || n.ID === id ? { ...n, sign: 1 } : n)));
    setUnread((u) => (id === undefined ? 0 : Math.max(0, u - (items.find((n) => n.ID === id)?.sign === 0 ? 1 : 0))));
  };

  const remove = async (id: number) => {
    await deleteNews(id);
    const gone = items.find((n) => n.ID === id);
    setItems((prev) => prev.filter((n) => n.ID !== id));
    setTotal((t) => Math.max(0, t - 1));
    if (gone?.sign === 0) setUnread((u) => Math.max(0, u - 1));
  };

  return { items, total, unread, loading, hasMore, loadMore, reload: () => load(0), markRead, remove };
}
