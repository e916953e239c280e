/** Providers: antd theme/locale and notice settings, react-query, i18n, the router. */
import { useEffect, useMemo } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { bindNotifiers, NOTICE_SECONDS, NOTICE_TOP } from '../lib/notify';
import { setNavigator } from '../lib/navigation';
import { useUi } from '../lib/stores/ui';
import { createRouter } from './router';

const queryClient = new QueryClient({
  // The request layer already tells the user about failures; retries would repeat the notice.
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

/** Hands antd's context-aware notice APIs to the request layer. */
function NotifyBridge() {
  const { message, notification } = AntApp.useApp();
  useEffect(() => bindNotifiers(message, notification), [message, notification]);
  return null;
}

function useWindowSize() {
  const setWindowSize = useUi((s) => s.setWindowSize);
  useEffect(() => {
    const onResize = () => setWindowSize(window.innerWidth, window.innerHeight);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setWindowSize]);
}

export function App() {
  const { i18n } = useTranslation();
  const router = useMemo(() => createRouter(), []);
  useEffect(() => {
    // flushSync: the new location renders before the caller clears the session (see lib/logout.ts).
    setNavigator((to) => router.navigate(to, { flushSync: true }));
    return () => setNavigator(null);
  }, [router]);
  useWindowSize();

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={i18n.language === 'en-US' ? enUS : zhCN}>
        <AntApp message={{ duration: NOTICE_SECONDS, top: NOTICE_TOP }} notification={{ duration: NOTICE_SECONDS, top: NOTICE_TOP }}>
          <NotifyBridge />
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
