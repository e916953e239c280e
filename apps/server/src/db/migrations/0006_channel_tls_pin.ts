import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../index.js';

/**
 * An rtsps:// camera's certificate pinned at first use (access/tls/rtsps-trust.ts): its SHA-256
 * fingerprint as 'AB:CD:…' (95 characters), '' while none is pinned or the camera's certificate is
 * trusted by an authority. Cleared when the channel's address changes (services/inventory/channels.ts).
 */
export function m0006_channel_tls_pin(_engine: Engine): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async up(db: Kysely<any>) {
      await db.schema.alterTable('channels').addColumn('tls_pin', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async down(db: Kysely<any>) {
      await db.schema.alterTable('channels').dropColumn('tls_pin').execute();
    },
  };
}
