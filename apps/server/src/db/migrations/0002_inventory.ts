import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../index.js';

/**
 * The inventory (issue 3): every field of spec 3 on devices and channels, groups (labels) of any
 * depth, favourites per user and the channels and labels each role may see. Association tables key
 * channels by their row id so a cascade on delete cleans everything that hangs from a channel.
 */
export function m0002_inventory(engine: Engine): Migration {
  const idType = engine === 'postgres' ? ('serial' as const) : ('integer' as const);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column builder differs per engine
  const id = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const real = engine === 'postgres' ? ('double precision' as const) : ('real' as const);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async up(db: Kysely<any>) {
      const deviceCols: [string, string, unknown][] = [
        ['device_ip', 'varchar(255)', ''],
        ['device_port', 'integer', 0],
        ['device_username', 'varchar(64)', ''],
        ['device_password', 'varchar(128)', ''],
        ['manufacturer', 'varchar(64)', ''],
        ['model', 'varchar(64)', ''],
        ['firmware', 'varchar(64)', ''],
        ['transport', 'varchar(8)', 'UDP'],
        ['transport_mode', 'varchar(16)', 'passive'],
        ['server_id', 'varchar(64)', ''],
        ['alarm_subscribe', 'integer', 0],
        ['catalog_subscribe', 'integer', 0],
        ['position_subscribe', 'integer', 0],
        ['updated_at', 'varchar(32)', ''],
        ['last_seen_at', 'varchar(32)', ''],
      ];
      for (const [name, type, def] of deviceCols) {
        await db.schema
          .alterTable('devices')
          .addColumn(name, type as 'text', (c) => c.notNull().defaultTo(def))
          .execute();
      }
      const channelCols: [string, string, unknown][] = [
        ['parent_id', 'varchar(64)', ''],
        ['parental', 'integer', 0],
        ['on_demand', 'integer', 1],
        ['ip', 'varchar(255)', ''],
        ['port', 'integer', 0],
        ['username', 'varchar(64)', ''],
        ['password', 'varchar(128)', ''],
        ['protocol', 'varchar(16)', 'RTSP'],
        ['rtsp_url', 'varchar(1024)', ''],
        ['record_url', 'varchar(1024)', ''],
        ['snap_url', 'varchar(1024)', ''],
        ['cdn_url', 'varchar(1024)', ''],
        ['enable_cdn', 'integer', 0],
        ['enable_record', 'integer', 0],
        ['enable_audio', 'integer', 1],
        ['enable_h265_to_h264', 'integer', 0],
        ['onvif', 'varchar(1024)', ''],
        ['transport', 'varchar(8)', 'TCP'],
        ['channel_num', 'integer', 0],
        ['server_id', 'varchar(64)', ''],
        ['manufacturer', 'varchar(64)', ''],
        ['model', 'varchar(64)', ''],
        ['play_time', 'varchar(32)', ''],
        ['status_reason', 'varchar(255)', ''],
        ['checked_at', 'varchar(32)', ''],
        ['updated_at', 'varchar(32)', ''],
      ];
      for (const [name, type, def] of channelCols) {
        await db.schema
          .alterTable('channels')
          .addColumn(name, type as 'text', (c) => c.notNull().defaultTo(def))
          .execute();
      }
      for (const name of ['longitude', 'latitude', 'gps_longitude', 'gps_latitude']) {
        await db.schema.alterTable('channels').addColumn(name, real).execute();
      }
      await db.schema.createIndex('channels_parent').on('channels').columns(['parent_device_id', 'parent_id']).execute();
      await db.schema.createIndex('channels_name').on('channels').column('name').execute();
      await db.schema.createIndex('devices_name').on('devices').column('device_name').execute();

      await db.schema
        .createTable('labels')
        .addColumn('id', idType, id)
        .addColumn('name', 'varchar(128)', (c) => c.notNull())
        .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('labels_parent').on('labels').column('parent_id').execute();
      await db.schema
        .createTable('label_channels')
        .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
        .addColumn('channel_pk', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('label_channels_pk', ['label_id', 'channel_pk'])
        .execute();
      await db.schema.createIndex('label_channels_channel').on('label_channels').column('channel_pk').execute();
      await db.schema
        .createTable('label_devices')
        .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
        .addColumn('device_pk', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('label_devices_pk', ['label_id', 'device_pk'])
        .execute();
      await db.schema
        .createTable('favorites')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel_pk', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'channel_pk'])
        .execute();
      await db.schema
        .createTable('role_channels')
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addColumn('channel_pk', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('role_channels_pk', ['role_id', 'channel_pk'])
        .execute();
      await db.schema
        .createTable('role_labels')
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('role_labels_pk', ['role_id', 'label_id'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async down(db: Kysely<any>) {
      for (const t of ['role_labels', 'role_channels', 'favorites', 'label_devices', 'label_channels', 'labels']) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
