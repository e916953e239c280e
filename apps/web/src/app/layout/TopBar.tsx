/**
 * The top bar: logo/title/version, the main menu, search, bell, language and user menu.
 *
 * The logo renders with the frame; the menu and the controls one step later, in a transition
 * (useAfterFrame): the menu renders every item twice and measures them, and with the dropdowns
 * it is the heaviest part of the frame. On the video pages the sidebar's tree, what an operator
 * looks for first, so shows before it instead of after it (bench inventory: about 300 ms of
 * main-thread time on a cold load), and any page's own update goes first too.
 */
import { startTransition, Suspense, useEffect, useMemo, useState } from 'react';
import { Button, Flex, Menu, type MenuProps } from 'antd';
import { SearchOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { DEFAULT_TITLE, VERSION } from '@opencvr/shared';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { isAdminRole, isMenuAdmin } from '../../lib/session';
import { recordVersionOf, useConfig } from '../../lib/stores/config';
import { useSession } from '../../lib/stores/session';
import { useUi } from '../../lib/stores/ui';
import { NewsBell } from '../../features/news/components/NewsBell';
import { activeGroup, buildNav } from './navItems';
import { lazyPage } from '../../lib/lazy';
import { UserMenu } from './UserMenu';

// Loaded on the first click on the search button, not with every page.
const SearchAllModal = lazyPage(() => import('./SearchAllModal').then((m) => ({ default: m.SearchAllModal })));

/** False on the first render, true after a low-priority re-render that anything urgent preempts. */
function useAfterFrame(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => startTransition(() => setReady(true)), []);
  return ready;
}

export function TopBar() {
  const ready = useAfterFrame();
  const title = useConfig((s) => s.otherConfig?.Title || s.homeConfig?.Title || DEFAULT_TITLE);
  const version = useConfig((s) => s.otherConfig?.Version || s.homeConfig?.Version || VERSION);
  const isMobile = useUi((s) => s.isMobile);

  return (
    <Flex align="center" gap={12} style={{ height: '100%' }}>
      <Link to="/ai/dashboard" style={{ color: '#fff', display: 'flex', alignItems: 'center', gap: 8, whiteSpace: 'nowrap' }} data-testid="logo">
        <VideoCameraOutlined style={{ fontSize: 22 }} />
        {!isMobile && (
          <span style={{ fontSize: 18, fontWeight: 600 }}>
            {title} <span style={{ fontSize: 12, opacity: 0.7 }}>v{version}</span>
          </span>
        )}
      </Link>
      {ready ? <TopBarControls /> : <div style={{ flex: 1 }} />}
    </Flex>
  );
}

/** The main menu and the controls on the right (search, bell, language, user menu). */
function TopBarControls() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const user = useSession((s) => s.userinfo);
  const isMobile = useUi((s) => s.isMobile);
  const recordVersion = useConfig(recordVersionOf);
  const switches = useConfig((s) => s.switchConfig);
  const [searchOpen, setSearchOpen] = useState(false);
  const [searchUsed, setSearchUsed] = useState(false);

  const menuAdmin = isMenuAdmin(user?.role);
  const nav = useMemo(
    () => buildNav({ admin: menuAdmin, isMobile, recordVersion, aiPlatform: switches.ai_platform, vqdShow: switches.vqd_show }, t),
    [menuAdmin, isMobile, recordVersion, switches, t],
  );
  const items: MenuProps['items'] = nav.map((g) =>
    g.children ? { key: g.key, label: g.label, children: g.children.map((c) => ({ key: c.key, label: c.label })) } : { key: g.to ?? g.key, label: g.label },
  );
  const targets = new Map<string, string>();
  nav.forEach((g) => {
    if (g.to) targets.set(g.to, g.to);
    g.children?.forEach((c) => targets.set(c.key, c.to));
  });

  return (
    <>
      <Menu
        theme="dark"
        mode="horizontal"
        style={{ flex: 1, minWidth: 0, background: 'transparent' }}
        selectedKeys={[activeGroup(pathname), pathname]}
        items={items}
        onClick={({ key }) => navigate(targets.get(key) ?? key)}
      />
      <Flex align="center" gap={12}>
        {isAdminRole(user?.role) && (
          <Button type="text" aria-label={t('search.title')} icon={<SearchOutlined style={{ color: '#fff', fontSize: 18 }} />} onClick={() => {
              setSearchUsed(true);
              setSearchOpen(true);
            }}
          />
        )}
        <NewsBell />
        {!isMobile && <LanguageSwitch />}
        <UserMenu name={user?.nick_name || user?.name || ''} admin={isAdminRole(user?.role)} />
      </Flex>
      {searchUsed && (
        <Suspense fallback={null}>
          <SearchAllModal open={searchOpen} onClose={() => setSearchOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
