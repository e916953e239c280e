/**
 * The height a sidebar tree may take: from the top of its box down to the bottom of the window.
 *
 * Given to antd Tree as `height`, it makes the tree a virtual list: only the rows in view are
 * mounted. The first level is 50 devices and mounting all of them was the largest single cost of
 * the sidebar's first render (~0.5 s on a busy 2-core machine, bench/inventory); the rows in view
 * are a third of that. The tree then scrolls inside itself, the rest of the sidebar stays put.
 *
 * The console's frame grows with its content (Layout minHeight 100vh), so the sidebar's own height
 * is no measure: the window is. Measured before paint (layout effect) and again when the window or
 * the box is resized.
 *
 * `undefined` until measured (render the tree only then, so its first render is already virtual);
 * 0 where there is no layout (jsdom, or a sidebar hidden at start): the tree is then not virtual.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Room kept under the tree: the sidebar panel's bottom padding. */
const BOTTOM_GAP = 12;
/** Below this a window is too short to be worth a virtual list's own scrollbar. */
const MIN_HEIGHT = 160;

export function useTreeHeight(): [RefObject<HTMLDivElement | null>, number | undefined] {
  const box = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState<number | undefined>(undefined);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      // No width: no layout (jsdom) or a collapsed sidebar; keep what was measured before, if anything.
      if (el.clientWidth === 0) {
        setHeight((prev) => prev ?? 0);
        return;
      }
      const rest = Math.floor(window.innerHeight - el.getBoundingClientRect().top - BOTTOM_GAP);
      setHeight(Math.max(MIN_HEIGHT, rest));
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    observer?.observe(el);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, []);

  return [box, height];
}
