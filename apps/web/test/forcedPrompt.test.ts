/**
 * Spec 8, 426: while a forced dialog is showing or about to show (initialisation, wizard, network,
 * password, or the session ending after initialisation), a 426 resolves quietly with code and msg;
 * otherwise it turns the change-password prompt on and shows the server text.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HomeConfig, OtherConfig } from '@opencvr/shared';
import { request } from '../src/lib/request';
import { isForcedPromptPending } from '../src/lib/forcedPrompt';
import { bindNotifiers } from '../src/lib/notify';
import { setNavigator } from '../src/lib/navigation';
import { useConfig } from '../src/lib/stores/config';
import { useSession } from '../src/lib/stores/session';
import { useUi } from '../src/lib/stores/ui';
import { clearSession } from '../src/lib/session';

const notices: string[] = [];
const fakeMessage = {
  success: (o: { content: string }) => notices.push(`success:${o.content}`),
  warning: (o: { content: string }) => notices.push(`warning:${o.content}`),
  error: (o: { content: string }) => notices.push(`error:${o.content}`),
};
const fakeNotification = { error: (o: { description: string }) => notices.push(`notification:${o.description}`) };

const other = (Initial: boolean) =>
  ({ Initial, Title: 'T', Version: '3.7.3', RecordVersion: true }) as unknown as OtherConfig;
const home = (Initial: boolean): HomeConfig => ({
  Initial,
  Title: 'T',
  Version: '3.7.3',
  Copyright: '',
  RecordVersion: true,
});
const user = {
  id: 1,
  name: 'admin',
  nick_name: '',
  role: 'admin',
  role_name: 'admin',
  role_id: 1,
  Status: 1,
  MustChangePassword: false,
};

function answer426(text = '请先完成系统初始化') {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 426, msg: text }), {
          status: 426,
          headers: { 'Content-Type': 'application/json' },
        }),
    ),
  );
}

beforeEach(() => {
  notices.length = 0;
  setNavigator(() => {});
  bindNotifiers(fakeMessage as any, fakeNotification as any);
  clearSession();
  useConfig.setState({ homeConfig: null });
  window.history.replaceState(null, '', '/video/square/0');
  useSession.getState().login('tok', user);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigator(null);
});

describe('426 while a forced dialog is pending', () => {
  it('resolves quietly while the Initial flag is set (the initialisation dialog or wizard is up)', async () => {
    useConfig.getState().setOtherConfig(other(true));
    answer426();
    await expect(request('/api/v1/newslist')).resolves.toEqual({ code: 426, msg: '请先完成系统初始化' });
    expect(notices).toEqual([]);
    expect(useUi.getState().showNavBarModifyPWD).toBe(false);
  });

  it('counts the public home config flag before the other config has arrived', async () => {
    useConfig.getState().setHomeConfig(home(true));
    answer426();
    await expect(request('/api/v1/newslist')).resolves.toMatchObject({ code: 426 });
    expect(notices).toEqual([]);
  });

  it('resolves quietly while the network dialog, a password dialog or the end of the session is pending', async () => {
    answer426('x');
    useConfig.getState().setNetworkPrompt(true);
    await expect(request('/api/v1/newslist')).resolves.toMatchObject({ code: 426 });
    useConfig.getState().setNetworkPrompt(false);

    useUi.getState().openModifyPwd(false);
    await expect(request('/api/v1/newslist')).resolves.toMatchObject({ code: 426 });
    useUi.getState().closeModifyPwd();

    useUi.getState().setSessionEnding(true);
    await expect(request('/api/v1/newslist')).resolves.toMatchObject({ code: 426 });
    useUi.getState().setSessionEnding(false);

    useSession.getState().setUserinfo({ ...user, MustChangePassword: true });
    await expect(request('/api/v1/newslist')).resolves.toMatchObject({ code: 426 });
    expect(notices).toEqual([]);
  });

  it('otherwise turns the forced password prompt on and shows the server text once', async () => {
    useConfig.getState().setOtherConfig(other(false));
    answer426('请先修改密码');
    await expect(request('/api/v1/newslist')).rejects.toMatchObject({ code: 426, msg: '请先修改密码' });
    expect(useUi.getState()).toMatchObject({ showNavBarModifyPWD: true, modifyPwdForced: true });
    expect(notices).toEqual(['error:请先修改密码']);
    // The prompt is now showing: the next 426 is quiet.
    await expect(request('/api/v1/newslist')).resolves.toMatchObject({ code: 426 });
    expect(notices).toHaveLength(1);
  });

  it('is quiet on the login page', async () => {
    window.history.replaceState(null, '', '/login');
    answer426();
    await expect(request('/api/v1/newslist')).resolves.toMatchObject({ code: 426 });
    expect(notices).toEqual([]);
    expect(useUi.getState().showNavBarModifyPWD).toBe(false);
  });
});

describe('isForcedPromptPending', () => {
  const ui = { showNavBarModifyPWD: false, sessionEnding: false };
  const cfg = { otherConfig: null, homeConfig: null, networkPrompt: false };
  const session = { token: 't', userinfo: null };
  it('needs a session for the dialogs that follow from configuration', () => {
    expect(isForcedPromptPending(ui, cfg, session)).toBe(false);
    expect(isForcedPromptPending(ui, { ...cfg, otherConfig: other(true) }, session)).toBe(true);
    expect(isForcedPromptPending(ui, { ...cfg, otherConfig: other(true) }, { token: '', userinfo: null })).toBe(false);
    // The loaded other config wins over the public one.
    expect(isForcedPromptPending(ui, { ...cfg, otherConfig: other(false), homeConfig: home(true) }, session)).toBe(
      false,
    );
    expect(isForcedPromptPending({ ...ui, showNavBarModifyPWD: true }, cfg, { token: '', userinfo: null })).toBe(true);
  });
});
