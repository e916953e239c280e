import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../index.js';

/** An auto-increment integer key in the idiom of each engine. */
function idType(engine: Engine) {
  return engine === 'postgres' ? ('serial' as const) : ('integer' as const);
}

export function m0001_foundation(engine: Engine): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column builder differs per engine
  const id = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('roles')
        .addColumn('id', idType(engine), id)
        .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('describe', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', idType(engine), id)
        .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('nick_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
        .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('tokens')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('tokens_user').on('tokens').column('user_id').execute();
      await db.schema
        .createTable('login_failures')
        .addColumn('username', 'varchar(64)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('first_failed_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('locked_until', 'varchar(32)')
        .addPrimaryKeyConstraint('login_failures_pk', ['username', 'ip'])
        .execute();
      await db.schema
        .createTable('config')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('news')
        .addColumn('id', idType(engine), id)
        .addColumn('device_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('channel_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('channel_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'varchar(8)', (c) => c.notNull())
        .addColumn('news_time', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('news_time_idx').on('news').column('news_time').execute();
      await db.schema
        .createTable('news_state')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('news_id', 'integer', (c) => c.notNull().references('news.id').onDelete('cascade'))
        .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('news_state_pk', ['user_id', 'news_id'])
        .execute();
      await db.schema
        .createTable('devices')
        .addColumn('id', idType(engine), id)
        .addColumn('device_id', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('device_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('device_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('channels')
        .addColumn('id', idType(engine), id)
        .addColumn('channel_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('parent_device_id', 'varchar(64)', (c) =>
          c.notNull().references('devices.device_id').onDelete('cascade'),
        )
        .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('channels_uq', ['parent_device_id', 'channel_id'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async down(db: Kysely<any>) {
      for (const t of ['channels', 'devices', 'news_state', 'news', 'config', 'login_failures', 'tokens', 'users', 'roles']) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
