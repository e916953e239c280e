/**
 * Spec 2 "Root screen" and "Top bar", spec 4 "Route guard", "Cancelling a forced dialog" and
 * "Logout": the IE banner, the logo and title, small-screen mode, the guard's loading order and
 * empty user info, the forced dialogs' cancel, and what logout clears.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { DEFAULT_TITLE, MESSAGES, STORAGE_KEYS, VERSION, type HomeConfig, type OtherConfig, type UserInfo } from '@opencvr/shared';
import { isIeUserAgent, Root } from '../src/app/Root';
import { TopBar } from '../src/app/layout/TopBar';
import { UserMenu } from '../src/app/layout/UserMenu';
import { buildNav } from '../src/app/layout/navItems';
import SetupDialogs from '../src/features/setup/components/SetupDialogs';
import { logout } from '../src/lib/logout';
import { setNavigator } from '../src/lib/navigation';
import { clearSession } from '../src/lib/session';
import { useConfig } from '../src/lib/stores/config';
import { useSession } from '../src/lib/stores/session';
import { detectMobile, useUi } from '../src/lib/stores/ui';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { atAnyPath, Where } from './helpers/where';

vi.mock('../src/lib/ws', () => ({
  useWsTopic: () => {},
  connectEvents: () => {},
  disconnectEvents: () => {},
}));

const IE11 = 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko';
const IE9 = 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const admin: UserInfo = { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false };
const home = (over: Partial<HomeConfig> = {}): HomeConfig => ({ Initial: false, Title: '', Version: '', Copyright: '', RecordVersion: true, ...over });
const other = (over: Partial<OtherConfig> = {}) =>
  ({ Initial: false, Title: '', Version: '', RecordVersion: true, Copyright: '', MapKey: '', DefaultPlayer: 'ep', ...over }) as unknown as OtherConfig;

const baseRoutes = {
  '/api/v1/gethomeotherconfig': () => v1(home()),
  '/api/v1/getotherconfig': () => v1(other()),
  '/api/v1/getuserinfo': () => v1(admin),
  '/api/v2/config/basic/switch': () => ({ code: 200, msg: 'OK', data: { ai_platform: false, vqd_show: false } }),
  '/api/v1/vqd/base_config': () => v1({ is_show: false }),
  '/api/v1/check_ip': () => v1({ CheckIP: false }),
  '/api/v1/newslist': () => v1({ total: 0, unread: 0, list: [] }),
  '/api/v1/logout': () => v1({}),
};

/** Root around a catch-all page that shows where the router is. */
const rootTree = (
  <Routes>
    <Route element={<Root />}>
      <Route path="*" element={<Where />} />
    </Route>
  </Routes>
);

