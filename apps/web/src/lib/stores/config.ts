/** Server configuration the console reads on start-up and after login (spec 3, 4). */
import { create } from 'zustand';
import type { HomeConfig, OtherConfig, SwitchConfig } from '@opencvr/shared';

export interface ConfigState {
  homeConfig: HomeConfig | null;
  otherConfig: OtherConfig | null;
  switchConfig: SwitchConfig;
  /** Diagnostics base config is_show. */
  vqdShow: boolean;
  /** GET /api/v1/check_ip: the administrator has not chosen the network yet. */
  networkPrompt: boolean;
  setHomeConfig: (c: HomeConfig) => void;
  setOtherConfig: (c: OtherConfig) => void;
  setSwitchConfig: (c: SwitchConfig) => void;
  setVqdShow: (v: boolean) => void;
  setNetworkPrompt: (v: boolean) => void;
  setInitial: (v: boolean) => void;
  clear: () => void;
}

const emptySwitch: SwitchConfig = { ai_platform: false, vqd_show: false };

export const useConfig = create<ConfigState>((set) => ({
  homeConfig: null,
  otherConfig: null,
  switchConfig: emptySwitch,
  vqdShow: false,
  networkPrompt: false,
  setHomeConfig: (homeConfig) => set({ homeConfig }),
  // The console only knows the 'ep' player; the spec forces it whatever the server says.
  setOtherConfig: (c) => set({ otherConfig: { ...c, DefaultPlayer: 'ep' } }),
  setSwitchConfig: (switchConfig) => set({ switchConfig }),
  setVqdShow: (vqdShow) => set({ vqdShow }),
  setNetworkPrompt: (networkPrompt) => set({ networkPrompt }),
  setInitial: (v) =>
    set((s) => ({
      otherConfig: s.otherConfig ? { ...s.otherConfig, Initial: v } : s.otherConfig,
      homeConfig: s.homeConfig ? { ...s.homeConfig, Initial: v } : s.homeConfig,
    })),
  // Public home config stays: the login page still needs the title.
  clear: () => set({ otherConfig: null, switchConfig: emptySwitch, vqdShow: false, networkPrompt: false }),
}));

/** RecordVersion from whichever config is loaded; recording is assumed present until told otherwise. */
export function recordVersionOf(s: Pick<ConfigState, 'otherConfig' | 'homeConfig'>): boolean {
  return s.otherConfig?.RecordVersion ?? s.homeConfig?.RecordVersion ?? true;
}
