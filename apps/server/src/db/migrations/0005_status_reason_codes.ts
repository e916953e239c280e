import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../index.js';
import { legacyStatusReason } from './0005-legacy-status-words.js';

/**
 * Why a channel or device is offline is stored as a REASONS key (packages/shared/src/messages.ts),
 * with a channel's {vars} as JSON in the new status_reason_vars, and rendered in the asker's language
 * when a list is served; status_reason held its writer's English words before, which every answer
 * translated with a table. The rows stored so far are rewritten here, once.
 */
export function m0005_status_reason_codes(_engine: Engine): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('channels')
        // The vars may hold a camera's own status phrase or Content-Type: not bounded by us.
        .addColumn('status_reason_vars', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      const channels: { id: number; status_reason: string }[] = await db.selectFrom('channels').select(['id', 'status_reason']).where('status_reason', '!=', '').execute();
      for (const c of channels) {
        const why = legacyStatusReason(c.status_reason);
        await db
          .updateTable('channels')
          .set({ status_reason: why.key, status_reason_vars: why.vars ? JSON.stringify(why.vars) : '' })
          .where('id', '=', c.id)
          .execute();
      }
      // A device's reasons have no vars (keepalive timeout, registration expired, unregistered, not enabled).
      const devices: { id: number; status_reason: string }[] = await db.selectFrom('devices').select(['id', 'status_reason']).where('status_reason', '!=', '').execute();
      for (const d of devices) {
        await db.updateTable('devices').set({ status_reason: legacyStatusReason(d.status_reason).key }).where('id', '=', d.id).execute();
      }
    },
    // The words are not brought back: a stored key reads as unknown words to older code, shown as stored.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async down(db: Kysely<any>) {
      await db.schema.alterTable('channels').dropColumn('status_reason_vars').execute();
    },
  };
}
