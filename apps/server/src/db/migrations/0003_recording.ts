import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../index.js';

/**
 * Recording (issue 5): record plans (a weekly schedule, save days, the channels they apply to), the
 * index of recorded segments, and the channels recording by hand (realtimerecord/start) so a restart
 * resumes them. Segment times are ISO UTC text; `path` is relative to `root` (the RecordPath setting
 * the segment was written under, '' = the default DATA_DIR/records).
 */
export function m0003_recording(engine: Engine): Migration {
  const idType = engine === 'postgres' ? ('serial' as const) : ('integer' as const);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column builder differs per engine
  const id = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  // Sizes can pass 2 GiB: bigint in PostgreSQL (read back through Number()), integer is 64-bit in SQLite.
  const big = engine === 'postgres' ? ('bigint' as const) : ('integer' as const);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('record_plans')
        .addColumn('id', idType, id)
        .addColumn('name', 'varchar(128)', (c) => c.notNull())
        .addColumn('schedule', 'text', (c) => c.notNull())
        .addColumn('save_days', 'integer', (c) => c.notNull().defaultTo(30))
        .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('record_plan_channels')
        .addColumn('plan_id', 'integer', (c) => c.notNull().references('record_plans.id').onDelete('cascade'))
        .addColumn('channel_pk', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('record_plan_channels_pk', ['plan_id', 'channel_pk'])
        .execute();
      await db.schema.createIndex('record_plan_channels_channel').on('record_plan_channels').column('channel_pk').execute();
      // No foreign key to channels: the files outlive a deleted channel until retention removes them.
      await db.schema
        .createTable('recordings')
        .addColumn('id', idType, id)
        .addColumn('channel_pk', 'integer', (c) => c.notNull())
        .addColumn('root', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
        .addColumn('path', 'varchar(1024)', (c) => c.notNull())
        .addColumn('start_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('end_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes', big, (c) => c.notNull().defaultTo(0))
        .addColumn('important', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('recording'))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('recordings_channel_start').on('recordings').columns(['channel_pk', 'start_at']).execute();
      await db.schema.createIndex('recordings_start').on('recordings').column('start_at').execute();
      await db.schema.createIndex('recordings_status').on('recordings').column('status').execute();
      await db.schema
        .createTable('record_manual')
        .addColumn('channel_pk', 'integer', (c) => c.primaryKey().references('channels.id').onDelete('cascade'))
        .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async down(db: Kysely<any>) {
      for (const t of ['record_manual', 'recordings', 'record_plan_channels', 'record_plans']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
