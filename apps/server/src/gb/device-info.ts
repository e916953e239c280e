/**
 * DeviceInfo and DeviceStatus queries (GB/T 28181-2016 A.2.4.4/A.2.4.5): what a GB device says it
 * is (manufacturer, model, firmware, channel count) goes into its row; its working state (online,
 * encoding, recording, alarm inputs, clock) is kept in memory for the device information dialog.
 * Asked after a first registration and on demand (deviceinfo?refresh=1).
 */
import {
  encodeDeviceInfoQuery,
  encodeDeviceStatusQuery,
  type DeviceInfoResponse,
  type DeviceStatusResponse,
} from '@opencvr/manscdp';
import type { GbDeviceDetails } from '@opencvr/shared';
import type { Kysely } from 'kysely';
import type { Database, Device } from '../db/schema.js';
import type { GbLog } from './core.js';
import type { GbApi, ManscdpClient } from './manscdp-client.js';

export interface DeviceInfoDeps {
  gb: GbApi;
  client: ManscdpClient;
  db: Kysely<Database>;
  log: GbLog;
}

export type DeviceStatusSnapshot = NonNullable<GbDeviceDetails['Status']>;

export class GbDeviceInfo {
  private readonly statuses = new Map<string, DeviceStatusSnapshot>();
  private unhook: (() => void) | undefined;

  constructor(private readonly deps: DeviceInfoDeps) {}

  start() {
    this.unhook = this.deps.gb.onRegistered((s, { first }) => {
      if (!first) return;
      void this.refresh(s.deviceId).catch((err: Error) => this.deps.log.info({ device: s.deviceId, err: err.message }, 'gb: device info after registration failed'));
    });
  }

  stop() {
    this.unhook?.();
    this.unhook = undefined;
  }

  private async timeoutMs() {
    return (await this.deps.gb.gbConfig()).AckTimeout * 1000;
  }

  /** Asks DeviceInfo and stores it; resolves with the answer. */
  async queryInfo(deviceId: string): Promise<DeviceInfoResponse> {
    const m = await this.deps.client.ask(deviceId, 'DeviceInfo', (sn, encoding) => encodeDeviceInfoQuery({ sn, deviceId }, { encoding }), await this.timeoutMs());
    if (m.kind !== 'device-info') throw new Error(`unexpected ${m.kind} answer to DeviceInfo`);
    const set: { manufacturer?: string; model?: string; firmware?: string; channel_count?: number; updated_at?: string } = {};
    if (m.manufacturer) set.manufacturer = m.manufacturer.slice(0, 64);
    if (m.model) set.model = m.model.slice(0, 64);
    if (m.firmware) set.firmware = m.firmware.slice(0, 64);
    if (m.channel !== undefined && m.channel >= 0 && m.channel < 1_000_000) set.channel_count = m.channel;
    if (Object.keys(set).length) {
      set.updated_at = new Date().toISOString();
      await this.deps.db.updateTable('devices').set(set).where('device_id', '=', deviceId).execute();
    }
    // A device still named after its ID (created on registration) takes the name it gives itself.
    if (m.deviceName?.trim()) {
      await this.deps.db
        .updateTable('devices')
        .set({ device_name: m.deviceName.trim().slice(0, 128) })
        .where('device_id', '=', deviceId)
        .where('device_name', '=', deviceId)
        .execute();
    }
    return m;
  }

  /** Asks DeviceStatus and keeps the answer for the information dialog. */
  async queryStatus(deviceId: string): Promise<DeviceStatusSnapshot> {
    const m = await this.deps.client.ask(deviceId, 'DeviceStatus', (sn, encoding) => encodeDeviceStatusQuery({ sn, deviceId }, { encoding }), await this.timeoutMs());
    if (m.kind !== 'device-status') throw new Error(`unexpected ${m.kind} answer to DeviceStatus`);
    const snap = statusSnapshot(m);
    this.statuses.set(deviceId, snap);
    return snap;
  }

  /** Both queries one after the other (devices answer one at a time more reliably). Errors of the second are logged only. */
  async refresh(deviceId: string): Promise<void> {
    await this.queryInfo(deviceId);
    await this.queryStatus(deviceId).catch((err: Error) => this.deps.log.info({ device: deviceId, err: err.message }, 'gb: DeviceStatus query failed'));
  }

  lastStatus(deviceId: string): DeviceStatusSnapshot | undefined {
    return this.statuses.get(deviceId);
  }

  forget(deviceId: string) {
    this.statuses.delete(deviceId);
  }
}

function statusSnapshot(m: DeviceStatusResponse): DeviceStatusSnapshot {
  return {
    Online: m.online,
    Result: m.status,
    Encode: m.encode,
    Record: m.record,
    DeviceTime: m.deviceTime,
    Reason: m.reason,
    Alarms: m.alarmStatus.map((a) => ({ DeviceID: a.deviceId, DutyStatus: a.dutyStatus ?? '' })),
    At: new Date().toISOString(),
  };
}

/** The GB fields of a device row for the information dialog. */
export function gbDetails(d: Device, registered: boolean): GbDeviceDetails {
  return {
    Manufacturer: d.manufacturer,
    Model: d.model,
    Firmware: d.firmware,
    ChannelCount: d.channel_count,
    Registered: registered,
    SipTransport: d.sip_transport,
    RemoteAddress: d.sip_remote_ip ? `${d.sip_remote_ip}:${d.sip_remote_port}` : '',
    RegisteredAt: d.registered_at,
    RegisterExpiresAt: d.register_expires_at,
    KeepaliveAt: d.keepalive_at,
    CatalogAt: d.catalog_at,
    StatusReason: d.status_reason,
  };
}
