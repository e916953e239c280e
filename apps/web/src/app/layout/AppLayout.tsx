/** The console frame: top bar, the video sidebar on video pages, and the page. */
import { Suspense, useEffect } from 'react';
import { Flex, Layout, theme } from 'antd';
import { useLocation } from 'react-router-dom';
import { useUi } from '../../lib/stores/ui';
import { PageLoading } from '../PageLoading';
import { findRoute } from '../routes';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { SiderToggle } from './SiderToggle';
import { TopBar } from './TopBar';
import { VideoSider } from './VideoSider';

export default function AppLayout() {
  const { pathname } = useLocation();
  const collapsed = useUi((s) => s.cvrLayoutCollapsed);
  const setCollapsed = useUi((s) => s.setCollapsed);
  const isMobile = useUi((s) => s.isMobile);
  // antd's zero-width sidebar trigger is controlHeightLG wide (its Layout token zeroTriggerWidth).
  const triggerWidth = theme.useToken().token.controlHeightLG;
  // Alarm, config, device, user and diagnostics pages have no sidebar; video pages do.
  const sider = findRoute(pathname)?.sider === true;
  // On a phone the sidebar opens from the top bar (SiderToggle), not from a trigger over the page.
  const phoneSider = sider && isMobile;
  // On a phone the open sidebar covers the whole page: a channel chosen in it (a new route) closes
  // it, else the player it opened played unseen underneath.
  useEffect(() => {
    if (useUi.getState().isMobile) setCollapsed(true);
  }, [pathname, setCollapsed]);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ padding: '0 16px', background: '#001529', position: 'sticky', top: 0, zIndex: 10 }}>
        <Flex align="center" gap={4} style={{ height: '100%' }}>
          {phoneSider && <SiderToggle />}
          <div style={{ flex: 1, minWidth: 0, height: '100%' }}>
            <TopBar />
          </div>
        </Flex>
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
            // Beside a wider page the trigger hangs over the page's left edge, above the page's own
            // controls (on a narrow window the square's search box covered it, and a tap on it landed
            // in the search box); on a phone there is none: the top bar has the button.
            trigger={phoneSider ? null : undefined}
            zeroWidthTriggerStyle={{ zIndex: 5 }}
            style={{ borderRight: '1px solid #f0f0f0' }}
            data-testid="video-sider"
          >
            <VideoSider />
          </Layout.Sider>
        )}
        {/*
          Beside a sidebar the page starts right of the sidebar's trigger (40 px, hanging over the
          page's edge), which otherwise covered the first letters of every video page's title and the
          top-left corner of a player or a wall's first cell. On a phone the width matters more: there
          the top bar has the sidebar's button instead.
        */}
        <Layout.Content style={{ minWidth: 0, paddingInlineStart: sider && !isMobile ? triggerWidth : 0 }}>
          <Suspense fallback={<PageLoading />}>
            <KeepAliveOutlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
