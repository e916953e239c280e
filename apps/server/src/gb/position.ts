/**
 * MobilePosition (GB/T 28181-2016 A.2.5, 9.11.2): a moving device's fix, sent as NOTIFY after a
 * SUBSCRIBE or as MESSAGE. The body's DeviceID names the channel that moved; when it names the
 * device itself, every channel of the device moves with it (a vehicle or body camera). The fix goes
 * to the channel's gps_* columns (the map's fall-back position), never over a position set by hand.
 */
import type { MobilePositionNotify } from '@opencvr/manscdp';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { GbLog } from './core.js';
import type { GbApi } from './manscdp-client.js';

const finite = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : null);

/** A GB time (device local time, no zone) as ISO UTC, read in the server's zone as the alarm times are. */
function isoOf(gbTime: string | undefined, fallback: Date): string {
  const d = gbTime ? new Date(gbTime) : fallback;
  return Number.isNaN(d.getTime()) ? fallback.toISOString() : d.toISOString();
}

/** Stores a fix; returns how many channels it moved. */
export async function applyMobilePosition(db: Kysely<Database>, deviceId: string, m: MobilePositionNotify, receivedAt = new Date()): Promise<number> {
  const set = {
    gps_longitude: m.longitude,
    gps_latitude: m.latitude,
    gps_time: isoOf(m.time, receivedAt),
    gps_speed: finite(m.speed),
    gps_direction: finite(m.direction),
    gps_altitude: finite(m.altitude),
  };
  const one = await db
    .updateTable('channels')
    .set(set)
    .where('parent_device_id', '=', deviceId)
    .where('channel_id', '=', m.deviceId)
    .executeTakeFirst();
  if (Number(one.numUpdatedRows) > 0 || m.deviceId !== deviceId) return Number(one.numUpdatedRows);
  const all = await db.updateTable('channels').set(set).where('parent_device_id', '=', deviceId).where('parental', '=', 0).executeTakeFirst();
  return Number(all.numUpdatedRows);
}

export function attachMobilePosition(gb: Pick<GbApi, 'onMessage'>, db: Kysely<Database>, log: GbLog): () => void {
  return gb.onMessage('MobilePosition', async (m) => {
    if (m.message.kind !== 'mobile-position') return;
    const moved = await applyMobilePosition(db, m.deviceId, m.message);
    if (!moved) log.debug({ device: m.deviceId, target: m.message.deviceId }, 'gb: MobilePosition for no known channel');
  });
}
