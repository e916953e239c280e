/**
 * zod writes its validation texts in English. A Chinese answer gets zod's own Chinese locale for them
 * (the same issue rendered again). A schema writes its own texts as catalogue reasons (schemaReason):
 * they are rendered in the answer's language; any other text a schema wrote is kept as written.
 */
import { z } from 'zod';
import { isReasonKey, reason, type Lang, type Reason, type ReasonKey } from '@opencvr/shared';

const LOCALES = { 'zh-CN': z.locales.zhCN(), 'en-US': z.locales.en() };

/**
 * A schema's message naming a catalogue reason, for .regex / .refine / addIssue: the key, and its
 * vars as a query string ("oneOf?values=1%2C+2"), since zod carries one text per issue.
 */
export function schemaReason(key: ReasonKey, vars?: Record<string, string | number>): string {
  if (!vars) return key;
  return `${key}?${new URLSearchParams(Object.entries(vars).map(([k, v]): [string, string] => [k, String(v)]))}`;
}

/** The catalogue reason a schema's message names, if it names one. */
function reasonOf(text: string): Reason | undefined {
  const m = /^(\w+)(?:\?(.*))?$/.exec(text);
  if (!m || !isReasonKey(m[1])) return undefined;
  return { key: m[1], vars: m[2] === undefined ? undefined : Object.fromEntries(new URLSearchParams(m[2])) };
}

/**
 * zod drops an issue's input after parsing, but its invalid_type text names the input's type
 * ("received number"): a value of that type lets the locale say the same.
 */
const SAMPLE_OF: Record<string, unknown> = { undefined: undefined, null: null, string: '', number: 0, boolean: false, object: {}, array: [], NaN: NaN };

const textOf = (r: unknown): string | undefined => (typeof r === 'string' ? r : (r as { message?: string } | undefined)?.message);

/** One validation problem (fastify-type-provider-zod's entry: keyword = code, params = the rest of the issue). */
export function zodReason(v: { keyword: string; params?: Record<string, unknown>; message?: string }, lang: Lang): string {
  const message = v.message ?? 'invalid';
  const own = reasonOf(message);
  if (own) return reason(own.key, lang, own.vars);
  if (lang === 'en-US') return message;
  const issue: Record<string, unknown> = { ...v.params, code: v.keyword };
  const received = /received (\w+)$/.exec(message)?.[1];
  if (received !== undefined && received in SAMPLE_OF) issue.input = SAMPLE_OF[received];
  try {
    // Only zod's own words are translated: they come out the same when rendered again in English.
    if (textOf(LOCALES['en-US'].localeError(issue as never)) !== message) return message;
    return textOf(LOCALES[lang].localeError(issue as never)) ?? message;
  } catch {
    return message;
  }
}
