import { message, reason, subject, type Lang, type MessageKey, type Reason, type ReasonKey, type SubjectKey } from '@opencvr/shared';

/** A thing a message names ({what}), rendered in the request's language (shared SUBJECTS). */
export interface Subject {
  key: SubjectKey;
  vars?: Record<string, string | number>;
}

/**
 * A value a message shows: a number or text shown as it is (an id, a device's own words, an OS
 * error code), or a catalogue reason rendered in the answer's language.
 */
export type MessageVar = string | number | Reason;

/** A catalogue reason with its vars, for a message's {reason}. */
export const because = (key: ReasonKey, vars?: Record<string, string | number>): Reason => ({ key, vars });

/**
 * An error with an HTTP status and a message from the shared catalogue; the error handler renders
 * it in the request's language and envelope.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly vars: Record<string, MessageVar> = {},
    /** Fills {what} with a subject's name in the language of the answer. */
    readonly about?: Subject,
  ) {
    super(key);
  }
  text(lang: Lang): string {
    const vars: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(this.vars)) vars[k] = typeof v === 'object' ? reason(v.key, lang, v.vars) : v;
    if (this.about) vars.what = subject(this.about.key, lang, this.about.vars);
    return message(this.key, lang, vars);
  }
  /** An invalidParam's field and its reason in `lang`, answered apart beside msg; undefined for other errors. */
  refused(lang: Lang): { field: string; reason: string } | undefined {
    if (this.key !== 'invalidParam') return undefined;
    const { field, reason: why } = this.vars;
    return { field: String(field), reason: typeof why === 'object' ? reason(why.key, lang, why.vars) : String(why) };
  }
}

export const badRequest = (key: MessageKey, vars?: Record<string, string | number>) => new ApiError(400, key, vars);
/**
 * 400 naming the parameter (the API's name, in both languages) and why: a catalogue reason with its
 * vars, or `{ asIs }` for words from outside the server kept as written.
 */
export function invalidParam(field: string, why: ReasonKey | { asIs: string }, vars?: Record<string, string | number>): ApiError {
  return new ApiError(400, 'invalidParam', { field, reason: typeof why === 'string' ? because(why, vars) : why.asIs });
}
/** `what` does not exist (or is not the user's to see: the same answer, so ids cannot be probed). 400 where it is a reference in a body. */
export const notFound = (what: SubjectKey, vars: Record<string, string | number> = {}, status = 404) =>
  new ApiError(status, 'notFound', {}, { key: what, vars });
/** `what` exists already: a subject with its id, or a name the user typed (shown as it is). */
export const duplicate = (what: SubjectKey | { name: string }, vars: Record<string, string | number> = {}) =>
  typeof what === 'string' ? new ApiError(409, 'duplicate', {}, { key: what, vars }) : new ApiError(409, 'duplicate', { what: what.name });
