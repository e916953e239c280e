/**
 * Catalog NOTIFY (GB/T 28181-2016 A.2.5, 9.6.3): changes to a device's catalog as they happen.
 * ADD and UPDATE (and items without an Event, as some devices send a whole catalog this way) are
 * upserted where their parent says; DEL removes the channel and what hangs under it; ON/OFF change
 * the online flag; VLOST (video lost) and DEFECT (fault) take the channel offline with that reason.
 * Every online change goes to the message log (pushed to consoles).
 */
import type { CatalogItem } from '@opencvr/manscdp';
import type { ReasonKey } from '@opencvr/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { NewsService } from '../../services/news/news.js';
import { storeCatalog } from './store.js';

export interface NotifyDeps {
  db: Kysely<Database>;
  news: Pick<NewsService, 'add'>;
  removeChannels: (deviceId: string, channelIds: string[]) => Promise<string[]>;
}

/** Each event's online flag and catalogue reason (stored in status_reason). */
const STATUS_EVENTS: Record<string, { online: boolean; reason: ReasonKey | '' }> = {
  ON: { online: true, reason: '' },
  OFF: { online: false, reason: 'statusCatalogOff' },
  VLOST: { online: false, reason: 'statusCatalogVideoLost' },
  DEFECT: { online: false, reason: 'statusCatalogDefect' },
};

export async function applyCatalogNotify(
  deps: NotifyDeps,
  deviceId: string,
  items: readonly CatalogItem[],
  deviceOnline: boolean,
): Promise<{ touched: boolean; upserted: number; removed: number; statusChanged: number }> {
  const upserts = items.filter((i) => !i.event || i.event === 'ADD' || i.event === 'UPDATE');
  const deletes = items.filter((i) => i.event === 'DEL').map((i) => i.deviceId);
  const statuses = items.filter((i) => i.event && STATUS_EVENTS[i.event]);
  let statusChanged = 0;
  if (upserts.length) {
    const r = await storeCatalog(deps.db, deviceId, upserts, { complete: false, defaultOnline: deviceOnline });
    for (const c of r.changes) await deps.news.add({ deviceId, channelId: c.channelId, channelName: c.name, online: c.online });
    statusChanged += r.changes.length;
  }
  let removed = 0;
  if (deletes.length) {
    const missing = await deps.removeChannels(deviceId, deletes);
    removed = deletes.length - missing.length;
  }
  const now = new Date().toISOString();
  for (const item of statuses) {
    const s = STATUS_EVENTS[item.event!];
    const c = await deps.db
      .selectFrom('channels')
      .select(['id', 'name', 'online', 'enable'])
      .where('parent_device_id', '=', deviceId)
      .where('channel_id', '=', item.deviceId)
      .executeTakeFirst();
    if (!c) continue;
    if (!c.enable) {
      // Switched off here: offline whatever the device reports; its word is kept for when it is
      // switched on again (services/inventory/channel-enable.ts).
      await deps.db.updateTable('channels').set({ status: item.event!, updated_at: now }).where('id', '=', c.id).execute();
      continue;
    }
    await deps.db
      .updateTable('channels')
      .set({ online: s.online ? 1 : 0, status: item.event!, status_reason: s.reason, status_reason_vars: '', checked_at: now, updated_at: now })
      .where('id', '=', c.id)
      .execute();
    if (c.online !== (s.online ? 1 : 0)) {
      statusChanged++;
      await deps.news.add({ deviceId, channelId: item.deviceId, channelName: c.name, online: s.online });
    }
  }
  return { touched: upserts.length > 0 || removed > 0 || statusChanged > 0, upserted: upserts.length, removed, statusChanged };
}
