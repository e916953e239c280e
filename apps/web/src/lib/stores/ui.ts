/** Screen-wide UI state (spec 3 "UI state"). */
import { create } from 'zustand';
import { SMALL_SCREEN_WIDTH } from '@opencvr/shared';

const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

export function detectMobile(width: number, userAgent: string): boolean {
  return width < SMALL_SCREEN_WIDTH || MOBILE_UA.test(userAgent);
}

export interface UiState {
  isMobile: boolean;
  windowSize: { width: number; height: number };
  /** The change-password dialog is open. */
  showNavBarModifyPWD: boolean;
  /** Opened because the server demands a change (426 / MustChangePassword): cancel logs out. */
  modifyPwdForced: boolean;
  /**
   * Initialisation succeeded and the session is about to end (the login page follows after 3 s):
   * the server has already revoked the token, so nothing should call it meanwhile.
   */
  sessionEnding: boolean;
  siderTabPane: string;
  cvrLayoutCollapsed: boolean;
  setWindowSize: (width: number, height: number) => void;
  openModifyPwd: (forced: boolean) => void;
  closeModifyPwd: () => void;
  setSessionEnding: (v: boolean) => void;
  setSiderTabPane: (key: string) => void;
  setCollapsed: (v: boolean) => void;
}

const w = typeof window !== 'undefined' ? window.innerWidth : 1280;
const h = typeof window !== 'undefined' ? window.innerHeight : 800;
const ua = typeof navigator !== 'undefined' ? navigator.userAgent : '';

export const useUi = create<UiState>((set) => ({
  isMobile: detectMobile(w, ua),
  windowSize: { width: w, height: h },
  showNavBarModifyPWD: false,
  modifyPwdForced: false,
  sessionEnding: false,
  siderTabPane: 'spgc',
  cvrLayoutCollapsed: false,
  setWindowSize: (width, height) =>
    set({ windowSize: { width, height }, isMobile: detectMobile(width, navigator.userAgent) }),
  openModifyPwd: (forced) => set({ showNavBarModifyPWD: true, modifyPwdForced: forced }),
  closeModifyPwd: () => set({ showNavBarModifyPWD: false, modifyPwdForced: false }),
  setSessionEnding: (sessionEnding) => set({ sessionEnding }),
  setSiderTabPane: (siderTabPane) => set({ siderTabPane }),
  setCollapsed: (cvrLayoutCollapsed) => set({ cvrLayoutCollapsed }),
}));
