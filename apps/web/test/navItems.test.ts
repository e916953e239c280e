import { describe, expect, it } from 'vitest';
import { buildNav } from '../src/app/layout/navItems';
import { filterSiteMap, buildSiteMap, actionHref } from '../src/app/layout/siteMap';
import { isMenuAdmin } from '../src/lib/session';
import { moveTab, loadSiderTabs, saveSiderTabs } from '../src/app/layout/siderTabs';

const t = (k: string) => k;
const base = { admin: true, isMobile: false, recordVersion: true, aiPlatform: false, vqdShow: false };
const targets = (ctx = base) => buildNav(ctx, t).flatMap((g) => (g.children ? g.children.map((c) => c.to) : [g.to!]));

describe('top bar menu', () => {
  it('has the spec dropdown targets for an admin', () => {
    expect(targets()).toEqual([
      '/ai/dashboard',
      '/video/square/0?type=1',
      '/video/browse',
      '/video/backlist/0',
      '/video/map/gps',
      '/video/map/track',
      '/device/list',
      '/device/group',
      '/user/index',
      '/user/role',
      '/alarm/ai',
      '/alarm/list',
      '/alarm/library',
      '/config/base',
      '/config/recording',
      '/config/alarm',
      '/config/device',
      '/config/operation',
    ]);
  });

  it('hides admin-only entries for a non-admin, and counts an empty role as admin', () => {
    expect(targets({ ...base, admin: false })).toEqual(['/video/square/0?type=1', '/video/browse', '/video/backlist/0']);
    expect(isMenuAdmin('')).toBe(true);
    expect(isMenuAdmin('operator')).toBe(false);
  });

  it('hides playback without RecordVersion and track/record config on mobile', () => {
    expect(targets({ ...base, recordVersion: false })).not.toContain('/video/backlist/0');
    const mobile = targets({ ...base, isMobile: true });
    expect(mobile).not.toContain('/video/map/track');
    expect(mobile).not.toContain('/config/recording');
    expect(mobile).toContain('/video/map/gps');
  });

  it('shows diagnostics and analysis by server switch, not by role', () => {
    const on = targets({ ...base, admin: false, vqdShow: true, aiPlatform: true });
    expect(on).toEqual(expect.arrayContaining(['/diagnostics/program', '/diagnostics/alarm', '/diagnostics/stencil', '/diagnostics/arithmetic', '/analysis/platform']));
  });
});

describe('search-all site map', () => {
  it('filters by title and builds links with the query', () => {
    const all = buildSiteMap(t, true);
    expect(all.every((e) => e.title && e.describe && e.actions.length > 0)).toBe(true);
    const users = filterSiteMap(all, 'sitemap.user.');
    expect(users).toHaveLength(1);
    expect(users[0].actions.map(actionHref)).toEqual(['/user/index', '/user/index?action=add']);
    expect(filterSiteMap(all, '')).toHaveLength(all.length);
  });
});

describe('video sidebar tabs', () => {
  it('defaults to spgc, fzlb, sc and keeps a dragged order in nav_sider_tabs', () => {
    expect(loadSiderTabs().map((x) => x.key)).toEqual(['spgc', 'fzlb', 'sc']);
    saveSiderTabs(moveTab(loadSiderTabs(), 2, 0));
    expect(loadSiderTabs().map((x) => x.key)).toEqual(['sc', 'spgc', 'fzlb']);
    expect(JSON.parse(localStorage.getItem('nav_sider_tabs')!).map((x: { key: string }) => x.key)).toEqual(['sc', 'spgc', 'fzlb']);
  });
});
