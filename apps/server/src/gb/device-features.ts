/**
 * The device-management features built on the SIP server (ctx.gbDevices): catalog, DeviceInfo and
 * DeviceStatus, controls (reboot, guard), subscriptions and MobilePosition. One MANSCDP client
 * (SN counter, Response matching) is shared by all of them. Protocol alarms are handled beside the
 * alarm service (services/alarms/gb-alarm.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EventBus } from '../services/events.js';
import type { Inventory } from '../services/inventory/index.js';
import type { NewsService } from '../services/news/news.js';
import { GbCatalog } from './catalog/service.js';
import type { GbLog } from './core.js';
import { GbControl } from './control.js';
import { GbDeviceInfo } from './device-info.js';
import { ManscdpClient, type GbApi } from './manscdp-client.js';
import { attachMobilePosition } from './position.js';
import { GbSubscriptions, type SubscriptionOptions } from './subscriptions.js';

export interface GbDeviceFeaturesDeps {
  gb: GbApi;
  db: Kysely<Database>;
  news: NewsService;
  events: EventBus;
  inventory: Pick<Inventory, 'channels' | 'onChannelsChanged'>;
  log: GbLog;
  subscriptions?: SubscriptionOptions;
}

export class GbDeviceFeatures {
  readonly client: ManscdpClient;
  readonly catalog: GbCatalog;
  readonly info: GbDeviceInfo;
  readonly control: GbControl;
  readonly subscriptions: GbSubscriptions;
  private unhookPosition: (() => void) | undefined;

  constructor(private readonly deps: GbDeviceFeaturesDeps) {
    const { gb, db, log } = deps;
    this.client = new ManscdpClient(gb, log);
    this.catalog = new GbCatalog({
      gb,
      client: this.client,
      db,
      news: deps.news,
      events: deps.events,
      changed: () => deps.inventory.onChannelsChanged(),
      removeChannels: (deviceId, ids) => deps.inventory.channels.remove(deviceId, ids),
      log,
    });
    this.info = new GbDeviceInfo({ gb, client: this.client, db, log });
    this.control = new GbControl(gb, this.client);
    this.subscriptions = new GbSubscriptions(gb, this.client, db, log, deps.subscriptions);
  }

  /** Hooks onto the SIP server's events; call before it starts so a first registration is seen. */
  start() {
    this.client.answersOf('DeviceInfo', 'DeviceStatus', 'DeviceControl');
    this.catalog.start();
    this.info.start();
    this.subscriptions.start();
    this.unhookPosition = attachMobilePosition(this.deps.gb, this.deps.db, this.deps.log);
  }

  async stop() {
    this.unhookPosition?.();
    this.subscriptions.stop();
    this.info.stop();
    await this.catalog.stop();
    this.client.stop();
  }
}

/** A GbApi that reaches the service through `get()` each call (the app builds the features before ctx.gb exists). */
export function forwardGb(get: () => GbApi): GbApi {
  return {
    sendRequest: (...a) => get().sendRequest(...a),
    onMessage: (...a) => get().onMessage(...a),
    onRegistered: (...a) => get().onRegistered(...a),
    onDeviceStatus: (...a) => get().onDeviceStatus(...a),
    session: (...a) => get().session(...a),
    gbConfig: () => get().gbConfig(),
  };
}
