/** Ending a session: everything the spec says logout clears (spec 4). */
import { STORAGE_KEYS } from '@opencvr/shared';
import { clearEarly } from './early';
import { useSession } from './stores/session';
import { useConfig } from './stores/config';
import { useUi } from './stores/ui';

export function clearSession(): void {
  useSession.getState().clear();
  clearEarly();
  useConfig.getState().clear();
  useUi.getState().closeModifyPwd();
  useUi.getState().setSessionEnding(false);
  for (const key of [STORAGE_KEYS.userinfo, STORAGE_KEYS.multiScreenLayout, STORAGE_KEYS.reportCache]) {
    localStorage.removeItem(key);
  }
}

/** The "clear local cache" step after a password change or initialisation: the session is gone server-side too. */
export function clearLocalCache(): void {
  clearSession();
  for (const key of [STORAGE_KEYS.newslist, STORAGE_KEYS.subChannel, STORAGE_KEYS.loopChannels, STORAGE_KEYS.single]) {
    localStorage.removeItem(key);
  }
}

export function isAdminRole(role: string | undefined | null): boolean {
  return role === 'admin';
}

/** The menu treats an empty role as admin (spec 6); route access does not. */
export function isMenuAdmin(role: string | undefined | null): boolean {
  return !role || role === 'admin';
}
