import { message, subject, type Lang, type MessageKey, type SubjectKey } from '@opencvr/shared';

/** A thing a message names ({what}), rendered in the request's language (shared SUBJECTS). */
export interface Subject {
  key: SubjectKey;
  vars?: Record<string, string | number>;
}

/**
 * An error with an HTTP status and a message from the shared catalogue; the error handler renders
 * it in the request's language and envelope.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly vars: Record<string, string | number> = {},
    /** Fills {what} with a subject's name in the language of the answer. */
    readonly about?: Subject,
  ) {
    super(key);
  }
  text(lang: Lang): string {
    const vars = this.about ? { ...this.vars, what: subject(this.about.key, lang, this.about.vars) } : this.vars;
    return message(this.key, lang, vars);
  }
}

export const badRequest = (key: MessageKey, vars?: Record<string, string | number>) => new ApiError(400, key, vars);
export const invalidParam = (field: string, reason: string) => new ApiError(400, 'invalidParam', { field, reason });
/** `what` does not exist (or is not the user's to see: the same answer, so ids cannot be probed). 400 where it is a reference in a body. */
export const notFound = (what: SubjectKey, vars: Record<string, string | number> = {}, status = 404) =>
  new ApiError(status, 'notFound', {}, { key: what, vars });
/** `what` exists already: a subject with its id, or a name the user typed (shown as it is). */
export const duplicate = (what: SubjectKey | { name: string }, vars: Record<string, string | number> = {}) =>
  typeof what === 'string' ? new ApiError(409, 'duplicate', {}, { key: what, vars }) : new ApiError(409, 'duplicate', { what: what.name });
