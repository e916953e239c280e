/**
 * The GB device rows: created on a first registration, updated with where the device is and when
 * it was heard of, and its online flag (with its channels') changed together with the message log.
 * Keepalive times are written in batches (one statement a second for every device heard meanwhile):
 * 2,000 devices keeping alive every 30 s would otherwise be 67 writes a second for a console column.
 */
import { sql, type Kysely } from 'kysely';
import { isReasonKey, type ReasonKey } from '@opencvr/shared';
import type { Database, Device } from '../db/schema.js';
import type { NewsService } from '../services/news/news.js';
import type { Peer } from './peer.js';

export const GB_DEVICE_TYPE = 'GB28181';
/** status_reason of channels put offline with their device (设备离线 / the device is offline): they come back with it. */
export const WITH_DEVICE = 'statusWithDevice' satisfies ReasonKey;

/** The GB service's offline words (service.ts, register.ts) as the catalogue reason the device stores. */
const OFFLINE_REASONS: Record<string, ReasonKey> = {
  'keepalive timeout': 'statusKeepaliveTimeout',
  'registration expired': 'statusRegistrationExpired',
  unregistered: 'statusUnregistered',
};

/** What the device row stores for the service's `reason` ('' online): a catalogue key passes as it is (a disabled device's). */
function storedDeviceReason(reason: string): string {
  if (!reason || isReasonKey(reason)) return reason;
  return OFFLINE_REASONS[reason] ?? 'gbDeviceWentOffline';
}

export interface Registration {
  deviceId: string;
  peer: Peer;
  contact: string;
  localIp: string;
  expires: number;
  registeredAt: Date;
  expiresAt: Date;
}

/** How long a keepalive time may wait for its write (the row's keepalive_at lags the device by this much at most). */
export const KEEPALIVE_FLUSH_MS = 1000;
/** Devices per UPDATE of a keepalive batch (5 parameters each: within SQLite's and PostgreSQL's limits). */
const KEEPALIVE_CHUNK = 200;

