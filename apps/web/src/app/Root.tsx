/**
 * The root screen: route guard (spec 6 via `access`), the IE banner and the setup dialogs.
 */
import { Alert } from 'antd';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { access } from '../lib/access';
import { recordVersionOf, useConfig } from '../lib/stores/config';
import { useSession } from '../lib/stores/session';
import { msg } from '../i18n';
import { SetupDialogs } from '../features/setup/components/SetupDialogs';
import { PageLoading } from './PageLoading';
import { isKnownPath } from './routes';
import { useBootstrap } from './useBootstrap';
import { useTranslation } from 'react-i18next';

const IS_IE = typeof navigator !== 'undefined' && /MSIE |Trident\//.test(navigator.userAgent);

export function Root() {
  useTranslation();
  const location = useLocation();
  const token = useSession((s) => s.token);
  const role = useSession((s) => s.userinfo?.role);
  const recordVersion = useConfig(recordVersionOf);
  const { homeSettled, otherSettled } = useBootstrap();

  if (!homeSettled || !otherSettled) return <PageLoading />;

  const path = location.pathname;
  const decision = access(token ? { role: role ?? '' } : null, path, { RecordVersion: recordVersion }, isKnownPath);
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
      {IS_IE && <Alert type="error" banner title={msg('ieNotSupported')} />}
      <SetupDialogs path={path} />
      <Outlet />
    </>
  );
}
