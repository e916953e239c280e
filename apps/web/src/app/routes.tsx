/**
 * The spec's route table (section 2) as one list. Each entry carries its title (i18n key), its
 * access key, its layout and, when the capability exists, its page; the others render the generic
 * "not available yet" frame. Every page is lazy so /login pulls little code.
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import { lazyPage } from '../lib/lazy';

/** public: no login (/players/, /share/, /login); user: any logged-in user; admin: role admin (spec 6). */
export type AccessKey = 'public' | 'user' | 'admin';

export interface RouteDef {
  path: string;
  title: string;
  access: AccessKey;
  /** bare: no top bar (login, public players); main: the console layout. */
  layout: 'bare' | 'main';
  /** Video pages show the video sidebar. */
  sider?: boolean;
  /** The page stays mounted (hidden, its effects stopped) while others show: see KeepAliveOutlet. */
  keepAlive?: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  page?: LazyExoticComponent<ComponentType<any>>;
}

const LoginPage = lazyPage(() => import('../features/auth/pages/LoginPage'));
const InitialPage = lazyPage(() => import('../features/setup/pages/InitialPage'));
const DashboardPage = lazyPage(() => import('../features/dashboard/pages/DashboardPage'));
const UsersPage = lazyPage(() => import('../features/users/pages/UsersPage'));
const RolesPage = lazyPage(() => import('../features/users/pages/RolesPage'));
const VersionPage = lazyPage(() => import('../features/version/pages/VersionPage'));
const NewsListPage = lazyPage(() => import('../features/news/pages/NewsListPage'));
const DeviceListPage = lazyPage(() => import('../features/devices/pages/DeviceListPage'));
const DeviceFormPage = lazyPage(() => import('../features/devices/pages/DeviceFormPage'));
const ChannelListPage = lazyPage(() => import('../features/devices/pages/ChannelListPage'));
const ChannelFormPage = lazyPage(() => import('../features/devices/pages/ChannelFormPage'));
const DeviceGroupPage = lazyPage(() => import('../features/devices/pages/DeviceGroupPage'));
const SquarePage = lazyPage(() => import('../features/live/pages/SquarePage'));
const PlayerPage = lazyPage(() => import('../features/live/pages/PlayerPage'));
const BrowsePage = lazyPage(() => import('../features/live/pages/BrowsePage'));
const SharedPlayerPage = lazyPage(() => import('../features/live/pages/SharedPlayerPage'));
const BacklistPage = lazyPage(() => import('../features/playback/pages/BacklistPage'));
const BackchannelPage = lazyPage(() => import('../features/playback/pages/BackchannelPage'));
const BacktimePage = lazyPage(() => import('../features/playback/pages/BacktimePage'));
const RecordingConfigPage = lazyPage(() => import('../features/recording/pages/RecordingConfigPage'));
const ProgramListPage = lazyPage(() => import('../features/recording/pages/ProgramListPage'));
const ProgramFormPage = lazyPage(() => import('../features/recording/pages/ProgramFormPage'));
const GbConfigPage = lazyPage(() => import('../features/gb/pages/GbConfigPage'));
const WhiteListPage = lazyPage(() => import('../features/gb/pages/WhiteListPage'));
const BlackListPage = lazyPage(() => import('../features/gb/pages/BlackListPage'));
const AlarmListPage = lazyPage(() => import('../features/alarms/pages/AlarmListPage'));

const main = (path: string, title: string, access: AccessKey, extra: Partial<RouteDef> = {}): RouteDef => ({
  path,
  title,
  access,
  layout: 'main',
  ...extra,
});
const video = (path: string, title: string, access: AccessKey = 'user', extra: Partial<RouteDef> = {}) =>
  main(path, title, access, { sider: true, ...extra });

