/** What the request handlers (register, messages) need from the GB service. */
import type { DigestServer } from '@opencvr/sip';
import type { SectionValue } from '../services/config/sections.js';
import type { GbDeviceStore } from './device-store.js';
import type { Peer } from './peer.js';
import type { DeviceRegistry } from './registry.js';

export interface GbLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export type GbConfig = SectionValue<'gb'>;

export interface GbCore {
  log: GbLog;
  store: GbDeviceStore;
  registry: DeviceRegistry;
  gbConfig(): Promise<GbConfig>;
  admits(deviceId: string, ip: string): Promise<'ok' | 'black' | 'not-white'>;
  digest(realm: string): DigestServer;
  toTag(): string;
  registered(r: { deviceId: string; peer: Peer; contact: string; expires: number }): Promise<void>;
  unregister(deviceId: string, reason: string): Promise<void>;
  keepalive(deviceId: string, peer: Peer): Promise<void>;
}