export class GbDeviceStore {
  /** Keepalive times not written yet: device ID → ISO time of its last keepalive. */
  private readonly heard = new Map<string, string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly news: NewsService,
    private readonly log?: { warn(obj: object, msg: string): void },
    private readonly flushMs = KEEPALIVE_FLUSH_MS,
  ) {}

  get(deviceId: string): Promise<Device | undefined> {
    return this.db.selectFrom('devices').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
  }

  /** Creates the row of a device registering for the first time (named after its ID until its DeviceInfo arrives). */
  async create(deviceId: string, transport: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db
      .insertInto('devices')
      .values({
        device_id: deviceId,
        device_name: deviceId,
        device_type: GB_DEVICE_TYPE,
        online: 0,
        enable: 1,
        transport,
        transport_mode: 'passive',
        created_at: now,
        updated_at: now,
      })
      // Two REGISTERs racing (UDP retransmission on another transaction): the second finds the row.
      .onConflict((oc) => oc.column('device_id').doNothing())
      .execute();
  }

  /** Records a successful registration and marks the device online (with the channels that went down with it). */
  async registered(r: Registration): Promise<void> {
    // This write sets keepalive_at itself; an older batched time must not overwrite it afterwards.
    this.heard.delete(r.deviceId);
    await this.db
      .updateTable('devices')
      .set({
        contact: r.contact,
        sip_transport: r.peer.transport,
        sip_remote_ip: r.peer.address,
        sip_remote_port: r.peer.port,
        sip_local_ip: r.localIp,
        device_ip: r.peer.address,
        device_port: r.peer.port,
        transport: r.peer.transport,
        register_expires: r.expires,
        registered_at: r.registeredAt.toISOString(),
        register_expires_at: r.expiresAt.toISOString(),
        keepalive_at: r.registeredAt.toISOString(),
        last_seen_at: r.registeredAt.toISOString(),
      })
      .where('device_id', '=', r.deviceId)
      .execute();
    await this.setOnline(r.deviceId, true, '');
  }

  /** Notes a keepalive; written with the others heard within KEEPALIVE_FLUSH_MS (flushKeepalives). */
  keepalive(deviceId: string, at: Date): void {
    this.heard.set(deviceId, at.toISOString());
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => void this.flushKeepalives(), this.flushMs);
    this.flushTimer.unref();
  }

  /** Writes the keepalive times noted so far (also before the database closes). */
  async flushKeepalives(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    // One batch at a time: a later one must not be overtaken by an earlier one still writing.
    while (this.flushing) await this.flushing;
    if (!this.heard.size) return;
    const batch = [...this.heard];
    this.heard.clear();
    this.flushing = this.writeKeepalives(batch)
      .catch((err: unknown) => {
        this.log?.warn({ err, devices: batch.length }, 'gb: keepalive times not written, retrying');
        for (const [id, at] of batch) if (!this.heard.has(id)) this.heard.set(id, at);
        this.flushTimer ??= setTimeout(() => void this.flushKeepalives(), this.flushMs);
        this.flushTimer.unref();
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  private async writeKeepalives(batch: [string, string][]) {
    for (let i = 0; i < batch.length; i += KEEPALIVE_CHUNK) {
      const chunk = batch.slice(i, i + KEEPALIVE_CHUNK);
      // One statement per chunk: each device's own time through CASE.
      const at = () => sql<string>`case ${sql.ref('device_id')} ${sql.join(chunk.map(([id, t]) => sql`when ${id} then ${t}`), sql` `)} end`;
      await this.db
        .updateTable('devices')
        .set({ keepalive_at: at(), last_seen_at: at() })
        .where('device_id', 'in', chunk.map(([id]) => id))
        .execute();
    }
  }

  /** Unregistered (Expires 0): registration cleared, offline. */
  async unregistered(deviceId: string, reason: string) {
    await this.db.updateTable('devices').set({ register_expires_at: '', register_expires: 0 }).where('device_id', '=', deviceId).execute();
    await this.setOnline(deviceId, false, reason);
  }

  /**
   * Sets the device's flag and its channels': offline takes every online channel down with it
   * (reason WITH_DEVICE); online brings back the channels that went down that way. Each change
   * is written to the message log (pushed to consoles). Returns whether the device's flag changed.
   */
  async setOnline(deviceId: string, online: boolean, reason: string): Promise<boolean> {
    const now = new Date();
    const set = { online: online ? 1 : 0, status_reason: online ? '' : storedDeviceReason(reason), ...(online ? { last_seen_at: now.toISOString() } : {}) };
    // The flag flips only where it was the other way: a row back says it changed (and names the device).
    const flipped = await this.db
      .updateTable('devices')
      .set(set)
      .where('device_id', '=', deviceId)
      .where('online', '=', online ? 0 : 1)
      .returning('device_name')
      .executeTakeFirst();
    const changed = !!flipped;
    if (!changed) {
      const same = await this.db.updateTable('devices').set(set).where('device_id', '=', deviceId).executeTakeFirst();
      if (!same.numUpdatedRows) return false;
    }
    const channels = await this.db
      .selectFrom('channels')
      .select(['id', 'channel_id', 'name'])
      .where('parent_device_id', '=', deviceId)
      .where('online', '=', online ? 0 : 1)
      .$if(online, (q) => q.where('status_reason', '=', WITH_DEVICE))
      .execute();
    if (channels.length) {
      await this.db
        .updateTable('channels')
        .set({ online: online ? 1 : 0, status_reason: online ? '' : WITH_DEVICE, status_reason_vars: '', checked_at: now.toISOString() })
        .where('id', 'in', channels.map((c) => c.id))
        .execute();
    }
    if (flipped) await this.news.add({ deviceId, channelId: deviceId, channelName: flipped.device_name, online, time: now });
    for (const c of channels) await this.news.add({ deviceId, channelId: c.channel_id, channelName: c.name, online, time: now });
    return changed;
  }

  /** GB devices the database says are registered (restored into memory at start). */
  listRegistered(now: Date) {
    return this.db
      .selectFrom('devices')
      .select(['device_id', 'contact', 'sip_transport', 'sip_remote_ip', 'sip_remote_port', 'registered_at', 'register_expires_at', 'keepalive_at'])
      .where('device_type', '=', GB_DEVICE_TYPE)
      .where('register_expires_at', '>', now.toISOString())
      .execute();
  }

  /** GB devices flagged online that are not registered any more (the server was down when they expired). */
  listStaleOnline(registered: string[]) {
    let q = this.db.selectFrom('devices').select('device_id').where('device_type', '=', GB_DEVICE_TYPE).where('online', '=', 1);
    if (registered.length) q = q.where('device_id', 'not in', registered);
    return q.execute();
  }
}
