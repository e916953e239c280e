/**
 * Calls the shell of the console needs on every page (route guard, top bar, logout), so features
 * and the app share one definition.
 */
import type { HomeConfig, OtherConfig, SwitchConfig, UserInfo } from '@opencvr/shared';
import { getV1, getV2, request } from '../request';

export const fetchHomeConfig = () => getV1<HomeConfig>('/api/v1/gethomeotherconfig');
export const fetchOtherConfig = () => getV1<OtherConfig>('/api/v1/getotherconfig');
export const fetchUserInfo = () => getV1<UserInfo | null>('/api/v1/getuserinfo');
export const fetchSwitchConfig = () => getV2<SwitchConfig>('/api/v2/config/basic/switch');
export const fetchVqdBaseConfig = () => getV1<{ is_show: boolean }>('/api/v1/vqd/base_config');
export const fetchCheckIp = () => getV1<{ CheckIP: boolean }>('/api/v1/check_ip');
export const logoutCall = () => request('/api/v1/logout', { quiet: true });
