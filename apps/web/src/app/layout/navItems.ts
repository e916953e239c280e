/**
 * The top bar's menu (spec 2 "Main navigation", "Top bar"), built from the user's role, the
 * server switches and the screen size. Pure, so the visibility rules are testable.
 */
export interface NavLeaf {
  key: string;
  label: string;
  /** Target, possibly with a query. */
  to: string;
}
export interface NavGroup {
  key: string;
  label: string;
  to?: string;
  children?: NavLeaf[];
}

export interface NavContext {
  /** Menu admin: role admin or empty (spec 6). */
  admin: boolean;
  isMobile: boolean;
  recordVersion: boolean;
  aiPlatform: boolean;
  vqdShow: boolean;
}

type T = (key: string) => string;

export function buildNav(ctx: NavContext, t: T): NavGroup[] {
  const groups: NavGroup[] = [];
  const leaf = (to: string, label: string): NavLeaf => ({ key: to, to, label: t(label) });

  if (ctx.admin) groups.push({ key: '/ai', label: t('nav.dashboard'), to: '/ai/dashboard' });

  const videoChildren = [leaf('/video/square/0?type=1', 'nav.live'), leaf('/video/browse', 'nav.browse')];
  if (ctx.recordVersion) videoChildren.push(leaf('/video/backlist/0', 'nav.playback'));
  if (ctx.admin) {
    videoChildren.push(leaf('/video/map/gps', 'nav.map'));
    if (!ctx.isMobile) videoChildren.push(leaf('/video/map/track', 'nav.track'));
  }
  groups.push({ key: '/video', label: t('nav.video'), children: videoChildren });

  if (ctx.admin) {
    groups.push({ key: '/device', label: t('nav.device'), children: [leaf('/device/list', 'route.deviceList'), leaf('/device/group', 'route.deviceGroup')] });
    groups.push({ key: '/user', label: t('nav.user'), children: [leaf('/user/index', 'route.userIndex'), leaf('/user/role', 'route.userRole')] });
    groups.push({
      key: '/alarm',
      label: t('nav.alarm'),
      children: [leaf('/alarm/ai', 'route.alarmAi'), leaf('/alarm/list', 'route.alarmList'), leaf('/alarm/library', 'route.alarmLibrary')],
    });
  }
  if (ctx.vqdShow) {
    groups.push({
      key: '/diagnostics',
      label: t('nav.diagnostics'),
      children: [
        leaf('/diagnostics/program', 'route.diagProgram'),
        leaf('/diagnostics/alarm', 'route.diagAlarm'),
        leaf('/diagnostics/stencil', 'route.diagStencil'),
        leaf('/diagnostics/arithmetic', 'route.diagArithmetic'),
      ],
    });
  }
  if (ctx.aiPlatform) groups.push({ key: '/analysis', label: t('nav.analysis'), to: '/analysis/platform' });
  if (ctx.admin) {
    const config = [leaf('/config/base', 'route.configBase')];
    // Mobile hides the record config; without recording it would only redirect.
    if (!ctx.isMobile && ctx.recordVersion) config.push(leaf('/config/recording', 'route.configRecording'));
    config.push(leaf('/config/alarm', 'route.configAlarm'), leaf('/config/device', 'route.configDevice'), leaf('/config/operation', 'route.configOperation'));
    groups.push({ key: '/config', label: t('nav.config'), children: config });
  }
  return groups;
}

/** The top-level group a path belongs to, for highlighting. */
export function activeGroup(pathname: string): string {
  const first = `/${pathname.split('/')[1] ?? ''}`;
  return first === '/devices' ? '/device' : first;
}
