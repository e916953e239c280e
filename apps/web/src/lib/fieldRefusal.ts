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
 * Says a failed save of a call made with `quiet: true`: the reason at the form field that `fields`
 * maps the refused parameter to, else a notice. Returns whether it went to a field.
 */
export function sayRefusal<V>(err: unknown, form: FormInstance<V>, fields: Partial<Record<string, keyof V & string>>): boolean {
  const refused = refusedParam(err);
  const name = refused && Object.hasOwn(fields, refused.field) ? fields[refused.field] : undefined;
  if (refused && name) {
    // antd types a name path over the form's nested values; a top-level key is one such path.
    form.setFields([{ name: name as Parameters<FormInstance<V>['setFields']>[0][number]['name'], errors: [refused.reason] }]);
    return true;
  }
  // 401 and 426 the request layer handles even for a quiet call (the login page, the password prompt).
  if (err instanceof RequestError && err.code !== 401 && err.code !== 426) {
    if (err.code === 400) notify.error(err.msg);
    else notify.failure(i18n.t('common.requestFailed'), err.msg);
  }
  return false;
}
