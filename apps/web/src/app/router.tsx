/** Builds the browser router from the route table. */
import { Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { PageLoading } from './PageLoading';
import { Shell, UnavailablePage } from './frames';
import { RouteError } from './RouteError';
import { Root } from './Root';
import { ROUTES, type RouteDef } from './routes';


function element(r: RouteDef) {
  const Page = r.page;
  return <Suspense fallback={<PageLoading />}>{Page ? <Page /> : <UnavailablePage title={r.title} />}</Suspense>;
}

export function buildRoutes(): RouteObject[] {
  const bare = ROUTES.filter((r) => r.layout === 'bare').map((r) => ({ path: r.path, element: element(r), handle: r }));
  const main = ROUTES.filter((r) => r.layout === 'main').map((r) => ({ path: r.path, element: element(r), handle: r }));
  return [
    {
      element: <Root />,
      errorElement: <RouteError />,
      children: [
        ...bare,
        {
          element: (
            <Suspense fallback={<PageLoading />}>
              <Shell />
            </Suspense>
          ),
          children: main,
        },
        // The guard redirects unknown paths; this only catches what slips past it.
        { path: '*', element: <Navigate to="/video" replace /> },
      ],
    },
  ];
}

export function createRouter() {
  return createBrowserRouter(buildRoutes());
}