let navigations: string[];
beforeEach(() => {
  captureNotices();
  clearSession();
  useConfig.setState({ homeConfig: null });
  useUi.setState({ isMobile: false });
  navigations = [];
  setNavigator((to) => {
    navigations.push(to);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setNavigator(null);
  clearSession();
  window.history.replaceState(null, '', '/');
});

describe('IE-core banner', { timeout: 30_000 }, () => {
  it('recognises IE by MSIE or Trident only', () => {
    expect(isIeUserAgent(IE11)).toBe(true);
    expect(isIeUserAgent(IE9)).toBe(true);
    expect(isIeUserAgent(CHROME)).toBe(false);
    expect(isIeUserAgent(IPHONE)).toBe(false);
  });

  it.each([
    ['IE 11 (Trident)', IE11],
    ['IE 9 (MSIE)', IE9],
  ])('shows the error banner on %s', async (_, ua) => {
    vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(ua);
    stubApi(baseRoutes);
    renderConsole(rootTree, { path: '/login' });
    await screen.findByTestId('where');
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent(MESSAGES.ieNotSupported['zh-CN']);
  });

  it('shows no banner on another browser', async () => {
    vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(CHROME);
    stubApi(baseRoutes);
    renderConsole(rootTree, { path: '/login' });
    await screen.findByTestId('where');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(MESSAGES.ieNotSupported['zh-CN'])).toBeNull();
  });
});

describe('route guard (spec 4)', { timeout: 30_000 }, () => {
  it('loads the public home config first and holds the page until it is back; no session calls without a token', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const api = stubApi(baseRoutes);
    const plain = api.fetchMock.getMockImplementation()!;
    const asked: string[] = [];
    api.fetchMock.mockImplementation(async (input, init) => {
      asked.push(new URL(String(input), 'http://console.test').pathname);
      if (String(input).includes('gethomeotherconfig')) await gate;
      return plain(input, init);
    });
    renderConsole(rootTree, { path: '/login' });
    await waitFor(() => expect(asked).toEqual(['/api/v1/gethomeotherconfig']));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('where')).toBeNull();
    release();
    expect(await screen.findByTestId('where')).toHaveTextContent('/login');
    expect(api.calls.map((c) => c.path)).toEqual(['/api/v1/gethomeotherconfig']);
  });

  it('after login loads the other config, user info and switches, after the home config', async () => {
    const api = stubApi({ ...baseRoutes, '/api/v1/getotherconfig': () => v1(other({ Title: 'Site X' })) });
    renderConsole(rootTree, { path: '/login' });
    await screen.findByTestId('where');
    act(() => useSession.getState().login('tok', admin));
    await waitFor(() => expect(api.callsTo('/api/v1/getotherconfig')).toHaveLength(1));
    await waitFor(() => expect(useConfig.getState().otherConfig?.Title).toBe('Site X'));
    const paths = api.calls.map((c) => c.path);
    expect(paths[0]).toBe('/api/v1/gethomeotherconfig');
    for (const p of ['/api/v1/getotherconfig', '/api/v1/getuserinfo', '/api/v2/config/basic/switch']) {
      expect(paths.indexOf(p), p).toBeGreaterThan(0);
    }
    // Session calls carry the token.
    expect(api.callsTo('/api/v1/getotherconfig')[0]!.headers.token).toBe('tok');
  });

  it('sends a missing token to /login', async () => {
    stubApi(baseRoutes);
    renderConsole(rootTree, { path: '/video/browse' });
    expect(await screen.findByTestId('where')).toHaveTextContent('/login');
  });

  it('empty user info: goes to /login and ends the session', async () => {
    useSession.getState().login('tok', admin);
    window.history.replaceState(null, '', '/video/browse');
    stubApi({ ...baseRoutes, '/api/v1/getuserinfo': () => v1({}) });
    renderConsole(rootTree, { path: '/video/browse' });
    await waitFor(() => expect(navigations).toEqual(['/login']));
    await waitFor(() => expect(useSession.getState().token).toBe(''));
    expect(localStorage.getItem(STORAGE_KEYS.userinfo)).toBeNull();
  });

  it.each(['/players/dev1/1/0', '/share/dev1/1/0'])('empty user info on %s: session ended but no redirect', async (path) => {
    useSession.getState().login('tok', admin);
    window.history.replaceState(null, '', path);
    stubApi({ ...baseRoutes, '/api/v1/getuserinfo': () => v1({}) });
    renderConsole(rootTree, { path });
    await waitFor(() => expect(useSession.getState().token).toBe(''));
    expect(navigations).toEqual([]);
    expect(screen.getByTestId('where')).toHaveTextContent(path);
  });
});

describe('top bar: logo and title', { timeout: 30_000 }, () => {
  const bar = atAnyPath(<TopBar />);
  beforeEach(() => {
    useSession.getState().login('tok', admin);
    stubApi(baseRoutes);
  });

  it('the logo links to /ai/dashboard and goes there', async () => {
    renderConsole(bar, { path: '/video/browse' });
    const logo = screen.getByTestId('logo');
    expect(logo).toHaveAttribute('href', '/ai/dashboard');
    fireEvent.click(logo);
    expect(screen.getByTestId('where')).toHaveTextContent('/ai/dashboard');
  });

  it('shows the default product name and version without configuration', () => {
    renderConsole(bar, { path: '/video/browse' });
    expect(screen.getByTestId('logo')).toHaveTextContent(`${DEFAULT_TITLE} v${VERSION}`);
    expect(DEFAULT_TITLE).toBe('OpenCVR');
    expect(VERSION).toBe('3.7.3');
  });

  it('takes the title from the home config, then from the other config', () => {
    useConfig.getState().setHomeConfig(home({ Title: 'Home Site' }));
    renderConsole(bar, { path: '/video/browse' });
    expect(screen.getByTestId('logo')).toHaveTextContent('Home Site');
    act(() => useConfig.getState().setOtherConfig(other({ Title: 'Main Site', Version: '9.9.9' })));
    expect(screen.getByTestId('logo')).toHaveTextContent('Main Site v9.9.9');
    expect(screen.getByTestId('logo')).not.toHaveTextContent(DEFAULT_TITLE);
  });
});

