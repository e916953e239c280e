/**
 * zod writes its validation texts in English. A Chinese answer gets zod's own Chinese locale for them
 * (the same issue rendered again); a text the schema wrote itself (a format such as YYYYMMDD, a rule
 * in words) is kept as written.
 */
import { z } from 'zod';
import type { Lang } from '@opencvr/shared';

const LOCALES = { 'zh-CN': z.locales.zhCN(), 'en-US': z.locales.en() };

/**
 * zod drops an issue's input after parsing, but its invalid_type text names the input's type
 * ("received number"): a value of that type lets the locale say the same.
 */
const SAMPLE_OF: Record<string, unknown> = { undefined: undefined, null: null, string: '', number: 0, boolean: false, object: {}, array: [], NaN: NaN };

const textOf = (r: unknown): string | undefined => (typeof r === 'string' ? r : (r as { message?: string } | undefined)?.message);

/** One validation problem (fastify-type-provider-zod's entry: keyword = code, params = the rest of the issue). */
export function zodReason(v: { keyword: string; params?: Record<string, unknown>; message?: string }, lang: Lang): string {
  const message = v.message ?? 'invalid';
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
