import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../index.js';

/**
 * GB28181 access (issue 6): the registration whitelist and blacklist, protocol alarms, and the
 * device/channel columns the SIP server keeps (registration, keepalive, contact, catalog fields,
 * MobilePosition). Times are ISO UTC text like everywhere else; '' means "never".
 */
export function m0004_gb(engine: Engine): Migration {
  const idType = engine === 'postgres' ? ('serial' as const) : ('integer' as const);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column builder differs per engine
  const id = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const real = engine === 'postgres' ? ('double precision' as const) : ('real' as const);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async up(db: Kysely<any>) {
      const deviceCols: [string, string, unknown][] = [
        // The Contact URI of the last REGISTER (where requests to the device go).
        ['contact', 'varchar(255)', ''],
        // UDP or TCP: the transport the device registered over (requests go back the same way).
        ['sip_transport', 'varchar(8)', 'UDP'],
        // The address the REGISTER came from (NAT: may differ from the Contact host).
        ['sip_remote_ip', 'varchar(64)', ''],
        ['sip_remote_port', 'integer', 0],
        // The local address the device reached us on (what to announce back to it).
        ['sip_local_ip', 'varchar(64)', ''],
        // Granted registration lifetime in seconds, when it was granted and when it runs out.
        ['register_expires', 'integer', 0],
        ['registered_at', 'varchar(32)', ''],
        ['register_expires_at', 'varchar(32)', ''],
        // Last keepalive MESSAGE and the interval the device announced (0 = the global setting).
        ['keepalive_at', 'varchar(32)', ''],
        ['keepalive_interval', 'integer', 0],
        // Character set of the device's MANSCDP bodies (GB2312, GB18030, UTF-8), echoed back in requests.
        ['charset', 'varchar(16)', 'GB2312'],
        // From DeviceInfo: the number of channels the device says it has; and the last full catalog.
        ['channel_count', 'integer', 0],
        ['catalog_at', 'varchar(32)', ''],
        // Why the device is offline ('' when online): register expired, keepalive missed, unregistered.
        ['status_reason', 'varchar(255)', ''],
      ];
      for (const [name, type, def] of deviceCols) {
        await db.schema
          .alterTable('devices')
          .addColumn(name, type as 'text', (c) => c.notNull().defaultTo(def))
          .execute();
      }
      const channelCols: [string, string, unknown][] = [
        // Catalog item fields (GB/T 28181 A.2.1 catalog): CivilCode, Block, Address, Owner, ...
        ['civil_code', 'varchar(32)', ''],
        ['block', 'varchar(64)', ''],
        ['address', 'varchar(255)', ''],
        ['owner', 'varchar(64)', ''],
        ['business_group_id', 'varchar(64)', ''],
        ['safety_way', 'integer', 0],
        ['register_way', 'integer', 1],
        ['cert_num', 'varchar(64)', ''],
        ['certifiable', 'integer', 0],
        ['err_code', 'integer', 0],
        ['secrecy', 'integer', 0],
        // Status text as the device sent it (ON/OFF/OK...); Online stays the integer flag.
        ['status', 'varchar(16)', ''],
        // Info/PTZType: 0 unknown, 1 dome, 2 half-dome, 3 fixed bullet, 4 remote-controlled bullet.
        ['ptz_type', 'integer', 0],
        // Sub-channel count under a directory (Parental 1), as the catalog says.
        ['sub_count', 'integer', 0],
        // MobilePosition: time of the last fix and its speed (km/h), direction (degrees), altitude (m).
        ['gps_time', 'varchar(32)', ''],
        // Whether the channel came from a device catalog (1) or was added by hand (0).
        ['from_catalog', 'integer', 0],
      ];
      for (const [name, type, def] of channelCols) {
        await db.schema
          .alterTable('channels')
          .addColumn(name, type as 'text', (c) => c.notNull().defaultTo(def))
          .execute();
      }
      for (const name of ['gps_speed', 'gps_direction', 'gps_altitude']) {
        await db.schema.alterTable('channels').addColumn(name, real).execute();
      }
      await db.schema.createIndex('channels_civil_code').on('channels').column('civil_code').execute();
      await db.schema.createIndex('devices_type').on('devices').column('device_type').execute();

      // Lists: an entry matches by device ID, by address (single IP or CIDR), or by both; '' = any.
      for (const table of ['gb_whitelist', 'gb_blacklist']) {
        await db.schema
          .createTable(table)
          .addColumn('id', idType, id)
          .addColumn('device_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
          .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
          .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
          .addUniqueConstraint(`${table}_uq`, ['device_id', 'ip'])
          .execute();
        await db.schema.createIndex(`${table}_ip`).on(table).column('ip').execute();
      }

      // Protocol alarms. No foreign key: an alarm outlives a deleted device or channel.
      await db.schema
        .createTable('alarms')
        .addColumn('id', idType, id)
        .addColumn('device_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('channel_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        // AlarmPriority 1-4 (1 highest), AlarmMethod 1-7 (2 = device alarm, 5 = video alarm, ...).
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('method', 'integer', (c) => c.notNull().defaultTo(0))
        // Spec 3 alarm types 1-19 (0 = unknown/other).
        .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('alarm_time', 'varchar(32)', (c) => c.notNull())
        .addColumn('description', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
        .addColumn('longitude', real)
        .addColumn('latitude', real)
        // Relative to DATA_DIR/alarms; '' when no snapshot could be taken.
        .addColumn('snapshot', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alarms_time').on('alarms').columns(['alarm_time', 'id']).execute();
      await db.schema.createIndex('alarms_device_time').on('alarms').columns(['device_id', 'channel_id', 'alarm_time']).execute();
      await db.schema.createIndex('alarms_type_time').on('alarms').columns(['type', 'alarm_time']).execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was
    async down(db: Kysely<any>) {
      for (const t of ['alarms', 'gb_blacklist', 'gb_whitelist']) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
