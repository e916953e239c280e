/**
 * A disabled device (its Enable switch off) is not pulled, not registered and not played, so it and
 * its channels are offline, with DEVICE_DISABLED as their reason; every list and count (device list,
 * video tree, home statistics, channel lists, labels) reads the stored flag and so agrees. Nothing
 * brings them back while the device stays disabled: the stream checker does not probe it, a late
 * probe's answer is refused by ChannelService.setOnline, and a GB device is unregistered and refused
 * at REGISTER. Enabled again, its channels wait for whoever decides their state: the stream checker
 * (probed at once, as new targets) or, for GB, the next registration (reason WITH_DEVICE, which
 * registration brings back).
 */
import type { Kysely } from 'kysely';
import type { ReasonKey } from '@opencvr/shared';
import type { Database } from '../../db/schema.js';
import type { NewsService } from '../news/news.js';
import { GB_DEVICE_TYPE, WITH_DEVICE } from '../../gb/device-store.js';
import { CHANNEL_DISABLED } from './channel-enable.js';

/** status_reason of a disabled device's channels (and of the device): 设备未开启 / the device is not enabled. */
export const DEVICE_DISABLED = 'statusDeviceDisabled' satisfies ReasonKey;

/**
 * Puts the device and its channels offline (disabled) or hands them back (enabled). Changes of the
 * online flag go to the message log, as every other online change does.
 */
export async function applyDeviceEnable(db: Kysely<Database>, news: NewsService, deviceId: string, enabled: boolean): Promise<void> {
  const device = await db.selectFrom('devices').select(['device_name', 'device_type', 'online']).where('device_id', '=', deviceId).executeTakeFirst();
  if (!device) return;
  const now = new Date().toISOString();
  if (!enabled) {
    const wasOnline = await db
      .selectFrom('channels')
      .select(['channel_id', 'name'])
      .where('parent_device_id', '=', deviceId)
      .where('online', '=', 1)
      .execute();
    await db.updateTable('channels').set({ online: 0, status_reason: DEVICE_DISABLED, status_reason_vars: '', checked_at: now }).where('parent_device_id', '=', deviceId).execute();
    await db.updateTable('devices').set({ online: 0, status_reason: DEVICE_DISABLED }).where('device_id', '=', deviceId).execute();
    if (device.online) await news.add({ deviceId, channelId: deviceId, channelName: device.device_name, online: false });
    for (const c of wasOnline) await news.add({ deviceId, channelId: c.channel_id, channelName: c.name, online: false });
    return;
  }
  // Still offline until checked; a GB device's channels come back with its next registration; a
  // channel switched off itself stays so, saying that instead (channel-enable.ts).
  const handBack = device.device_type === GB_DEVICE_TYPE ? WITH_DEVICE : '';
  await db
    .updateTable('channels')
    .set((eb) => ({ status_reason: eb.case().when('enable', '=', 0).then(CHANNEL_DISABLED).else(handBack).end() }))
    .where('parent_device_id', '=', deviceId)
    .where('status_reason', '=', DEVICE_DISABLED)
    .execute();
  await db
    .updateTable('devices')
    .set({ status_reason: '' })
    .where('device_id', '=', deviceId)
    .where('status_reason', '=', DEVICE_DISABLED)
    .execute();
}

/**
 * Channels of disabled devices that still read online (a database from before this rule, or a writer
 * that slipped past it) are put offline at start, without log entries: nothing changed just now; a
 * disabled GB device's stored registration is dropped.
 */
export async function settleDisabledDevices(db: Kysely<Database>): Promise<number> {
  const disabled = db.selectFrom('devices').select('device_id').where('enable', '=', 0);
  const r = await db
    .updateTable('channels')
    .set({ online: 0, status_reason: DEVICE_DISABLED, status_reason_vars: '' })
    .where('parent_device_id', 'in', disabled)
    .where((eb) => eb.or([eb('online', '=', 1), eb('status_reason', '!=', DEVICE_DISABLED)]))
    .executeTakeFirst();
  // A GB registration kept from before is not taken back into memory (the GB service starts after this).
  await db
    .updateTable('devices')
    .set({ online: 0, status_reason: DEVICE_DISABLED, register_expires_at: '', register_expires: 0 })
    .where('enable', '=', 0)
    .execute();
  return Number(r.numUpdatedRows);
}
