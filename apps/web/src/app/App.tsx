/** Providers: antd theme/locale, react-query, i18n, the router, and the (lazy) notice host. */
import { useEffect, useMemo } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { NoticeHostSlot } from '../lib/NoticeHostSlot';
import { setNavigator } from '../lib/navigation';
import { useUi } from '../lib/stores/ui';
import { ConsoleLocale } from './ConsoleLocale';
import { createRouter } from './router';

const queryClient = new QueryClient({
  // The request layer already tells the user about failures; retries would repeat the notice.
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

// antd's message/notification code arrives with the first notice, not with the login page.
const loadNoticeHost = () => import('../lib/NoticeHost');

function useWindowSize() {
  const setWindowSize = useUi((s) => s.setWindowSize);
  useEffect(() => {
    const onResize = () => setWindowSize(window.innerWidth, window.innerHeight);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setWindowSize]);
}

export function App() {
  const router = useMemo(() => createRouter(), []);
  useEffect(() => {
    // flushSync: the new location renders before the caller clears the session (see lib/logout.ts).
    setNavigator((to) => router.navigate(to, { flushSync: true }));
    return () => setNavigator(null);
  }, [router]);
  useWindowSize();

  return (
    <QueryClientProvider client={queryClient}>
      <ConsoleLocale>
        <NoticeHostSlot load={loadNoticeHost} />
        <RouterProvider router={router} />
      </ConsoleLocale>
    </QueryClientProvider>
  );
}
