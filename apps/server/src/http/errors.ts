import { message, type Lang, type MessageKey } from '@opencvr/shared';

/**
 * An error with an HTTP status and a message from the shared catalogue; the error handler renders
 * it in the request's language and envelope.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(key);
  }
  text(lang: Lang): string {
    return message(this.key, lang, this.vars);
  }
}

export const badRequest = (key: MessageKey, vars?: Record<string, string | number>) => new ApiError(400, key, vars);
export const invalidParam = (field: string, reason: string) => new ApiError(400, 'invalidParam', { field, reason });
export const notFound = (what: string) => new ApiError(404, 'notFound', { what });
export const duplicate = (what: string) => new ApiError(409, 'duplicate', { what });
