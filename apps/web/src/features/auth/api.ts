import type { LoginBody } from '@opencvr/shared';
import { getV1 } from '../../lib/request';
import { md5hex } from '../../lib/md5';

export interface LoginConfig {
  Title: string;
  Version: string;
  Copyright: string;
  Captcha: boolean;
}

export const fetchLoginConfig = () => getV1<LoginConfig>('/api/v1/getloginconfig', undefined, { quiet: true });

/** The password travels as md5 hex (API conventions). */
export const login = (username: string, password: string) =>
  getV1<LoginBody>('/api/v1/login', { username, password: md5hex(password) });
