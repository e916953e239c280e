/**
 * The two liveness rules, kept apart: a registration runs out at its Expires (the device is then
 * unregistered), and a registered device that misses KeepaliveCount keepalives in a row
 * (KeepaliveTimeout each) is offline until its next keepalive or REGISTER. One sweep a second
 * (or faster for short timeouts) over the in-memory sessions; no query unless something changes.
 * With no device registered there is nothing to sweep: no timer is armed until one registers
 * (DeviceRegistry.onSet), so a server without GB devices is not woken every second (issue 4).
 */
import type { DeviceRegistry } from './registry.js';

export interface KeepaliveRules {
  timeoutSeconds: number;
  count: number;
}

export interface KeepaliveMonitorDeps {
  registry: DeviceRegistry;
  rules(): Promise<KeepaliveRules>;
  onExpired(deviceId: string): void;
  onKeepaliveLost(deviceId: string, silentSeconds: number): void;
  now?: () => number;
  log: { warn(obj: object, msg: string): void };
}

export class KeepaliveMonitor {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private sweeping: Promise<void> | undefined;

  constructor(private readonly deps: KeepaliveMonitorDeps) {}

  start() {
    if (this.running) return;
    this.running = true;
    this.deps.registry.onSet = () => this.wake();
    this.schedule(0);
  }

  async stop() {
    this.running = false;
    this.deps.registry.onSet = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /** The last delay between two sweeps (by the rules): a registration wakes a sleeping monitor with it. */
  private every = 1000;

  /** A device registered: sweeps start again unless they run (or one is under way). */
  private wake() {
    if (this.running && !this.timer && !this.sweeping) this.schedule(this.every);
  }

  private schedule(ms: number) {
    this.timer = undefined;
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sweeping = this.sweep()
        .catch((err) => {
          this.deps.log.warn({ err }, 'gb: keepalive sweep failed');
          return undefined;
        })
        .then((next) => {
          this.sweeping = undefined;
          if (next !== undefined) this.every = next;
          // Nobody registered: sleep until somebody does (wake).
          if (this.deps.registry.size) this.schedule(next ?? 1000);
        });
    }, ms);
    this.timer.unref();
  }

  /** One pass; returns the delay to the next. */
  async sweep(): Promise<number> {
    const rules = await this.deps.rules();
    const now = (this.deps.now ?? Date.now)();
    const limit = rules.timeoutSeconds * rules.count * 1000;
    for (const s of [...this.deps.registry.all()]) {
      if (s.expiresAt <= now) this.deps.onExpired(s.deviceId);
      else if (s.online && now - s.keepaliveAt > limit) this.deps.onKeepaliveLost(s.deviceId, Math.round((now - s.keepaliveAt) / 1000));
    }
    return Math.max(100, Math.min(1000, (rules.timeoutSeconds * 1000) / 10));
  }
}
