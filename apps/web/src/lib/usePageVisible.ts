/**
 * Whether the console's tab is visible (Page Visibility API): work that only matters to someone
 * looking, such as refreshing pictures, waits while the tab is hidden.
 */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

const visibleNow = () => document.visibilityState !== 'hidden';

export function usePageVisible(): boolean {
  return useSyncExternalStore(subscribe, visibleNow, () => true);
}
