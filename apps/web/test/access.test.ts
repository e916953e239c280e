import { describe, expect, it } from 'vitest';
import { access, ADMIN_PREFIXES } from '../src/lib/access';
import { isKnownPath, ROUTES } from '../src/app/routes';

const admin = { role: 'admin' };
const operator = { role: 'operator' };

const go = (user: { role?: string } | null, path: string, cfg = {}) => {
  const r = access(user, path, cfg, isKnownPath);
  return r.allow ? path : r.redirect;
};

describe('access()', () => {
  it('sends a missing token to /login, except public player pages', () => {
    expect(go(null, '/video/browse')).toBe('/login');
    expect(go(null, '/config/base')).toBe('/login');
    expect(go(null, '/players/34020000001320000001/1/main')).toBe('/players/34020000001320000001/1/main');
    expect(go(null, '/share/dev/chn/sub')).toBe('/share/dev/chn/sub');
    expect(go(null, '/login')).toBe('/login');
  });

  it('lets an admin open every admin page', () => {
    for (const p of ['/config/base', '/alarm/ai', '/news/list', '/device/list', '/devices/list', '/user/index', '/version/index', '/video/map/gps', '/ai/dashboard']) {
      expect(go(admin, p)).toBe(p);
    }
  });

  it('redirects a non-admin to /video (then /video/square/0) for every admin prefix', () => {
    const samples: Record<string, string> = {
      '/platform': '/platform/x',
      '/config': '/config/base',
      '/alarm': '/alarm/list',
      '/news': '/news/list',
      '/device': '/device/group',
      '/user': '/user/role',
      '/version/': '/version/index',
      '/ai/': '/ai/dashboard',
    };
    for (const prefix of ADMIN_PREFIXES) {
      const r = access(operator, samples[prefix], {});
      expect(r, prefix).toEqual({ allow: false, redirect: '/video/square/0' });
    }
    expect(go(operator, '/video/map/gps')).toBe('/video/square/0');
    expect(go(operator, '/video/map/track')).toBe('/video/square/0');
  });

  it('lets a non-admin open video, diagnostics, analysis and plugin pages', () => {
    for (const p of ['/video/square/0', '/video/browse', '/video/backlist/0', '/diagnostics/program', '/analysis/platform', '/plugin']) {
      expect(go(operator, p)).toBe(p);
    }
  });

  it('treats an empty role as non-admin for routes (it only counts as admin in the menu)', () => {
    expect(go({ role: '' }, '/config/base')).toBe('/video/square/0');
  });

  it('applies the fixed redirects', () => {
    expect(go(admin, '/')).toBe('/video/square/0');
    expect(go(admin, '/video')).toBe('/video/square/0');
    expect(go(admin, '/dashboard')).toBe('/ai/dashboard');
    expect(go(admin, '/config/colony')).toBe('/config/colony/conf');
    expect(go(operator, '/dashboard')).toBe('/video/square/0');
  });

  it('sends unknown paths to /video', () => {
    expect(go(admin, '/no/such/page')).toBe('/video/square/0');
    expect(go(operator, '/whatever')).toBe('/video/square/0');
  });

  it('with RecordVersion false sends playback to /ai/dashboard and recording plans to /config/platform/gb', () => {
    const cfg = { RecordVersion: false };
    expect(go(admin, '/video/backlist/0', cfg)).toBe('/ai/dashboard');
    expect(go(admin, '/video/backchannel/a/b/20240101', cfg)).toBe('/ai/dashboard');
    expect(go(admin, '/video/backtime/a/b/20240101', cfg)).toBe('/ai/dashboard');
    expect(go(admin, '/config/program', cfg)).toBe('/config/platform/gb');
    expect(go(admin, '/config/program/form', cfg)).toBe('/config/platform/gb');
    // a non-admin then leaves the admin-only dashboard too
    expect(go(operator, '/video/backlist/0', cfg)).toBe('/video/square/0');
    // with recording the same pages open
    expect(go(admin, '/video/backlist/0', { RecordVersion: true })).toBe('/video/backlist/0');
  });

  it('agrees with the access keys of the route table', () => {
    for (const r of ROUTES) {
      const path = r.path.replace(/:[a-z]+/g, 'x');
      if (r.access === 'public') expect(go(null, path), r.path).toBe(path);
      if (r.access === 'admin') expect(go(operator, path), r.path).not.toBe(path);
      if (r.access === 'user') expect(go(operator, path), r.path).toBe(path);
      expect(go(admin, path), r.path).toBe(path);
    }
  });
});
