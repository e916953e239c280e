/**
 * Who is logged in. The user info (carrying its Token) is mirrored to localStorage under
 * `userinfo` so a reload keeps the session, as the original console did.
 */
import { create } from 'zustand';
import { STORAGE_KEYS, type UserInfo } from '@opencvr/shared';

export interface SessionState {
  token: string;
  userinfo: UserInfo | null;
  login: (token: string, user: UserInfo) => void;
  setUserinfo: (user: UserInfo) => void;
  clear: () => void;
}

function readStored(): UserInfo | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.userinfo);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as UserInfo;
    return parsed && typeof parsed === 'object' && parsed.Token ? parsed : null;
  } catch {
    return null;
  }
}

const stored = readStored();

export const useSession = create<SessionState>((set, get) => ({
  token: stored?.Token ?? '',
  userinfo: stored,
  login: (token, user) => {
    const withToken = { ...user, Token: token };
    localStorage.setItem(STORAGE_KEYS.userinfo, JSON.stringify(withToken));
    set({ token, userinfo: withToken });
  },
  setUserinfo: (user) => {
    const withToken = { ...user, Token: user.Token || get().token };
    localStorage.setItem(STORAGE_KEYS.userinfo, JSON.stringify(withToken));
    set({ userinfo: withToken });
  },
  clear: () => set({ token: '', userinfo: null }),
}));
