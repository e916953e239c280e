/**
 * Authentication and role enforcement for every route. A route declares who may call it in
 * `config.access` ('public', 'user' (default) or 'admin'); `config.pending` lets a user whose
 * password change is still forced call it (login, logout, user info, config, password change).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ADMIN_ROLE_ID, pickLang, type Lang } from '@opencvr/shared';
import type { User } from '../db/schema.js';
import { ApiError } from './errors.js';
import type { AppContext } from '../context.js';

export type Access = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    pending?: boolean;
  }
  interface FastifyRequest {
    user?: User;
    token?: string;
    lang: Lang;
  }
}

export const isAdmin = (u: Pick<User, 'role_id'>) => u.role_id === ADMIN_ROLE_ID;

/** The token of a request: `token` header, then `token` query parameter, then `token` cookie. */
export function tokenOf(req: FastifyRequest): string | undefined {
  const h = req.headers['token'];
  if (typeof h === 'string' && h) return h;
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  if (typeof q === 'string' && q) return q;
  const cookie = req.headers.cookie;
  if (cookie) {
    const m = /(?:^|;\s*)token=([^;]+)/.exec(cookie);
    if (m) return decodeURIComponent(m[1]);
  }
  return undefined;
}

export function registerAuth(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('user', undefined);
  app.decorateRequest('token', undefined);
  app.decorateRequest('lang', 'zh-CN');

  app.addHook('onRequest', async (req) => {
    // `lang` in the query wins: a websocket or a link opened by the browser carries the browser's
    // Accept-Language, not the language chosen in the console.
    const asked = (req.query as Record<string, unknown> | undefined)?.lang;
    req.lang = pickLang(typeof asked === 'string' ? asked : req.headers['accept-language']);
    if (!req.url.startsWith('/api/')) return;
    const access: Access = req.routeOptions.config?.access ?? 'user';
    const token = tokenOf(req);
    if (token) {
      const found = await ctx.tokens.resolve(token);
      if (found && found.user.enable) {
        req.user = found.user;
        req.token = token;
      }
    }
    if (access === 'public') return;
    if (!req.user) throw new ApiError(401, 'unauthorized');
    if (!req.routeOptions.config?.pending) {
      if (req.user.must_change_password) throw new ApiError(426, 'mustChangePassword');
      if (isAdmin(req.user) && (await ctx.config.get('other')).Initial) throw new ApiError(426, 'initialRequired');
    }
    if (access === 'admin' && !isAdmin(req.user)) throw new ApiError(403, 'forbidden');
  });
}
