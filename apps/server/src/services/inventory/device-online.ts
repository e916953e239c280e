/**
 * A pulled device (RTSP, ONVIF, a stream address) has no registration of its own: it is online while
 * any of its channels is. Called when a channel's Online changes (the stream checker, a channel
 * switched off or on). A GB device is online by its registration and is not passed here.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function deviceFollowsChannels(db: Kysely<Database>, deviceId: string, now: string): Promise<void> {
  const { n } = await db
    .selectFrom('channels')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('parent_device_id', '=', deviceId)
    .where('online', '=', 1)
    .executeTakeFirstOrThrow();
  const online = Number(n) > 0;
  await db
    .updateTable('devices')
    .set({ online: online ? 1 : 0, ...(online ? { last_seen_at: now } : {}) })
    .where('device_id', '=', deviceId)
    .execute();
}
