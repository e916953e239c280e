/** The console frame: top bar, the video sidebar on video pages, and the page. */
import { Suspense } from 'react';
import { Layout } from 'antd';
import { Outlet, useLocation } from 'react-router-dom';
import { useUi } from '../../lib/stores/ui';
import { PageLoading } from '../PageLoading';
import { findRoute } from '../routes';
import { TopBar } from './TopBar';
import { VideoSider } from './VideoSider';

export default function AppLayout() {
  const { pathname } = useLocation();
  const collapsed = useUi((s) => s.cvrLayoutCollapsed);
  const setCollapsed = useUi((s) => s.setCollapsed);
  const isMobile = useUi((s) => s.isMobile);
  // Alarm, config, device, user and diagnostics pages have no sidebar; video pages do.
  const sider = findRoute(pathname)?.sider === true;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ padding: '0 16px', background: '#001529', position: 'sticky', top: 0, zIndex: 10 }}>
        <TopBar />
      </Layout.Header>
      <Layout>
        {sider && (
          <Layout.Sider
            width={isMobile ? '100%' : 280}
            theme="light"
            collapsible
            collapsed={collapsed}
            collapsedWidth={0}
            onCollapse={setCollapsed}
            breakpoint="md"
            style={{ borderRight: '1px solid #f0f0f0' }}
            data-testid="video-sider"
          >
            <VideoSider />
          </Layout.Sider>
        )}
        <Layout.Content style={{ minWidth: 0 }}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
