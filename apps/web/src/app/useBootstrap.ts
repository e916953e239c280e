/**
 * What the console loads around a session (spec 4 "Route guard"): public home config first, then,
 * once a token is present, the user, the other config, the AI/diagnostics switches, the network
 * prompt (admins) and the events websocket.
 */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  fetchCheckIp,
  fetchHomeConfig,
  fetchOtherConfig,
  fetchSwitchConfig,
  fetchUserInfo,
  fetchVqdBaseConfig,
} from '../lib/api/system';
import { isPublicPath } from '../lib/access';
import { currentPath, navigateTo } from '../lib/navigation';
import { clearSession, isAdminRole } from '../lib/session';
import { useConfig } from '../lib/stores/config';
import { useSession } from '../lib/stores/session';
import { useUi } from '../lib/stores/ui';
import { connectEvents, disconnectEvents } from '../lib/ws';

export function useBootstrap() {
  const token = useSession((s) => s.token);
  const role = useSession((s) => s.userinfo?.role);
  const cfg = useConfig();

  const home = useQuery({ queryKey: ['homeconfig'], queryFn: fetchHomeConfig, retry: false, staleTime: Infinity });
  const other = useQuery({ queryKey: ['otherconfig', token], queryFn: fetchOtherConfig, enabled: !!token, retry: false });
  const user = useQuery({ queryKey: ['userinfo', token], queryFn: fetchUserInfo, enabled: !!token, retry: false });
  // Optional capabilities: a server without them simply leaves the entries hidden, without notices.
  const switches = useQuery({ queryKey: ['switch', token], queryFn: () => fetchSwitchConfig(), enabled: !!token, retry: false });
  const vqd = useQuery({ queryKey: ['vqdbase', token], queryFn: () => fetchVqdBaseConfig(), enabled: !!token, retry: false });
  const checkIp = useQuery({ queryKey: ['checkip', token], queryFn: () => fetchCheckIp(), enabled: !!token && isAdminRole(role), retry: false });

  const { setHomeConfig, setOtherConfig, setSwitchConfig, setVqdShow, setNetworkPrompt } = cfg;
  useEffect(() => {
    if (home.data) setHomeConfig(home.data);
  }, [home.data, setHomeConfig]);
  useEffect(() => {
    if (other.data) setOtherConfig(other.data);
  }, [other.data, setOtherConfig]);
  useEffect(() => {
    if (switches.data) setSwitchConfig(switches.data);
  }, [switches.data, setSwitchConfig]);
  useEffect(() => {
    if (vqd.data) setVqdShow(!!vqd.data.is_show);
  }, [vqd.data, setVqdShow]);
  useEffect(() => {
    if (checkIp.data) setNetworkPrompt(!!checkIp.data.CheckIP);
  }, [checkIp.data, setNetworkPrompt]);

  useEffect(() => {
    if (!user.isSuccess) return;
    const info = user.data;
    if (!info || typeof info !== 'object' || !('id' in info)) {
      if (isPublicPath(currentPath())) clearSession();
      else void navigateTo('/login').finally(clearSession);
      return;
    }
    useSession.getState().setUserinfo(info);
    if (info.MustChangePassword) useUi.getState().openModifyPwd(true);
  }, [user.isSuccess, user.data]);

  useEffect(() => {
    if (token) connectEvents(token);
    else disconnectEvents();
  }, [token]);

  return {
    /** The guard waits for these so redirects use the real RecordVersion. */
    homeSettled: !home.isPending,
    otherSettled: !token || !other.isPending,
  };
}