export const ROUTES: RouteDef[] = [
  { path: '/login', title: 'route.login', access: 'public', layout: 'bare', page: LoginPage },
  { path: '/initial', title: 'route.initial', access: 'user', layout: 'bare', page: InitialPage },
  { path: '/players/:devid/:chnid/:flow', title: 'route.players', access: 'public', layout: 'bare', page: SharedPlayerPage },
  { path: '/share/:devid/:chnid/:flow', title: 'route.share', access: 'public', layout: 'bare', page: SharedPlayerPage },
  main('/demo', 'route.demo', 'user'),

  video('/video/square/:devid', 'route.videoSquare', 'user', { keepAlive: true, page: SquarePage }),
  video('/video/player/:devid/:chnid/:flow', 'route.videoPlayer', 'user', { page: PlayerPage }),
  video('/video/browse', 'route.videoBrowse', 'user', { keepAlive: true, page: BrowsePage }),
  video('/video/backlist/:devid', 'route.videoBacklist', 'user', { page: BacklistPage }),
  video('/video/backchannel/:devid/:chnid/:day', 'route.videoBackchannel', 'user', { page: BackchannelPage }),
  // Without a day the playback pages open today (the page redirects).
  video('/video/backchannel/:devid/:chnid', 'route.videoBackchannel', 'user', { page: BackchannelPage }),
  video('/video/backtime/:devid/:chnid/:day', 'route.videoBacktime', 'user', { page: BacktimePage }),
  video('/video/backtime/:devid/:chnid', 'route.videoBacktime', 'user', { page: BacktimePage }),
  video('/video/map/gps', 'route.videoMapGps', 'admin'),
  video('/video/map/track', 'route.videoMapTrack', 'admin'),

  main('/device/list', 'route.deviceList', 'admin', { keepAlive: true, page: DeviceListPage }),
  main('/device/channel/:devid', 'route.deviceChannel', 'admin', { page: ChannelListPage }),
  main('/device/form/:devid', 'route.deviceForm', 'admin', { page: DeviceFormPage }),
  main('/device/channelform/:devid/:chnid', 'route.deviceChannelForm', 'admin', { page: ChannelFormPage }),
  main('/device/group', 'route.deviceGroup', 'admin', { page: DeviceGroupPage }),
  main('/device/gateway', 'route.deviceGateway', 'admin'),
  main('/devices/list', 'route.devicesList', 'admin'),
  main('/devices/form', 'route.devicesForm', 'admin'),

  main('/diagnostics/program', 'route.diagProgram', 'user'),
  main('/diagnostics/arithmetic', 'route.diagArithmetic', 'user'),
  main('/diagnostics/stencil', 'route.diagStencil', 'user'),
  main('/diagnostics/alarm', 'route.diagAlarm', 'user'),
  main('/diagnostics/form', 'route.diagForm', 'user'),

  main('/alarm/ai', 'route.alarmAi', 'admin'),
  main('/alarm/list', 'route.alarmList', 'admin', { page: AlarmListPage }),
  main('/alarm/library', 'route.alarmLibrary', 'admin'),
  main('/alarm/diagnostics', 'route.alarmDiagnostics', 'admin'),

  main('/analysis/platform', 'route.analysisPlatform', 'user'),
  main('/analysis/channel', 'route.analysisChannel', 'user'),
  main('/analysis/alarm', 'route.analysisAlarm', 'user'),

  main('/config/base', 'route.configBase', 'admin'),
  main('/config/recording', 'route.configRecording', 'admin', { page: RecordingConfigPage }),
  main('/config/alarm', 'route.configAlarm', 'admin'),
  main('/config/device', 'route.configDevice', 'admin'),
  main('/config/diagnostics', 'route.configDiagnostics', 'admin'),
  main('/config/operation', 'route.configOperation', 'admin'),
  main('/config/platform', 'route.configPlatform', 'admin'),
  main('/config/platform/gb', 'route.configPlatformGb', 'admin', { page: GbConfigPage }),
  main('/config/platform/ehome', 'route.configPlatformEhome', 'admin'),
  main('/config/platform/jt808', 'route.configPlatformJt808', 'admin'),
  main('/config/license', 'route.configLicense', 'admin'),
  main('/config/other', 'route.configOther', 'admin'),
  main('/config/log', 'route.configLog', 'admin'),
  main('/config/ai', 'route.configAi', 'admin'),
  main('/config/messagePush', 'route.configMessagePush', 'admin'),
  main('/config/action', 'route.configAction', 'admin'),
  main('/config/utils', 'route.configUtils', 'admin'),
  main('/config/white', 'route.configWhite', 'admin', { page: WhiteListPage }),
  main('/config/black', 'route.configBlack', 'admin', { page: BlackListPage }),
  main('/config/plan', 'route.configPlan', 'admin'),
  main('/config/colony/conf', 'route.configColonyConf', 'admin'),
  main('/config/colony/list', 'route.configColonyList', 'admin'),
  main('/config/program', 'route.configProgram', 'admin', { page: ProgramListPage }),
  main('/config/program/form', 'route.configProgramForm', 'admin', { page: ProgramFormPage }),
  main('/config/cascade', 'route.configCascade', 'admin'),

  main('/news/list', 'route.newsList', 'admin', { page: NewsListPage }),
  main('/plugin', 'route.plugin', 'user'),
  main('/plugin/task', 'route.pluginTask', 'user'),
  main('/user/index', 'route.userIndex', 'admin', { page: UsersPage }),
  main('/user/role', 'route.userRole', 'admin', { page: RolesPage }),
  main('/version/index', 'route.versionIndex', 'admin', { page: VersionPage }),
  main('/screen', 'route.screen', 'user'),
  main('/ai/dashboard', 'route.aiDashboard', 'admin', { page: DashboardPage }),
];

/** The route definition a path belongs to, if any. */
export function findRoute(pathname: string): RouteDef | undefined {
  return ROUTES.find((r) => matchPath({ path: r.path, end: true }, pathname));
}

/** The key a keep-alive page is kept under (its route's path pattern); undefined for other pages. */
export function keepAliveKey(pathname: string): string | undefined {
  const r = findRoute(pathname);
  return r?.keepAlive ? r.path : undefined;
}

export function isKnownPath(pathname: string): boolean {
  return findRoute(pathname) !== undefined;
}
