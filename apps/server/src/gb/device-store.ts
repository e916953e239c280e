/**
 * The GB device rows: created on a first registration, updated with where the device is and when
 * it was heard of, and its online flag (with its channels') changed together with the message log.
 */
import type { Kysely } from 'kysely';
import type { Database, Device } from '../db/schema.js';
import type { NewsService } from '../services/news/news.js';
import type { Peer } from './peer.js';

export const GB_DEVICE_TYPE = 'GB28181';
/** status_reason of channels put offline with their device: they come back with it. */
export const WITH_DEVICE = 'device offline';

export interface Registration {
  deviceId: string;
  peer: Peer;
  contact: string;
  localIp: string;
  expires: number;
  registeredAt: Date;
  expiresAt: Date;
}

export class GbDeviceStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly news: NewsService,
  ) {}

  get(deviceId: string): Promise<Device | undefined> {
    return this.db.selectFrom('devices').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
  }

  /** Creates the row of a device registering for the first time (named after its ID until its DeviceInfo arrives). */
  async create(deviceId: string, transport: string): Promise<Device> {
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
    return (await this.get(deviceId))!;
  }

  /** Records a successful registration and marks the device online (with the channels that went down with it). */
  async registered(r: Registration): Promise<void> {
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

  async keepalive(deviceId: string, at: Date) {
    await this.db
      .updateTable('devices')
      .set({ keepalive_at: at.toISOString(), last_seen_at: at.toISOString() })
      .where('device_id', '=', deviceId)
      .execute();
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
    const d = await this.get(deviceId);
    if (!d) return false;
    const changed = d.online !== (online ? 1 : 0);
    const now = new Date();
    await this.db
      .updateTable('devices')
      .set({ online: online ? 1 : 0, status_reason: online ? '' : reason, ...(online ? { last_seen_at: now.toISOString() } : {}) })
      .where('device_id', '=', deviceId)
      .execute();
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
        .set({ online: online ? 1 : 0, status_reason: online ? '' : WITH_DEVICE, checked_at: now.toISOString() })
        .where('id', 'in', channels.map((c) => c.id))
        .execute();
    }
    if (changed) await this.news.add({ deviceId, channelId: deviceId, channelName: d.device_name, online, time: now });
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
