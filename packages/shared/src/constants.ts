/** Business constants of the console spec, section 9, shared by server and console. */
export const VERSION = '3.7.3';
export const DEFAULT_TITLE = 'OpenCVR';
export const DEFAULT_PLAYER = 'ep';

export const PAGE_SIZE = 20;
export const DEVICE_LIST_LIMIT = 9999;
export const TREE_PAGE_SIZE = 50;
export const TREE_SEARCH_PAGE_SIZE = 9999;
export const SIDEBAR_DEVICE_PAGE = 40;
export const CHANNEL_SEARCH_LIMIT = 99999;
export const ANALYSIS_PLATFORM_LIMIT = 100;

export const PASSWORD_MIN_LENGTH = 8;
export const SMALL_SCREEN_WIDTH = 500;
export const STRENGTH_THRESHOLDS = [25, 50, 75] as const;

export const NOTIFY_DURATION_MS = 3000;
export const NOTIFY_ERROR_DURATION_MS = 2000;
export const NOTIFY_OFFSET = 50;
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_MODAL_MAX_HEIGHT = 600;
export const FORM_LABEL_WIDTH = 165;
export const ICON_DEFAULT_SIZE = 16;

export const CHUNK_LOAD_TIMEOUT_MS = 120000;
export const WS_RECONNECT_MS = 2000;
/**
 * The close code of a public page's status socket (ws/share/streamstat) whose link's channel does
 * not exist (any more: deleted, or its device): the page does not open it again. A browser cannot
 * read the status of a refused upgrade, so a 404 there was asked again every WS_RECONNECT_MS.
 */
export const WS_CHANNEL_GONE_CLOSE = 4404;
export const NETWORK_DIALOG_DELAY_MS = 1000;
export const INIT_REDIRECT_MS = 3000;

export const MAP_ZOOM_MAX = 24;
export const HOSTNAME_MIN = 3;
export const HOSTNAME_MAX = 255;
export const HOSTNAME_LABEL_MAX = 63;
export const BYTE_UNIT_BASE = 1024;
export const LOCAL_TIME_FORMAT = 'YYYYMMDDHHmmss';

export const LAYOUTS = [1, 4, 9, 16] as const;

/** Login lock-out: this many failures for one user from one address lock that pair out. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_LOCK_MINUTES = 15;
/** EasyCVR's token lifetime: 7 days, reported as TokenTimeout in seconds. */
export const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

/** The built-in administrator. */
export const ADMIN_USER_ID = 1;
export const ADMIN_ROLE_ID = 1;
export const ADMIN_ROLE_NAME = 'admin';
export const DEFAULT_ADMIN_USERNAME = 'admin';
export const DEFAULT_ADMIN_PASSWORD = 'admin';

/** Local storage keys named by the spec (section 3). */
export const STORAGE_KEYS = {
  userinfo: 'userinfo',
  subChannel: 'sub_channel',
  navSiderTabs: 'nav_sider_tabs',
  loopChannels: 'loop_channels',
  newslist: 'newslist',
  multiScreenLayout: 'multi_screen_layout',
  reportCache: 'report_cache',
  single: 'single',
  language: 'language',
} as const;

/**
 * The fastest playback speed whose every picture the server transcodes (H.265 recordings played as
 * H.264, for browsers without H.265); faster sends keyframes only, and the player says so.
 */
export const TRANSCODE_FULL_SPEED_MAX = 4;