describe('small-screen mode', { timeout: 30_000 }, () => {
  it('is on under 500 px wide or with a mobile user agent', () => {
    expect(detectMobile(499, CHROME)).toBe(true);
    expect(detectMobile(500, CHROME)).toBe(false);
    expect(detectMobile(1280, IPHONE)).toBe(true);
    expect(detectMobile(1280, 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126 Mobile Safari/537.36')).toBe(true);
  });

  it('a resize below 500 px sets isMobile, and back above clears it', () => {
    vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(CHROME);
    useUi.getState().setWindowSize(480, 800);
    expect(useUi.getState().isMobile).toBe(true);
    expect(useUi.getState().windowSize).toEqual({ width: 480, height: 800 });
    useUi.getState().setWindowSize(1024, 800);
    expect(useUi.getState().isMobile).toBe(false);
  });

  it('a mobile user agent sets isMobile at any width', () => {
    vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
    useUi.getState().setWindowSize(1280, 800);
    expect(useUi.getState().isMobile).toBe(true);
  });

  it('mobile hides change password in the user menu, and the record-config and track entries', async () => {
    vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(CHROME);
    stubApi(baseRoutes);
    useUi.getState().setWindowSize(400, 700);
    renderConsole(<UserMenu name="admin" admin />);
    fireEvent.click(screen.getByTestId('user-menu'));
    expect(await screen.findByText('退出登录')).toBeInTheDocument();
    expect(screen.queryByText('修改密码')).toBeNull();

    const t = (k: string) => k;
    const keys = (isMobile: boolean) =>
      buildNav({ admin: true, isMobile, recordVersion: true, aiPlatform: false, vqdShow: false }, t as never).flatMap((g) =>
        (g.children ?? []).map((c) => c.to),
      );
    const mobile = keys(useUi.getState().isMobile);
    expect(mobile).not.toContain('/video/map/track');
    expect(mobile).not.toContain('/config/recording');
    expect(keys(false)).toEqual(expect.arrayContaining(['/video/map/track', '/config/recording']));
  });

  it('desktop shows change password', async () => {
    stubApi(baseRoutes);
    useUi.setState({ isMobile: false });
    renderConsole(<UserMenu name="admin" admin />);
    fireEvent.click(screen.getByTestId('user-menu'));
    expect(await screen.findByText('修改密码')).toBeInTheDocument();
  });
});

describe('cancelling a forced dialog (spec 4)', { timeout: 30_000 }, () => {
  const cancelButton = () => screen.getByRole('button', { name: /取\s*消/ });

  beforeEach(() => {
    useSession.getState().login('tok', admin);
  });

  it('initialisation dialog: cancel logs out and goes to /login', async () => {
    const api = stubApi(baseRoutes);
    useConfig.getState().setOtherConfig(other({ Initial: true }));
    renderConsole(<SetupDialogs path="/video/square/0" />, { path: '/video/square/0' });
    expect(await screen.findByText('系统初始化')).toBeInTheDocument();
    fireEvent.click(cancelButton());
    await waitFor(() => expect(navigations).toEqual(['/login']));
    await waitFor(() => expect(useSession.getState().token).toBe(''));
    expect(api.callsTo('/api/v1/logout')).toHaveLength(1);
    expect(api.callsTo('/api/v1/logout')[0]!.headers.token).toBe('tok');
  });

  it('forced change-password dialog: cancel logs out and goes to /login', async () => {
    const api = stubApi(baseRoutes);
    useConfig.getState().setOtherConfig(other());
    useUi.getState().openModifyPwd(true);
    renderConsole(<SetupDialogs path="/video/square/0" />, { path: '/video/square/0' });
    expect(await screen.findByText('修改密码')).toBeInTheDocument();
    fireEvent.click(cancelButton());
    await waitFor(() => expect(navigations).toEqual(['/login']));
    await waitFor(() => expect(useSession.getState().token).toBe(''));
    expect(api.callsTo('/api/v1/logout')).toHaveLength(1);
    expect(useUi.getState().showNavBarModifyPWD).toBe(false);
  });

  it('the voluntary change-password dialog only closes', async () => {
    const api = stubApi(baseRoutes);
    useConfig.getState().setOtherConfig(other());
    useUi.getState().openModifyPwd(false);
    renderConsole(<SetupDialogs path="/video/square/0" />, { path: '/video/square/0' });
    expect(await screen.findByText('修改密码')).toBeInTheDocument();
    fireEvent.click(cancelButton());
    expect(useUi.getState().showNavBarModifyPWD).toBe(false);
    expect(useSession.getState().token).toBe('tok');
    expect(navigations).toEqual([]);
    expect(api.callsTo('/api/v1/logout')).toHaveLength(0);
  });
});

describe('logout cleanup (spec 4)', { timeout: 30_000 }, () => {
  it('calls /api/v1/logout, goes to /login, clears token, user info, config and the stored keys', async () => {
    useSession.getState().login('tok', admin);
    useConfig.getState().setHomeConfig(home({ Title: 'Home' }));
    useConfig.getState().setOtherConfig(other({ Title: 'Main' }));
    useConfig.getState().setSwitchConfig({ ai_platform: true, vqd_show: true });
    localStorage.setItem(STORAGE_KEYS.multiScreenLayout, '{"layout":4}');
    localStorage.setItem(STORAGE_KEYS.reportCache, '{"x":1}');
    localStorage.setItem(STORAGE_KEYS.navSiderTabs, '["sc","spgc","fzlb"]');
    expect(localStorage.getItem(STORAGE_KEYS.userinfo)).toContain('tok');
    const api = stubApi(baseRoutes);
    let tokenAtNavigation = '';
    setNavigator((to) => {
      navigations.push(to);
      tokenAtNavigation = useSession.getState().token;
    });

    await logout();

    expect(api.callsTo('/api/v1/logout')).toHaveLength(1);
    expect(api.callsTo('/api/v1/logout')[0]!.headers.token).toBe('tok');
    expect(navigations).toEqual(['/login']);
    // The page is left before the session goes (no ?redirect= back to it).
    expect(tokenAtNavigation).toBe('tok');
    expect(useSession.getState().token).toBe('');
    expect(useSession.getState().userinfo).toBeNull();
    expect(useConfig.getState().otherConfig).toBeNull();
    expect(useConfig.getState().switchConfig).toEqual({ ai_platform: false, vqd_show: false });
    for (const key of [STORAGE_KEYS.userinfo, STORAGE_KEYS.multiScreenLayout, STORAGE_KEYS.reportCache]) {
      expect(localStorage.getItem(key), key).toBeNull();
    }
    // Not a logout matter: the tab order stays.
    expect(localStorage.getItem(STORAGE_KEYS.navSiderTabs)).not.toBeNull();
  });

  it('ends the session locally even when the server call fails', async () => {
    useSession.getState().login('tok', admin);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('network down'))));
    await logout();
    expect(navigations).toEqual(['/login']);
    expect(useSession.getState().token).toBe('');
    expect(localStorage.getItem(STORAGE_KEYS.userinfo)).toBeNull();
  });

  it('the user menu log out entry does it', async () => {
    useSession.getState().login('tok', admin);
    localStorage.setItem(STORAGE_KEYS.multiScreenLayout, '{}');
    const api = stubApi(baseRoutes);
    renderConsole(<UserMenu name="admin" admin />);
    fireEvent.click(screen.getByTestId('user-menu'));
    fireEvent.click(await screen.findByText('退出登录'));
    await waitFor(() => expect(useSession.getState().token).toBe(''));
    expect(api.callsTo('/api/v1/logout')).toHaveLength(1);
    expect(navigations).toEqual(['/login']);
    expect(localStorage.getItem(STORAGE_KEYS.multiScreenLayout)).toBeNull();
  });
});
