import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '@opencvr/shared';

/**
 * The value after it has stopped changing for the search debounce (spec 9: 500 ms). In lib so the
 * device pages and the video sidebar share one definition.
 */
export function useDebounced<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}
