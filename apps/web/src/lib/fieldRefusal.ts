/**
 * A server refusal of one parameter (400 参数 {field} 不合法: {reason}) said where it belongs: at the
 * form field the parameter came from. The server names the field and the reason apart from msg, the
 * reason in the console's language (ErrorAnswer field/reason). A failure that is not a form field's
 * is said as the request layer says it (spec 8: 400 an error notice, others a failure panel).
 */
import type { ErrorAnswer } from '@opencvr/shared';
import type { FormInstance } from 'antd';
import i18n from '../i18n';
import { notify } from './notify';
import { RequestError } from './request';

/** The refused parameter and why, or undefined when `err` is not a 400 naming one. */
export function refusedParam(err: unknown): { field: string; reason: string } | undefined {
  if (!(err instanceof RequestError) || err.code !== 400) return undefined;
  const b = err.body as Partial<ErrorAnswer> | null | undefined;
  return b && typeof b === 'object' && typeof b.field === 'string' && typeof b.reason === 'string' && b.reason ? { field: b.field, reason: b.reason } : undefined;
}

/**
 * Where a refusal is said: a field of the form by its name, or a function for a part of the page
 * that is no form field (a schedule editor, a channel table), given the words to show.
 */
export type RefusalPlace<V> = (keyof V & string) | ((words: string) => void);

/**
 * Says a failed save of a call made with `quiet: true`: the reason at the place that `fields` maps
 * the refused parameter to (by its name, or the name before its first `.` or `[`: a schema's
 * `channels.0.DeviceID` is `channels`), else a notice. `conflict`, when given, is where a 409 (a
 * name another one has: 录像计划 office 已存在) is said, in the server's words. Returns whether it
 * went to a place.
 */
export function sayRefusal<V>(err: unknown, form: FormInstance<V>, fields: Partial<Record<string, RefusalPlace<V>>>, conflict?: RefusalPlace<V>): boolean {
  const put = (place: RefusalPlace<V>, words: string) => {
    if (typeof place === 'function') place(words);
    // antd types a name path over the form's nested values; a top-level key is one such path.
    else form.setFields([{ name: place as Parameters<FormInstance<V>['setFields']>[0][number]['name'], errors: [words] }]);
    return true;
  };
  const refused = refusedParam(err);
  if (refused) {
    const key = Object.hasOwn(fields, refused.field) ? refused.field : refused.field.split(/[.[]/)[0];
    const place = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (place) return put(place, refused.reason);
  }
  if (conflict && err instanceof RequestError && err.code === 409 && err.msg) return put(conflict, err.msg);
  // 401 and 426 the request layer handles even for a quiet call (the login page, the password prompt).
  if (err instanceof RequestError && err.code !== 401 && err.code !== 426) {
    if (err.code === 400) notify.error(err.msg);
    else notify.failure(i18n.t('common.requestFailed'), err.msg);
  }
  return false;
}
