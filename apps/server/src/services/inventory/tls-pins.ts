/**
 * The rtsps:// certificate pins of channels (channels.tls_pin), for access/tls/rtsps-trust.ts. The
 * first pin wins: the pull and the stream checker's probe may meet a camera for the first time at
 * once, and a second certificate then must not replace the first.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TlsPins } from '../../access/tls/rtsps-trust.js';

export function channelTlsPins(db: Kysely<Database>): TlsPins {
  const pinned = async (channel: number) =>
    (await db.selectFrom('channels').select('tls_pin').where('id', '=', channel).executeTakeFirst())?.tls_pin ?? '';
  return {
    pinned,
    async pin(channel, fingerprint) {
      await db.updateTable('channels').set({ tls_pin: fingerprint }).where('id', '=', channel).where('tls_pin', '=', '').execute();
      // A channel deleted meanwhile has no pin to keep: the one presented stands for this connection.
      return (await pinned(channel)) || fingerprint;
    },
  };
}
