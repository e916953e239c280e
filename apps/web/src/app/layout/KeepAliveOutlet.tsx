/**
 * The page outlet that honours the route table's keep-alive flag (spec 2 "route metadata may mark a
 * page as keep-alive"). A flagged page stays mounted while other pages show, hidden in a React
 * <Activity>, so what the user left there (a list's page and filters, a wall's layout, the scroll
 * position) is there when they come back. Hidden, its effects are cleaned up as on an unmount and run
 * again when it shows: players stop, sockets and polls close, queries refresh on return; a kept page
 * costs memory, not bandwidth.
 *
 * One instance per route, keyed by its path pattern, as the plain outlet keeps one instance while only
 * the route's parameters change (/video/square/0 → /video/square/5). A hidden page keeps the element
 * it last rendered, with its own route match, so its parameters stay its own.
 */
import { Activity, Fragment, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router-dom';
import { keepAliveKey } from '../routes';

export function KeepAliveOutlet({ keyOf = keepAliveKey }: { keyOf?: (pathname: string) => string | undefined }) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const activeKey = keyOf(pathname);
  // Written during render: the element a kept page shows must be the one of this render. The map
  // only grows to the number of flagged routes and goes with the layout (logout leaves it).
  const kept = useRef(new Map<string, ReactNode>());
  if (activeKey) kept.current.set(activeKey, outlet);
  useKeptScroll(activeKey);

  return (
    <>
      {[...kept.current].map(([key, element]) => (
        <Activity key={key} mode={key === activeKey ? 'visible' : 'hidden'}>
          {element}
        </Activity>
      ))}
      <Fragment key="page">{activeKey ? null : outlet}</Fragment>
    </>
  );
}

/**
 * The window's scroll position of each kept page, put back when it shows again. Recorded while the
 * page shows (on hiding, the shorter document may already have clamped it); a page shown for the
 * first time scrolls as any page does.
 */
function useKeptScroll(activeKey: string | undefined) {
  const positions = useRef(new Map<string, number>());
  useLayoutEffect(() => {
    if (!activeKey) return;
    const y = positions.current.get(activeKey);
    if (y !== undefined && y !== window.scrollY) window.scrollTo(0, y);
  }, [activeKey]);
  useEffect(() => {
    if (!activeKey) return;
    const record = () => positions.current.set(activeKey, window.scrollY);
    window.addEventListener('scroll', record, { passive: true });
    return () => window.removeEventListener('scroll', record);
  }, [activeKey]);
}
