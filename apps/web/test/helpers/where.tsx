/**
 * Where the router is, for tests that click their way to another page: <Where /> shows the path and
 * query in data-testid "where", and atAnyPath(element) renders the element on every path with it.
 */
import type { ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';

export function Where() {
  const loc = useLocation();
  return <div data-testid="where">{loc.pathname + loc.search}</div>;
}

/** `element` on a catch-all route, followed by <Where />. */
export function atAnyPath(element: ReactNode) {
  return (
    <Routes>
      <Route
        path="*"
        element={
          <>
            {element}
            <Where />
          </>
        }
      />
    </Routes>
  );
}
