/**
 * Registered devices in memory: where each one is reachable and when it was last heard of. The
 * database holds the same facts for the console and for a restart; this map is what the SIP
 * server reads on every message, without a query.
 */
import type { Peer } from './peer.js';

export interface DeviceSession {
  deviceId: string;
  /** Where requests to the device go: the source of its REGISTER (NAT-safe), over its transport. */
  peer: Peer;
  /** Contact URI the device announced. */
  contact: string;
  registeredAt: number;
  /** Registration runs out at (ms); expiry is checked apart from keepalives. */
  expiresAt: number;
  /** Last Keepalive (or the registration, before the first one), ms. */
  keepaliveAt: number;
  online: boolean;
  /** Outgoing requests' CSeq for this device (one counter per device is enough for out-of-dialog requests). */
  cseq: number;
}

export class DeviceRegistry {
  private readonly sessions = new Map<string, DeviceSession>();
  /** Told after each set() (the keepalive monitor wakes from its sleep when the first device registers). */
  onSet?: () => void;

  get(deviceId: string) {
    return this.sessions.get(deviceId);
  }
  set(s: DeviceSession) {
    this.sessions.set(s.deviceId, s);
    this.onSet?.();
  }
  delete(deviceId: string) {
    return this.sessions.delete(deviceId);
  }
  all(): IterableIterator<DeviceSession> {
    return this.sessions.values();
  }
  get size() {
    return this.sessions.size;
  }
  onlineCount() {
    let n = 0;
    for (const s of this.sessions.values()) if (s.online) n++;
    return n;
  }
  clear() {
    this.sessions.clear();
  }
}
