/**
 * After the inventory changed: the running streams whose channel row is gone are stopped
 * (StreamService.stopRemovedChannels). Asks the database only about the channels that have a running
 * stream, so a site of 1,500 channels with a handful playing reads a handful of rows.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { StreamService } from './streams.js';

export async function stopStreamsOfRemovedChannels(ctx: { db: Kysely<Database>; streams: StreamService }): Promise<number> {
  const running = ctx.streams.runningChannels();
  if (!running.length) return 0;
  const rows = await ctx.db.selectFrom('channels').select('id').where('id', 'in', running).execute();
  return ctx.streams.stopRemovedChannels(new Set(rows.map((r) => r.id)));
}
