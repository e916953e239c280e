/** Issue 3, spec 2: the video sidebar shows on video pages only; alarm, config, device, user and diagnostics pages have none. */
import { describe, expect, it } from 'vitest';
import { findRoute, ROUTES } from '../src/app/routes';

/** The spec's sections without the sidebar; /devices is the device section's second list. */
const NO_SIDER = ['/alarm', '/config', '/device', '/devices', '/user', '/diagnostics'];
const inSection = (path: string, section: string) => path === section || path.startsWith(`${section}/`);

describe('route table: the sider flag', () => {
  it('is off for every alarm, config, device, user and diagnostics route', () => {
    const hidden = ROUTES.filter((r) => NO_SIDER.some((s) => inSection(r.path, s)));
    // each section is in the table, so the check below is not vacuous
    for (const s of NO_SIDER) expect(hidden.some((r) => inSection(r.path, s)), s).toBe(true);
    for (const r of hidden) expect(r.sider, r.path).not.toBe(true);
  });

  it('is on for every video route', () => {
    const videos = ROUTES.filter((r) => inSection(r.path, '/video'));
    expect(videos.length).toBeGreaterThan(5);
    for (const r of videos) expect(r.sider, r.path).toBe(true);
  });

  it('is what the layout finds for concrete addresses', () => {
    for (const p of ['/alarm/list', '/config/base', '/config/platform/gb', '/device/list', '/device/channelform/1/2', '/devices/list', '/user/index', '/user/role', '/diagnostics/program']) {
      expect(findRoute(p), p).toBeDefined();
      expect(findRoute(p)?.sider === true, p).toBe(false);
    }
    for (const p of ['/video/square/0', '/video/player/34020000001320000001/1/1', '/video/browse', '/video/backchannel/1/2', '/video/backtime/1/2/20260101']) {
      expect(findRoute(p)?.sider, p).toBe(true);
    }
  });
});
