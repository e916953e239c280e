import { Migrator, type Kysely, type Migration } from 'kysely';
import type { Engine } from './index.js';
import { m0001_foundation } from './migrations/0001_foundation.js';
import { m0002_inventory } from './migrations/0002_inventory.js';
import { m0003_recording } from './migrations/0003_recording.js';
import { m0004_gb } from './migrations/0004_gb.js';
import { m0005_status_reason_codes } from './migrations/0005_status_reason_codes.js';
import { m0006_channel_tls_pin } from './migrations/0006_channel_tls_pin.js';

/** Migrations in order; each is a function of the engine so column types can differ where needed. */
const migrations: Record<string, (engine: Engine) => Migration> = {
  '0001_foundation': m0001_foundation,
  '0002_inventory': m0002_inventory,
  '0003_recording': m0003_recording,
  '0004_gb': m0004_gb,
  '0005_status_reason_codes': m0005_status_reason_codes,
  '0006_channel_tls_pin': m0006_channel_tls_pin,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works below the typed schema
export async function migrateToLatest(db: Kysely<any>, engine: Engine): Promise<void> {
  return migrateTo(db, engine);
}

/** Up or down to the named migration (the latest when none: tests go back to put a database of before in place). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works below the typed schema
export async function migrateTo(db: Kysely<any>, engine: Engine, name?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: async () =>
        Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(engine)])),
    },
  });
  const { error, results } = await (name ? migrator.migrateTo(name) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}
