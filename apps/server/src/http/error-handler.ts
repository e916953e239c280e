/**
 * One error handler: validation problems become 400 naming the field, ApiErrors keep their status,
 * and anything else is a 500 whose body tells nothing of the internals (the log keeps the stack).
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { message } from '@opencvr/shared';
import { ApiError } from './errors.js';
import { errorAnswer } from './envelope.js';
import { zodReason } from './zod-reason.js';

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = req.lang ?? 'zh-CN';
    if (err instanceof ApiError) {
      return reply.status(err.status).send(errorAnswer(req.url, err.status, err.text(lang), err.refused(lang)));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.') || (err.validationContext ?? 'body');
      const why = zodReason(first, lang);
      const msg = message('invalidParam', lang, { field, reason: why });
      return reply.status(400).send(errorAnswer(req.url, 400, msg, { field, reason: why }));
    }
    if (err.validation) {
      const msg = message('invalidParam', lang, { field: err.validationContext ?? 'body', reason: err.message });
      return reply.status(400).send(errorAnswer(req.url, 400, msg));
    }
    if (err.statusCode === 413) {
      return reply.status(413).send(errorAnswer(req.url, 413, message('payloadTooLarge', lang)));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Fastify's own client errors (bad JSON, bad content type): their text names the problem.
      return reply.status(err.statusCode).send(errorAnswer(req.url, err.statusCode, err.message));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorAnswer(req.url, 500, message('internalError', lang)));
  });
}
