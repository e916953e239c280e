/**
 * Why a channel or a device is offline. status_reason holds a REASONS key (packages/shared/src/
 * messages.ts) and a channel's status_reason_vars its {vars} as JSON; whoever takes it offline (the
 * stream checker's probes, the GB service, a catalog event, a disabled device or channel) stores the
 * catalogue's reason, and its own words go to the log. An answer renders it in the asker's language.
 * Rows from before the codes were rewritten once by migration 0005.
 */
import { isReasonKey, reason, type Lang, type Reason } from '@opencvr/shared';

/** The stored pair for a reason (both '' for none: online). */
export function storedReason(why: Reason | undefined): { status_reason: string; status_reason_vars: string } {
  return { status_reason: why?.key ?? '', status_reason_vars: why?.vars ? JSON.stringify(why.vars) : '' };
}

/** The stored reason as the user reads it in `lang` ('' stays ''). */
export function statusReasonText(key: string, vars: string, lang: Lang): string {
  if (!key) return '';
  // No writer stores anything else; shown as it is rather than hidden if one ever did.
  if (!isReasonKey(key)) return key;
  let values: Record<string, string | number> = {};
  try {
    values = vars ? (JSON.parse(vars) as Record<string, string | number>) : {};
  } catch {
    values = {};
  }
  // A phrase-less status ("454") leaves no trailing space.
  return reason(key, lang, values).trim();
}
