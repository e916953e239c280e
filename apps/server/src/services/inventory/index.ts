import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Engine } from '../../db/index.js';
import type { NewsService } from '../news/news.js';
import { ChannelService } from './channels.js';
import { DeviceService } from './devices.js';
import { LabelService } from './labels.js';

/** The inventory's services, and a hook the stream checker listens on to pick up changes at once. */
export class Inventory {
  readonly devices: DeviceService;
  readonly channels: ChannelService;
  readonly labels: LabelService;
  private listeners = new Set<() => void>();

  constructor(db: Kysely<Database>, engine: Engine, news: NewsService) {
    this.devices = new DeviceService(db, engine);
    this.channels = new ChannelService(db, engine, news);
    this.labels = new LabelService(db);
  }

  onChannelsChanged() {
    for (const l of this.listeners) l();
  }
  subscribe(fn: () => void) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
