/**
 * When a sidebar tree reads its loaded levels again (session 26): it kept a device another user had
 * deleted until the page was reloaded. Its rows follow the server
 *  - when the window gets the focus back (an operator back from another window), at most every
 *    TREE_FOCUS_GAP_MS;
 *  - at once when a player learns its channel is gone (channelsGone.ts: the stream refused, 404);
 *  - every TREE_REFRESH_MS while the tab is visible.
 * A read is only of what is loaded (the levels the user opened, as far as their pages were loaded,
 * top down, the levels under a row that went dropped), one at a time: at 2,000 channels in pages of
 * 50 a closed tree is one request a minute.
 */
import { useEffect, useRef } from 'react';
import { useChannelsGone } from '../../../lib/channelsGone';

export const TREE_REFRESH_MS = 60_000;
export const TREE_FOCUS_GAP_MS = 15_000;

export function useTreeFreshness(refresh: () => Promise<void>): void {
  const refreshRef = useRef(refresh);
  useEffect(() => {
    refreshRef.current = refresh;
  });
  const gone = useChannelsGone((s) => s.version);
  const state = useRef({ last: Date.now(), busy: false, again: false });

  const run = useRef(() => {
    const s = state.current;
    if (s.busy) {
      s.again = true;
      return;
    }
    s.busy = true;
    s.last = Date.now();
    void refreshRef.current()
      .catch(() => undefined)
      .finally(() => {
        s.busy = false;
        if (s.again) {
          s.again = false;
          run.current();
        }
      });
  });

  const seen = useRef(gone);
  useEffect(() => {
    if (gone === seen.current) return;
    seen.current = gone;
    run.current();
  }, [gone]);

  useEffect(() => {
    const visible = () => document.visibilityState !== 'hidden';
    const onFocus = () => {
      if (visible() && Date.now() - state.current.last >= TREE_FOCUS_GAP_MS) run.current();
    };
    // Looked at every tenth of the period: a read for another reason (a focus) puts the next one off.
    const timer = setInterval(() => {
      if (visible() && Date.now() - state.current.last >= TREE_REFRESH_MS) run.current();
    }, TREE_REFRESH_MS / 10);
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, []);
}
