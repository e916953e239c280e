/**
 * The two liveness rules, kept apart: a registration runs out at its Expires (the device is then
 * unregistered), and a registered device that misses KeepaliveCount keepalives in a row
 * (KeepaliveTimeout each) is offline until its next keepalive or REGISTER. One sweep a second
 * (or faster for short timeouts) over the in-memory sessions; no query unless something changes.
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
    this.schedule(0);
  }

  async stop() {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  private schedule(ms: number) {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.sweeping = this.sweep()
        .catch((err) => this.deps.log.warn({ err }, 'gb: keepalive sweep failed'))
        .then((next) => this.schedule(next ?? 1000));
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
