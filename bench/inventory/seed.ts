/**
 * The inventory benchmark's data, shared by run.ts (the benchmark) and explain.ts (query plans):
 * 1,000 RTSP devices × 16 channels and the contents of 50 labels, inserted directly with the column
 * set DeviceService.create and ChannelService.create write (apps/server/src/services/inventory).
 *
 * Labels: channel c of device d sits in label ((d-1) mod 50 + 3(c-1)) mod 50, so every label holds
 * 320 channels spread over 320 devices, and any 10 consecutive labels reach every device (2 to 4 of
 * its 16 channels). Label l (0-based) also holds devices 2l+1 and 2l+2 whole.
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Insertable } from 'kysely';
import pg from 'pg';
import type { Database } from '../../apps/server/src/db/schema';

export type Engine = 'SQLite' | 'PostgreSQL';

export const DEVICES = 1000;
export const CHANNELS_PER_DEVICE = 16;
export const LABELS = 50;
export const ROLE_LABELS = 10;
export const DEVICES_PER_LABEL = 2;
/** The device whose channels are listed and expanded. */
export const MID_DEVICE = String(DEVICES / 2);
/** The sidebar search text: Site 0500..0509, 160 channels for the admin. */
export const SEARCH = 'site 050';

const pad4 = (n: number) => String(n).padStart(4, '0');
export const pad2 = (n: number) => String(n).padStart(2, '0');
export const deviceName = (d: number) => `Site ${pad4(d)}`;
export const labelName = (l: number) => `Zone ${pad2(l + 1)}`;

/** A Kysely on the database the server created (SQLite file in its data folder, or PostgreSQL). */
export function openDb(engine: Engine, dataDir: string, url?: string): Kysely<Database> {
  if (engine === 'PostgreSQL') {
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
  }
  const db = new SQLite(path.join(dataDir, 'opencvr.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: db }) });
}

/**
 * Inserts devices, channels, label_channels and label_devices (the labels exist already: their ids
 * in order). On PostgreSQL the serial sequences are moved past the explicit ids and the tables are
 * ANALYZEd, as autovacuum would do within a minute of such an insert; SQLite is left as the server
 * leaves it (it never runs ANALYZE).
 */
export async function seedInventory(
  engine: Engine,
  db: Kysely<Database>,
  labelIds: number[],
  rtspPort: number,
): Promise<void> {
  if (labelIds.length !== LABELS) throw new Error(`seedInventory needs ${LABELS} labels, got ${labelIds.length}`);
  const now = new Date().toISOString();
  const devices: Insertable<Database['devices']>[] = [];
  const channels: Insertable<Database['channels']>[] = [];
  const labelChannels: Insertable<Database['label_channels']>[] = [];
  const labelDevices: Insertable<Database['label_devices']>[] = [];
  for (let d = 1; d <= DEVICES; d++) {
    // As DeviceService.create for an RTSP device without a DeviceID: the ID is the row's number.
    devices.push({
      id: d,
      device_id: String(d),
      device_name: deviceName(d),
      device_type: 'RTSP',
      device_ip: '127.0.0.1',
      device_port: rtspPort,
      device_username: '',
      device_password: '',
      manufacturer: '',
      enable: 1,
      online: 0,
      transport: 'UDP',
      transport_mode: 'passive',
      server_id: '',
      alarm_subscribe: 0,
      catalog_subscribe: 0,
      position_subscribe: 0,
      created_at: now,
      updated_at: now,
    });
    for (let c = 1; c <= CHANNELS_PER_DEVICE; c++) {
      const pk = (d - 1) * CHANNELS_PER_DEVICE + c;
      // As ChannelService.create with a RtspUrl (adddevice's channel 1, addchannel for the others).
      channels.push({
        id: pk,
        channel_id: String(c),
        parent_device_id: String(d),
        name: `${deviceName(d)} Cam ${pad2(c)}`,
        online: 0,
        enable: 1,
        created_at: now,
        updated_at: now,
        channel_num: c,
        parent_id: '',
        parental: 0,
        on_demand: 1,
        ip: '127.0.0.1',
        port: rtspPort,
        username: '',
        password: '',
        protocol: 'RTSP',
        rtsp_url: `rtsp://127.0.0.1:${rtspPort}/site${pad4(d)}/ch${pad2(c)}`,
        record_url: '',
        snap_url: '',
        cdn_url: '',
        enable_cdn: 0,
        enable_record: 0,
        enable_audio: 1,
        enable_h265_to_h264: 0,
        onvif: '',
        transport: 'TCP',
        manufacturer: '',
        model: '',
        longitude: null,
        latitude: null,
      });
      const label = (((d - 1) % LABELS) + 3 * (c - 1)) % LABELS;
      labelChannels.push({ label_id: labelIds[label], channel_pk: pk });
    }
  }
  for (let l = 0; l < LABELS; l++) {
    for (let k = 1; k <= DEVICES_PER_LABEL; k++)
      labelDevices.push({ label_id: labelIds[l], device_pk: l * DEVICES_PER_LABEL + k });
  }
  const batches = async <T>(rows: T[], size: number, fn: (chunk: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += size) await fn(rows.slice(i, i + size));
  };
  await db.transaction().execute(async (trx) => {
    await batches(devices, 500, (b) => trx.insertInto('devices').values(b).execute());
    await batches(channels, 500, (b) => trx.insertInto('channels').values(b).execute());
    await batches(labelChannels, 2000, (b) => trx.insertInto('label_channels').values(b).execute());
    await trx.insertInto('label_devices').values(labelDevices).execute();
  });
  if (engine === 'PostgreSQL') {
    for (const t of ['devices', 'channels']) {
      await sql`SELECT setval(pg_get_serial_sequence(${t}, 'id'), (SELECT max(id) FROM ${sql.table(t)}))`.execute(db);
    }
    await sql`ANALYZE`.execute(db);
  }
}
