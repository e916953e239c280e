/**
 * "The change-password prompt is already showing" in the sense of spec 8's 426 rule: any forced
 * dialog of the root screen is open, or is about to open — the initialisation dialog or wizard
 * (Initial flag, from the other config or, before it arrives, the public home config), the network
 * dialog, the password dialog, or a user who must change the password (the dialog opens once the
 * user info is back) — or the session is ending after initialisation. While one is pending, a 426 is expected and resolves quietly, and the
 * console holds back calls such as the bell's message list.
 */
import { useConfig, type ConfigState } from './stores/config';
import { useSession, type SessionState } from './stores/session';
import { useUi, type UiState } from './stores/ui';

export function initialFlagOf(s: Pick<ConfigState, 'otherConfig' | 'homeConfig'>): boolean {
  return s.otherConfig?.Initial ?? s.homeConfig?.Initial ?? false;
}

export function isForcedPromptPending(
  ui: Pick<UiState, 'showNavBarModifyPWD' | 'sessionEnding'>,
  cfg: Pick<ConfigState, 'otherConfig' | 'homeConfig' | 'networkPrompt'>,
  session: Pick<SessionState, 'token' | 'userinfo'>,
): boolean {
  if (ui.showNavBarModifyPWD || ui.sessionEnding) return true;
  // The dialogs belong to a session: without a token none opens.
  if (!session.token) return false;
  return initialFlagOf(cfg) || cfg.networkPrompt || !!session.userinfo?.MustChangePassword;
}

/** For code outside React (the request layer). */
export function forcedPromptPending(): boolean {
  return isForcedPromptPending(useUi.getState(), useConfig.getState(), useSession.getState());
}

/** For components: re-renders when a forced dialog appears or is done. */
export function useForcedPromptPending(): boolean {
  const showPwd = useUi((s) => s.showNavBarModifyPWD || s.sessionEnding);
  const initial = useConfig(initialFlagOf);
  const networkPrompt = useConfig((s) => s.networkPrompt);
  const token = useSession((s) => s.token);
  const mustChange = useSession((s) => !!s.userinfo?.MustChangePassword);
  return showPwd || (!!token && (initial || networkPrompt || mustChange));
}
