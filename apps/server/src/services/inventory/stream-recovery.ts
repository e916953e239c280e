/**
 * How the stream checker notices a camera that answers again within seconds, without hammering it.
 * The checker's round probes each channel once per interval, so on its own a returned camera server
 * came back channel by channel over a whole round (1,500 channels on one server: over 75 s, the round
 * overrunning its 30 s). This keeps, per endpoint (host:port of the stream URL: one camera, one NVR
 * or camera server), whether it is down (its last probe got no RTSP answer at all: refused, timed
 * out, reset) and which of its channels were last seen offline, and:
 * - retries a down endpoint through one of its offline channels at a time (the one probed longest
 *   ago), after a back-off that starts at `retryMs` and doubles up to `retryMaxMs`: one connection
 *   per endpoint every few seconds, not one per channel;
 * - once a down endpoint answers anything (even a 404 for one channel: the server is back), hands
 *   back its offline channels to probe at once (the checker runs them in their own bounded lane).
 *   A channel that fails with an answer (404, 401) leaves its endpoint up: it waits for its round
 *   turn, so one broken channel on a working server is not probed again and again.
 * Pure bookkeeping with the time passed in: no timers, no I/O.
 */

/** Each scheme's port when the address names none (the WHATWG URL parser leaves out http's 80 and https' 443 even when written). */
const DEFAULT_PORTS: Record<string, string> = { 'rtsp:': '554', 'rtsps:': '322', 'rtmp:': '1935', 'rtmps:': '443', 'http:': '80', 'https:': '443' };

/**
 * host:port of a stream URL (the scheme's default port when it names none); the URL itself when
 * unparsable. By port, so a camera's RTSP and its HTTP-FLV, or an NVR's RTMP, are endpoints of their own.
 */
export function endpointOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname.toLowerCase()}:${u.port || DEFAULT_PORTS[u.protocol] || '554'}`;
  } catch {
    return url;
  }
}

interface Retry {
  /** When the endpoint is probed again. */
  due: number;
  /** The wait after the next failed retry. */
  delayMs: number;
  /** The channel being probed for this retry, until its answer. */
  pending?: number;
}

export class StreamRecovery {
  private endpoint = new Map<number, string>();
  private members = new Map<string, number[]>();
  /** Channels whose last probe failed. */
  private offline = new Set<number>();
  /** Endpoints whose last probe got no answer; each has a retry. */
  private down = new Set<string>();
  private lastProbe = new Map<number, number>();
  private retries = new Map<string, Retry>();

  constructor(
    private readonly retryMs: number,
    private readonly retryMaxMs: number,
  ) {}

  /** The current channel list; channels that left are forgotten. */
  setTargets(targets: Iterable<{ pk: number; url: string }>) {
    this.endpoint = new Map();
    this.members = new Map();
    for (const t of targets) {
      const ep = endpointOf(t.url);
      this.endpoint.set(t.pk, ep);
      const list = this.members.get(ep);
      if (list) list.push(t.pk);
      else this.members.set(ep, [t.pk]);
    }
    for (const pk of this.offline) if (!this.endpoint.has(pk)) this.offline.delete(pk);
    for (const pk of this.lastProbe.keys()) if (!this.endpoint.has(pk)) this.lastProbe.delete(pk);
    for (const [ep, r] of this.retries) {
      if (!this.members.get(ep)?.some((pk) => this.offline.has(pk))) this.endpointUp(ep);
      else if (r.pending !== undefined && !this.endpoint.has(r.pending)) r.pending = undefined;
    }
  }

  endpointOf(pk: number): string | undefined {
    return this.endpoint.get(pk);
  }

  isOffline(pk: number): boolean {
    return this.offline.has(pk);
  }

  /**
   * A probe's outcome: `ok`, and `answered` when the endpoint said anything at all (undefined: no
   * outcome, e.g. the channel was edited meanwhile). Returns the channels to probe at once: the
   * endpoint's other offline ones, when it answers after being down.
   */
  record(pk: number, outcome: { ok: boolean; answered: boolean } | undefined, now: number): number[] {
    const ep = this.endpoint.get(pk);
    if (ep === undefined) return [];
    const retry = this.retries.get(ep);
    if (retry?.pending === pk) {
      retry.pending = undefined;
      retry.due = now + retry.delayMs;
      retry.delayMs = Math.min(retry.delayMs * 2, this.retryMaxMs);
    }
    if (!outcome) return [];
    this.lastProbe.set(pk, now);
    if (outcome.ok) this.offline.delete(pk);
    else this.offline.add(pk);
    if (!outcome.answered) {
      if (!this.down.has(ep)) {
        this.down.add(ep);
        this.retries.set(ep, { due: now + this.retryMs, delayMs: Math.min(this.retryMs * 2, this.retryMaxMs) });
      }
      return [];
    }
    if (!this.down.has(ep)) return [];
    this.endpointUp(ep);
    return (this.members.get(ep) ?? []).filter((m) => this.offline.has(m));
  }

  private endpointUp(ep: string) {
    this.down.delete(ep);
    this.retries.delete(ep);
  }

  /**
   * The next endpoint retry that is due: the channel to probe (marked pending until record()), or
   * when the next one will be due (undefined when none waits). `busy` channels are being probed already.
   */
  nextRetry(now: number, busy: (pk: number) => boolean): { pk: number } | { wakeAt: number } | undefined {
    let wakeAt: number | undefined;
    for (const [ep, r] of this.retries) {
      if (r.pending !== undefined) continue;
      if (r.due > now) {
        wakeAt = wakeAt === undefined ? r.due : Math.min(wakeAt, r.due);
        continue;
      }
      let pick: number | undefined;
      let pickAt = Infinity;
      let anyOffline = false;
      for (const m of this.members.get(ep) ?? []) {
        if (!this.offline.has(m)) continue;
        anyOffline = true;
        const at = this.lastProbe.get(m) ?? 0;
        if (!busy(m) && at < pickAt) {
          pick = m;
          pickAt = at;
        }
      }
      if (!anyOffline) {
        this.endpointUp(ep);
        continue;
      }
      // Every offline channel is being probed already: that answer serves as this retry.
      if (pick === undefined) continue;
      r.pending = pick;
      return { pk: pick };
    }
    return wakeAt === undefined ? undefined : { wakeAt };
  }
}
