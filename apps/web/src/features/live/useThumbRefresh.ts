/**
 * Keeps an open video square's card pictures fresh. The server makes a card's thumbnail again every
 * 5 min while the card keeps asking (services/media/thumbnails.ts), but an <img> loads its URL once:
 * a square left open on a wall showed the pictures of the moment it was opened. So a card asks again
 * every THUMB_REFRESH_MS with the browser's copy to compare (fetch with cache 'no-cache' sends its
 * ETag: an unchanged picture is a 304 and no bytes), and shows the new picture only when the tag
 * changed. The asks of a page of 20 cards are spread THUMB_STAGGER_MS apart by the card's place on
 * the page (not 20 requests in the same second), and none is sent while the tab is hidden: back in
 * view, the overdue cards ask again, spread the same way.
 */
import { useEffect, useRef } from 'react';
import { usePageVisible } from '../../lib/usePageVisible';

/** Less than the server's 5 min remake, so a new picture shows within about 7 min of the old one. */
export const THUMB_REFRESH_MS = 120_000;
/** 20 cards over a minute. */
export const THUMB_STAGGER_MS = 3_000;

/**
 * While `url` is set (an online card that has loaded, or given up on, its picture), asks for it again
 * every THUMB_REFRESH_MS; `onNewer` gets an object URL of a picture the card has not shown yet (the
 * caller revokes it).
 */
export function useThumbRefresh(url: string | undefined, slot: number, onNewer: (objectUrl: string) => void): void {
  const visible = usePageVisible();
  /** When the next ask is due (0: not planned yet). */
  const next = useRef(0);
  /** The tag of the picture shown; unknown for the first one, which the <img> loaded. */
  const etag = useRef<string | null>(null);
  const notify = useRef(onNewer);
  useEffect(() => {
    notify.current = onNewer;
  }, [onNewer]);

  useEffect(() => {
    if (!url || !visible) return;
    const offset = slot * THUMB_STAGGER_MS;
    const now = Date.now();
    if (!next.current) next.current = now + THUMB_REFRESH_MS + offset;
    // Overdue (the tab was hidden): spread again rather than every card at once.
    else if (next.current <= now) next.current = now + offset;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const plan = () => (timer = setTimeout(() => void ask(), Math.max(0, next.current - Date.now())));
    async function ask() {
      next.current = Date.now() + THUMB_REFRESH_MS;
      try {
        const res = await fetch(url!, { cache: 'no-cache', signal: abort.signal });
        const tag = res.headers.get('etag');
        if (res.ok && (!tag || tag !== etag.current)) {
          const blob = await res.blob();
          if (blob.type.startsWith('image/')) {
            etag.current = tag;
            notify.current(URL.createObjectURL(blob));
          }
        } else {
          await res.body?.cancel();
        }
      } catch {
        // Offline for a moment, or the card went away: the next ask tries again.
      }
      if (!abort.signal.aborted) plan();
    }
    plan();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [url, visible, slot]);
}
