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
import { startEarly, takeEarly } from '../lib/early';
import { currentPath, navigateTo } from '../lib/navigation';
import { clearSession, isAdminRole } from '../lib/session';
import { useConfig } from '../lib/stores/config';
import { useSession } from '../lib/stores/session';
import { useUi } from '../lib/stores/ui';
import { connectEvents, disconnectEvents } from '../lib/ws';

/** Each boot call under its early key (the token is part of it, as of the query key). */
const home = () => takeEarly('boot:home', fetchHomeConfig);
const other = (token: string) => takeEarly(`boot:other:${token}`, fetchOtherConfig);
const user = (token: string) => takeEarly(`boot:user:${token}`, fetchUserInfo);
const switches = (token: string) => takeEarly(`boot:switch:${token}`, () => fetchSwitchConfig());
const vqd = (token: string) => takeEarly(`boot:vqd:${token}`, () => fetchVqdBaseConfig());
const checkIp = (token: string) => takeEarly(`boot:checkip:${token}`, () => fetchCheckIp());

/**
 * Starts the boot calls before React renders (app/boot.ts), all at once; the queries below take
 * them over. Same calls, same order and same conditions as the queries.
 */
export function startBootCalls(token: string, role: string | undefined): void {
  startEarly('boot:home', fetchHomeConfig);
  if (!token) return;
  startEarly(`boot:other:${token}`, fetchOtherConfig);
  startEarly(`boot:user:${token}`, fetchUserInfo);
  startEarly(`boot:switch:${token}`, () => fetchSwitchConfig());
  startEarly(`boot:vqd:${token}`, () => fetchVqdBaseConfig());
  if (isAdminRole(role)) startEarly(`boot:checkip:${token}`, () => fetchCheckIp());
}

export function useBootstrap() {
  const token = useSession((s) => s.token);
  const role = useSession((s) => s.userinfo?.role);

  const homeQ = useQuery({ queryKey: ['homeconfig'], queryFn: home, retry: false, staleTime: Infinity });
  const otherQ = useQuery({ queryKey: ['otherconfig', token], queryFn: () => other(token), enabled: !!token, retry: false });
  const userQ = useQuery({ queryKey: ['userinfo', token], queryFn: () => user(token), enabled: !!token, retry: false });
  // Optional capabilities: a server without them simply leaves the entries hidden, without notices.
  const switchQ = useQuery({ queryKey: ['switch', token], queryFn: () => switches(token), enabled: !!token, retry: false });
  const vqdQ = useQuery({ queryKey: ['vqdbase', token], queryFn: () => vqd(token), enabled: !!token, retry: false });
  const checkIpQ = useQuery({ queryKey: ['checkip', token], queryFn: () => checkIp(token), enabled: !!token && isAdminRole(role), retry: false });

  // The setters only (stable): subscribing to the whole store would re-render the root on every change.
  const { setHomeConfig, setOtherConfig, setSwitchConfig, setVqdShow, setNetworkPrompt } = useConfig.getState();
  useEffect(() => {
    if (homeQ.data) setHomeConfig(homeQ.data);
  }, [homeQ.data, setHomeConfig]);
  useEffect(() => {
    if (otherQ.data) setOtherConfig(otherQ.data);
  }, [otherQ.data, setOtherConfig]);
  useEffect(() => {
    if (switchQ.data) setSwitchConfig(switchQ.data);
  }, [switchQ.data, setSwitchConfig]);
  useEffect(() => {
    if (vqdQ.data) setVqdShow(!!vqdQ.data.is_show);
  }, [vqdQ.data, setVqdShow]);
  useEffect(() => {
    if (checkIpQ.data) setNetworkPrompt(!!checkIpQ.data.CheckIP);
  }, [checkIpQ.data, setNetworkPrompt]);

  useEffect(() => {
    if (!userQ.isSuccess) return;
    const info = userQ.data;
    if (!info || typeof info !== 'object' || !('id' in info)) {
      if (isPublicPath(currentPath())) clearSession();
      else void navigateTo('/login').finally(clearSession);
      return;
    }
    useSession.getState().setUserinfo(info);
    if (info.MustChangePassword) useUi.getState().openModifyPwd(true);
  }, [userQ.isSuccess, userQ.data]);

  useEffect(() => {
    if (token) connectEvents(token);
    else disconnectEvents();
  }, [token]);

  return {
    /** The guard waits for these so redirects use the real RecordVersion. */
    homeSettled: !homeQ.isPending,
    otherSettled: !token || !otherQ.isPending,
  };
}
