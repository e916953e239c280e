/**
 * Route access rules of spec 6, as a pure function so they can be tested without a router.
 * `access` answers where a path may go: stay, or a redirect target.
 */
import { isAdminRole } from './session';

export interface AccessUser {
  role?: string | null;
}
export interface AccessConfig {
  /** False when the build has no recording: playback and recording plans disappear. */
  RecordVersion?: boolean;
}
export type AccessResult = { allow: true } | { allow: false; redirect: string };

/** Prefixes only admins may open; the others are sent to /video. '/map/' is matched anywhere. */
export const ADMIN_PREFIXES = ['/platform', '/config', '/alarm', '/news', '/device', '/user', '/version/', '/ai/'] as const;
export const ADMIN_ANYWHERE = ['/map/'] as const;

/** Fixed redirects of the route table. */
const ALIASES: Record<string, string> = {
  '/': '/video',
  '/video': '/video/square/0',
  '/dashboard': '/ai/dashboard',
  '/config/colony': '/config/colony/conf',
};

/** The recording-plan pages (route table "program": recording plans; help topic "/config/recording"). */
const RECORD_PLAN_PATHS = ['/config/program', '/config/recording'];

export function isPublicPath(path: string): boolean {
  return path.startsWith('/players/') || path.startsWith('/share/');
}

export function isAdminOnlyPath(path: string): boolean {
  return ADMIN_PREFIXES.some((p) => path.startsWith(p)) || ADMIN_ANYWHERE.some((p) => path.includes(p));
}

function normalise(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

/** One step of the rules; undefined means the path is fine. */
function step(user: AccessUser | null, path: string, config: AccessConfig, isKnown?: (p: string) => boolean): string | undefined {
  if (isPublicPath(path) || path === '/login') return undefined;
  if (!user) return '/login';
  if (ALIASES[path]) return ALIASES[path];
  if (isKnown && !isKnown(path)) return '/video';
  if (config.RecordVersion === false) {
    if (path.startsWith('/video/back')) return '/ai/dashboard';
    if (RECORD_PLAN_PATHS.some((p) => path === p || path.startsWith(`${p}/`))) return '/config/platform/gb';
  }
  if (!isAdminRole(user.role) && isAdminOnlyPath(path)) return '/video';
  return undefined;
}

/**
 * Where `path` leads for `user` (null: no token). Redirects are followed until a path is allowed,
 * e.g. a non-admin on /video/back* with RecordVersion false ends on /video/square/0.
 */
export function access(
  user: AccessUser | null,
  path: string,
  config: AccessConfig = {},
  isKnown?: (p: string) => boolean,
): AccessResult {
  const start = normalise(path);
  let current = start;
  for (let i = 0; i < 8; i++) {
    const next = step(user, current, config, isKnown);
    if (next === undefined) return current === start ? { allow: true } : { allow: false, redirect: current };
    current = next;
  }
  return { allow: false, redirect: current };
}
