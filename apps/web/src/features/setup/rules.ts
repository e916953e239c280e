/** Pure rules of the first-run dialogs (spec 4 "Modal choice", spec 5 "Network choice"). */
import type { NetworkConfig } from '@opencvr/shared';

export type SetupDialog = 'none' | 'init' | 'network' | 'wizard';

/** initial without network prompt → initialisation dialog; prompt without initial → network; both → wizard. */
export function chooseSetupDialog(initial: boolean, networkPrompt: boolean): SetupDialog {
  if (initial && networkPrompt) return 'wizard';
  if (initial) return 'init';
  if (networkPrompt) return 'network';
  return 'none';
}

/**
 * The login page and the root path show none of the dialogs (spec 2); nor does /initial, where the
 * initialisation form is the page and a dialog would repeat it over itself.
 */
export function dialogsAllowedOn(path: string): boolean {
  return path !== '/' && !path.startsWith('/login') && path !== '/initial';
}

/**
 * An intranet address of this machine serves SIP, terminals and EHome, and WebRTC keeps its own
 * candidate discovery (empty rtc_host); any other address (a public or NAT address) is used for all.
 */
export function networkFromChoice(address: string, localIPs: string[]): NetworkConfig {
  const a = address.trim();
  if (localIPs.includes(a)) return { sip_host: a, rtc_host: '', terminal_host: a, ehome_host: a };
  return { sip_host: a, rtc_host: a, terminal_host: a, ehome_host: a };
}
