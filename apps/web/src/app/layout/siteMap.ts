/** The site map searched by the search-all-functions modal (spec 2): title, describe, actions. */
export interface SiteMapAction {
  label: string;
  path: string;
  query?: Record<string, string>;
}
export interface SiteMapEntry {
  title: string;
  describe: string;
  actions: SiteMapAction[];
}

type T = (key: string) => string;

/** [entry id, [route title key, path, query?][]] — the entry's title and describe come from sitemap.<id>. */
const ENTRIES: [string, [string, string, Record<string, string>?][]][] = [
  ['dashboard', [['route.aiDashboard', '/ai/dashboard']]],
  ['live', [['route.videoSquare', '/video/square/0', { type: '1' }], ['route.videoBrowse', '/video/browse']]],
  ['playback', [['route.videoBacklist', '/video/backlist/0']]],
  ['map', [['route.videoMapGps', '/video/map/gps'], ['route.videoMapTrack', '/video/map/track']]],
  ['device', [['route.deviceList', '/device/list'], ['route.deviceGroup', '/device/group'], ['route.deviceGateway', '/device/gateway']]],
  ['user', [['route.userIndex', '/user/index'], ['sitemap.addUser', '/user/index', { action: 'add' }]]],
  ['role', [['route.userRole', '/user/role'], ['sitemap.addRole', '/user/role', { action: 'add' }]]],
  ['alarm', [['route.alarmAi', '/alarm/ai'], ['route.alarmList', '/alarm/list'], ['route.alarmLibrary', '/alarm/library']]],
  ['access', [['route.configPlatformGb', '/config/platform/gb'], ['route.configPlatformEhome', '/config/platform/ehome'], ['route.configPlatformJt808', '/config/platform/jt808']]],
  ['base', [['route.configBase', '/config/base'], ['route.configOther', '/config/other']]],
  ['recording', [['route.configRecording', '/config/recording'], ['route.configProgram', '/config/program']]],
  ['alarmConfig', [['route.configAlarm', '/config/alarm'], ['route.configPlan', '/config/plan']]],
  ['cascade', [['route.configCascade', '/config/cascade']]],
  ['lists', [['route.configWhite', '/config/white'], ['route.configBlack', '/config/black']]],
  ['cluster', [['route.configColonyConf', '/config/colony/conf'], ['route.configColonyList', '/config/colony/list']]],
  ['operation', [['route.configOperation', '/config/operation'], ['route.configLog', '/config/log']]],
  ['news', [['route.newsList', '/news/list']]],
  ['plugin', [['route.plugin', '/plugin'], ['route.pluginTask', '/plugin/task']]],
  ['version', [['route.versionIndex', '/version/index']]],
];

export function buildSiteMap(t: T, recordVersion: boolean): SiteMapEntry[] {
  return ENTRIES.filter(([id]) => recordVersion || (id !== 'playback' && id !== 'recording')).map(([id, actions]) => ({
    title: t(`sitemap.${id}.title`),
    describe: t(`sitemap.${id}.describe`),
    actions: actions.map(([label, path, query]) => ({ label: t(label), path, query })),
  }));
}

export function filterSiteMap(entries: SiteMapEntry[], q: string): SiteMapEntry[] {
  const needle = q.trim().toLowerCase();
  if (!needle) return entries;
  return entries.filter((e) => e.title.toLowerCase().includes(needle));
}

export function actionHref(a: SiteMapAction): string {
  const qs = a.query ? new URLSearchParams(a.query).toString() : '';
  return qs ? `${a.path}?${qs}` : a.path;
}
