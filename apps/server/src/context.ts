/**
 * What route plugins receive from the app: the database and the services built on it. Routes get
 * this one object instead of reaching for globals, so tests can build an app per test.
 */
import type { Kysely } from 'kysely';
import type { Config } from './config/index.js';
import type { Database } from './db/schema.js';
import type { Engine } from './db/index.js';
import type { TokenService } from './services/auth/tokens.js';
import type { LockoutService } from './services/auth/lockout.js';
import type { ConfigStore } from './services/config/store.js';
import type { EventBus } from './services/events.js';
import type { NewsService } from './services/news/news.js';
import type { SystemSampler } from './services/system/sampler.js';
import type { Inventory } from './services/inventory/index.js';
import type { AlwaysOnChannels } from './services/media/always-on.js';
import type { CdnPushes } from './services/media/cdn.js';
import type { StreamService } from './services/media/streams.js';
import type { ChannelThumbnails } from './services/media/thumbnails.js';
import type { StreamChecker } from './services/inventory/stream-checker.js';
import type { RecordingService } from './services/recording/service.js';
import type { GbLists } from './services/gb-lists/index.js';
import type { GbService } from './gb/index.js';
import type { GbMediaService } from './gb/media/index.js';
import type { Alarms } from './services/alarms/index.js';
import type { GbDeviceFeatures } from './gb/device-features.js';
import type { GbInviteClient } from './gb/invite/index.js';

export interface AppContext {
  config: ConfigStore;
  settings: Config;
  db: Kysely<Database>;
  engine: Engine;
  tokens: TokenService;
  lockout: LockoutService;
  events: EventBus;
  news: NewsService;
  sampler: SystemSampler;
  inventory: Inventory;
  streams: StreamService;
  /** The latest picture of each channel on disk, made from streams that run anyway (video square cards; started when the app is ready). */
  thumbnails: ChannelThumbnails;
  /** Opens the main stream of always-on channels (OnDemand 0) with no viewer; started when the app is ready. */
  alwaysOn: AlwaysOnChannels;
  /** Channels pushed to a CDN (EnableCdn, CdnUrl). */
  cdn: CdnPushes;
  /** Probes RTSP/ONVIF channels and keeps their Online flag (started when the app is ready). */
  streamChecker: StreamChecker;
  /** Recorders, schedule engine, retention and the record index (started when the app is ready). */
  recording: RecordingService;
  /** GB28181 registration whitelist/blacklist; the SIP server asks `admits()` on REGISTER. */
  gbLists: GbLists;
  /** GB28181 SIP server: registrations, keepalives, sendRequest/onMessage/onRequest for the GB features (started when the app is ready). */
  gb: GbService;
  /** GB28181 media: RTP receivers from the gb port range and the PS source of GB channels; the SIP side plugs its INVITE in with setInviter(). */
  gbMedia: GbMediaService;
  /** Protocol alarms: `record()` stores, pushes (topic 'alarm') and snapshots a live channel. */
  alarms: Alarms;
  /** GB28181 device management on ctx.gb: catalog (fetch, progress, NOTIFY), DeviceInfo/DeviceStatus, reboot and guard, subscriptions, MobilePosition. */
  gbDevices: GbDeviceFeatures;
  /** GB28181 INVITE sessions (live through ctx.gbMedia; playback/download use it too): SSRCs, dialogs, BYE both ways, MediaStatus 121. */
  gbInvite: GbInviteClient;
  startedAt: Date;
}
