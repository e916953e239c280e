/**
 * The root screen: route guard (spec 6 via `access`), the IE banner and the setup dialogs.
 */
import { Suspense, useEffect, useState } from 'react';
import { Alert } from 'antd';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { access } from '../lib/access';
import { recordVersionOf, useConfig } from '../lib/stores/config';
import { useSession } from '../lib/stores/session';
import { useForcedPromptPending } from '../lib/forcedPrompt';
import { lazyPage } from '../lib/lazy';
import { msg } from '../i18n';
import { dialogsAllowedOn } from '../features/setup/rules';
import { PageLoading } from './PageLoading';
import { Shell } from './frames';
import { findRoute, isKnownPath } from './routes';
import { useBootstrap } from './useBootstrap';
import { useTranslation } from 'react-i18next';

// The dialogs (forms, steps, modal) load only when one has to show: never on /login.
const SetupDialogs = lazyPage(() => import('../features/setup/components/SetupDialogs'));

/** An IE-core browser (IE up to 10 says MSIE, IE 11 and IE-mode shells say Trident/). */
export function isIeUserAgent(ua: string): boolean {
  return /MSIE |Trident\//.test(ua);
}

export function Root() {
  useTranslation();
  const location = useLocation();
  const token = useSession((s) => s.token);
  const role = useSession((s) => s.userinfo?.role);
  const recordVersion = useConfig(recordVersionOf);
  const { homeSettled, otherSettled } = useBootstrap();
  const dialogPending = useForcedPromptPending();

  const path = location.pathname;
  const decision = access(token ? { role: role ?? '' } : null, path, { RecordVersion: recordVersion }, isKnownPath);
  // The console frame's chunk is awaited here, under this plain spinner, rather than under the
  // frame's Suspense fallback: once a fallback has shown, React 19 holds the content's commit until
  // 300 ms after it, and the frame (with the sidebar) showed ~0.3 s late on half the cold loads
  // (bench/inventory). Only for a page the guard lets through: /login never loads the frame.
  const wantsShell = homeSettled && otherSettled && decision.allow && findRoute(path)?.layout === 'main';
  const [shellIn, setShellIn] = useState(false);
  useEffect(() => {
    if (!wantsShell || shellIn) return;
    let live = true;
    // A chunk that fails is reported by the frame's lazy component when it renders.
    const done = () => live && setShellIn(true);
    Shell.preload().then(done, done);
    return () => {
      live = false;
    };
  }, [wantsShell, shellIn]);

  if (!homeSettled || !otherSettled || (wantsShell && !shellIn)) return <PageLoading />;

  if (!decision.allow) {
    let to = decision.redirect;
    // Come back to the asked page after logging in.
    if (to === '/login' && path !== '/' && isKnownPath(path)) {
      to += `?${new URLSearchParams({ redirect: path + location.search }).toString()}`;
    }
    return <Navigate to={to} replace />;
  }

  return (
    <>
      {typeof navigator !== 'undefined' && isIeUserAgent(navigator.userAgent) && <Alert type="error" banner title={msg('ieNotSupported')} />}
      {token && dialogPending && dialogsAllowedOn(path) && (
        <Suspense fallback={null}>
          <SetupDialogs path={path} />
        </Suspense>
      )}
      <Outlet />
    </>
  );
}
