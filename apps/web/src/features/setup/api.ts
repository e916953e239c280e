import type { EasyDarwinEnvelope, IpListing, NetworkConfig } from '@opencvr/shared';
import { getV1, request } from '../../lib/request';

export interface SetInitialPayload {
  Username?: string;
  SipPassword: string;
  EhomePassword: string;
  /** md5 hex */
  OldPassword: string;
  /** as typed: the server checks its strength */
  NewPassword: string;
}
export interface CodeAnswer {
  code: number;
  msg: string;
  status?: number;
}

export const fetchIpListing = () => getV1<IpListing>('/api/v1/ip');

/** The dialog reads ErrorNum itself (spec 8), so the layer stays quiet. */
export const setIp = (cfg: NetworkConfig) =>
  request<EasyDarwinEnvelope<NetworkConfig>>('/api/v1/setip', { method: 'POST', data: { ...cfg }, quiet: true });

export const setInitial = (p: SetInitialPayload) =>
  request<CodeAnswer>('/api/v1/setinitial', { method: 'POST', data: { ...p }, quiet: true });

export const modifyPassword = (p: { username?: string; oldpassword: string; newpassword: string }) =>
  request<CodeAnswer>('/api/v1/modifypassword', { method: 'POST', data: { ...p }, quiet: true });
