/**
 * A channel whose own Enable switch is off is not probed, played, recorded or kept always-on (each
 * of those reads the flag), so it is offline, with CHANNEL_DISABLED as its reason (通道未开启 / the
 * channel is not enabled), and every list and count (video tree, square, channel lists, labels, the
 * wall's picker) reads the stored flag and agrees. Nothing brings it back while it stays disabled:
 * ChannelService.setOnline refuses a probe's late answer, a GB catalog keeps it offline. Enabled
 * again, it waits for whoever decides its state: the stream checker (probed at once, as a new
 * target) or, for a GB channel, its device (online with it unless it last reported the channel
 * off line, or WITH_DEVICE to come back with it).
 * The same for a whole device is device-enable.ts.
 */
import type { Kysely } from 'kysely';
import type { ReasonKey } from '@opencvr/shared';
import type { Database } from '../../db/schema.js';
import type { NewsService } from '../news/news.js';
import { GB_DEVICE_TYPE, WITH_DEVICE } from '../../gb/device-store.js';
import { deviceFollowsChannels } from './device-online.js';

/** status_reason of a channel switched off. */
export const CHANNEL_DISABLED = 'statusChannelDisabled' satisfies ReasonKey;

/** A GB channel's last reported status (the catalog's Status, a NOTIFY's event) that says it is off line. */
const REPORTED_OFFLINE: Record<string, ReasonKey> = { OFF: 'statusCatalogOff', VLOST: 'statusCatalogVideoLost', DEFECT: 'statusCatalogDefect' };

/**
 * Puts the channel offline (disabled) or hands it back (enabled). A change of its online flag goes
 * to the message log, and a pulled device follows its channels (online while any of them is).
 */
export async function applyChannelEnable(db: Kysely<Database>, news: NewsService, channelPk: number, enabled: boolean): Promise<void> {
  const c = await db
    .selectFrom('channels')
    .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
    .select(['channels.parent_device_id as deviceId', 'channels.channel_id as channelId', 'channels.name', 'channels.online', 'channels.status_reason as reason', 'channels.status'])
    .select(['devices.device_type as deviceType', 'devices.online as deviceOnline', 'devices.enable as deviceEnable'])
    .where('channels.id', '=', channelPk)
    .executeTakeFirst();
  if (!c) return;
  const now = new Date().toISOString();
  if (!enabled) {
    await db.updateTable('channels').set({ online: 0, status_reason: CHANNEL_DISABLED, status_reason_vars: '', checked_at: now }).where('id', '=', channelPk).execute();
    if (c.online) {
      await news.add({ deviceId: c.deviceId, channelId: c.channelId, channelName: c.name, online: false });
      await followChannels(db, c.deviceId, c.deviceType, now);
    }
    return;
  }
  // A disabled device's reason stays (device-enable.ts hands it back when the device is enabled).
  if (c.reason !== CHANNEL_DISABLED || !c.deviceEnable) return;
  if (c.deviceType !== GB_DEVICE_TYPE) {
    // Offline until the stream checker's probe, which the inventory change starts at once.
    await db.updateTable('channels').set({ status_reason: '' }).where('id', '=', channelPk).execute();
    return;
  }
  // A GB channel's state comes from its device: back with its next registration, or as the device
  // last reported it (kept while it was off), on line unless that said otherwise.
  const reported = REPORTED_OFFLINE[c.status.toUpperCase()];
  const online = c.deviceOnline === 1 && !reported;
  await db
    .updateTable('channels')
    .set({ online: online ? 1 : 0, status_reason: c.deviceOnline !== 1 ? WITH_DEVICE : (reported ?? ''), checked_at: now })
    .where('id', '=', channelPk)
    .execute();
  if (online) await news.add({ deviceId: c.deviceId, channelId: c.channelId, channelName: c.name, online: true });
}

/** A pulled device is online while any of its channels is (a GB device is online by its registration). */
async function followChannels(db: Kysely<Database>, deviceId: string, deviceType: string, now: string) {
  if (deviceType !== GB_DEVICE_TYPE) await deviceFollowsChannels(db, deviceId, now);
}

/**
 * Disabled channels that still read online or without their reason (a database from before this
 * rule) are put offline at start, without log entries: nothing changed just now. Channels of a
 * disabled device keep the device's reason (settleDisabledDevices).
 */
export async function settleDisabledChannels(db: Kysely<Database>): Promise<number> {
  const enabledDevices = db.selectFrom('devices').select('device_id').where('enable', '=', 1);
  const r = await db
    .updateTable('channels')
    .set({ online: 0, status_reason: CHANNEL_DISABLED, status_reason_vars: '' })
    .where('enable', '=', 0)
    .where('parent_device_id', 'in', enabledDevices)
    .where((eb) => eb.or([eb('online', '=', 1), eb('status_reason', '!=', CHANNEL_DISABLED)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
