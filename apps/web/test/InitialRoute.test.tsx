/**
 * The /initial route of the route table (spec 2), through the root screen's guard: a signed-in
 * administrator of a platform still to initialise gets the initialisation form as the page (no dialog
 * repeating it over the page), which posts setinitial and goes to /login 3 s after success; once the
 * platform is initialised the page says so; without a session the guard sends /initial to /login.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { INIT_REDIRECT_MS, MESSAGES, type HomeConfig, type OtherConfig } from '@opencvr/shared';
import { Root } from '../src/app/Root';
import { findRoute } from '../src/app/routes';
import { md5hex } from '../src/lib/md5';
import { setNavigator } from '../src/lib/navigation';
import { clearSession } from '../src/lib/session';
import { useConfig } from '../src/lib/stores/config';
import { useUi } from '../src/lib/stores/ui';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';
import { Where } from './helpers/where';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => {}, connectEvents: () => {}, disconnectEvents: () => {} }));

const home = (Initial: boolean) => ({ Initial, Title: '', Version: '', Copyright: '', RecordVersion: true }) as HomeConfig;
const other = (Initial: boolean) =>
  ({ Initial, Title: '', Version: '', RecordVersion: true, Copyright: '', MapKey: '', DefaultPlayer: 'ep' }) as unknown as OtherConfig;

function stubServer(initial: boolean) {
  return stubApi({
    '/api/v1/gethomeotherconfig': () => v1(home(initial)),
    '/api/v1/getotherconfig': () => v1(other(initial)),
    '/api/v1/getuserinfo': () =>
      v1({ id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false }),
    '/api/v2/config/basic/switch': () => ({ code: 200, msg: 'OK', data: { ai_platform: false, vqd_show: false } }),
    '/api/v1/vqd/base_config': () => v1({ is_show: false }),
    '/api/v1/check_ip': () => v1({ CheckIP: true }),
    '/api/v1/newslist': () => v1({ total: 0, unread: 0, list: [] }),
    // As the server answers a valid initialisation (routes/api/initial.ts).
    'POST /api/v1/setinitial': () => ({ code: 200, msg: MESSAGES.initSuccess['zh-CN'], status: 200 }),
  });
}

/** Root over the route table's own /initial page, and a /login stand-in. */
function renderInitialRoute() {
  const Page = findRoute('/initial')!.page!;
  renderConsole(
    <Routes>
      <Route element={<Root />}>
        <Route path="/initial" element={<Suspense fallback={null}><Page /></Suspense>} />
        <Route path="*" element={<Where />} />
      </Route>
    </Routes>,
    { path: '/initial' },
  );
}

let notices: string[];
let navigations: string[];
beforeEach(() => {
  notices = captureNotices();
  clearSession();
  useConfig.setState({ homeConfig: null, otherConfig: null, networkPrompt: false });
  useUi.setState({ sessionEnding: false });
  navigations = [];
  setNavigator((to) => void navigations.push(to));
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigator(null);
  clearSession();
});

describe('/initial', { timeout: 60_000 }, () => {
  it('is a page in the route table for any signed-in user, on the bare layout', () => {
    expect(findRoute('/initial')).toMatchObject({ access: 'user', layout: 'bare' });
  });

  it('shows the initialisation form as the page, with no dialog over it; saving initialises and goes to /login after 3 s', async () => {
    loginAdmin();
    const api = stubServer(true);
    renderInitialRoute();
    const username = (await screen.findByLabelText('登录名')) as HTMLInputElement;
    expect(screen.getByText('系统初始化')).toBeInTheDocument();
    // The server still asks for initialisation and a network choice: no dialog or wizard on this page.
    await waitFor(() => expect(api.callsTo('/api/v1/check_ip')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(username.value).toBe('admin');

    await userEvent.type(screen.getByLabelText('原始密码'), 'admin');
    await userEvent.type(screen.getByLabelText('新密码'), 'Better#2025');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'Better#2025');
    await userEvent.type(screen.getByLabelText('SIP密码'), 'Sip12345');
    await userEvent.type(screen.getByLabelText('EHOME密码'), 'Ehome12345');
    // By now the wizard would be open over the page (it was, before /initial left dialogsAllowedOn).
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getAllByLabelText('原始密码')).toHaveLength(1);
    const saved = Date.now();
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));

    await waitFor(() => expect(api.callsTo('/api/v1/setinitial')).toHaveLength(1));
    expect(api.callsTo('/api/v1/setinitial')[0]!.body).toEqual({
      Username: 'admin',
      SipPassword: 'Sip12345',
      EhomePassword: 'Ehome12345',
      OldPassword: md5hex('admin'),
      NewPassword: 'Better#2025',
    });
    await waitFor(() => expect(notices).toContain(`success:${MESSAGES.initSuccess['zh-CN']}`));
    await waitFor(() => expect(navigations).toEqual(['/login']), { timeout: INIT_REDIRECT_MS + 2000 });
    expect(Date.now() - saved).toBeGreaterThanOrEqual(INIT_REDIRECT_MS - 100);
  });

  it('says the platform is initialised, with no form, once it is', async () => {
    loginAdmin();
    stubServer(false);
    renderInitialRoute();
    expect(await screen.findByText(MESSAGES.alreadyInitialised['zh-CN'])).toBeInTheDocument();
    expect(screen.queryByLabelText('原始密码')).toBeNull();
  });

  it('without a session goes to /login', async () => {
    stubServer(true);
    renderInitialRoute();
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
  });
});
