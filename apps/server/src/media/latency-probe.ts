/**
 * Opt-in latency probe for the live benchmark: the time from an access unit reaching the hub (in the
 * same tick as the RTP packet that completed it: the depacketisers end a unit on the marker bit) to
 * the output handing the bytes that carry it to the socket (ws.send for WS-fMP4; the SRTP send of
 * the unit's last packet for WebRTC).
 *
 * Off unless MEDIA_LATENCY_PROBE names a file (a debug switch read here, not product configuration):
 * `latencyProbe` is then undefined and every hook is one optional call on undefined. On, arrival
 * times are kept in a WeakMap keyed by the unit object the hub fans out (no change to the unit), and
 * one histogram per output (0.1 ms buckets up to 2 s) is written to the file every second as JSON
 * {outputs: {NAME: {count, over, buckets: {index: count}}}}; a reader diffs two snapshots.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { AccessUnit } from '@opencvr/codec';

const BUCKET_MS = 0.1;
const BUCKETS = 20_000;

export interface LatencySnapshot {
  outputs: Record<string, { count: number; over: number; buckets: Record<string, number> }>;
}

/** Per output track, the arrival times of units pushed into a fragmenter and not yet sent. */
export interface Fmp4LatencyTracker {
  /** After the unit went into the fragmenter (and the fragments it completed were handled). */
  pushed(track: number, unit: AccessUnit): void;
  /**
   * A fragment went out. `pushedTrack` is the track of the unit whose push completed it: that unit
   * is not in the fragment yet, and every other track holds back its last unit (see Fragmenter).
   */
  sent(fragmentTracks: readonly { trackId: number; sampleCount: number }[], pushedTrack: number): void;
}

export class LatencyProbe {
  private readonly arrivals = new WeakMap<AccessUnit, number>();
  private readonly histograms = new Map<string, { counts: Uint32Array; count: number; over: number }>();

  constructor(private readonly file?: string) {
    if (!file) return;
    const timer = setInterval(() => this.write(), 1000);
    timer.unref();
  }

  /** The hub got this unit at `at` (performance.now(); default now). */
  arrived(unit: AccessUnit, at = performance.now()): void {
    this.arrivals.set(unit, at);
  }

  arrivalOf(unit: AccessUnit): number | undefined {
    return this.arrivals.get(unit);
  }

  /** Bytes carrying a unit that arrived at `arrival` left through `output` now. */
  record(output: string, arrival: number | undefined): void {
    if (arrival === undefined) return;
    let h = this.histograms.get(output);
    if (!h) this.histograms.set(output, (h = { counts: new Uint32Array(BUCKETS), count: 0, over: 0 }));
    const i = Math.floor((performance.now() - arrival) / BUCKET_MS);
    h.count++;
    if (i >= BUCKETS) h.over++;
    else h.counts[Math.max(0, i)]++;
  }

  fmp4(output: string): Fmp4LatencyTracker {
    const pending = new Map<number, number[]>();
    return {
      pushed: (track, unit) => {
        const t = this.arrivals.get(unit);
        if (t === undefined) return;
        let q = pending.get(track);
        if (!q) pending.set(track, (q = []));
        q.push(t);
      },
      sent: (tracks, pushedTrack) => {
        for (const info of tracks) {
          const track = info.trackId - 1;
          const q = pending.get(track);
          if (!q?.length) continue;
          const hold = track === pushedTrack ? 0 : 1;
          const end = Math.max(0, q.length - hold);
          // Older entries than the fragment's samples were dropped by the fragmenter or the output.
          for (const t of q.slice(Math.max(0, end - info.sampleCount), end)) this.record(output, t);
          pending.set(track, q.slice(end));
        }
      },
    };
  }

  snapshot(): LatencySnapshot {
    const outputs: LatencySnapshot['outputs'] = {};
    for (const [name, h] of this.histograms) {
      const buckets: Record<string, number> = {};
      h.counts.forEach((c, i) => {
        if (c) buckets[i] = c;
      });
      outputs[name] = { count: h.count, over: h.over, buckets };
    }
    return { outputs };
  }

  private write() {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify(this.snapshot()));
      fs.renameSync(tmp, this.file);
    } catch {
      /* a debug aid: never disturb the server */
    }
  }
}

/** The probe when MEDIA_LATENCY_PROBE names a file; undefined (every hook a no-op) otherwise. */
export const latencyProbe: LatencyProbe | undefined = process.env.MEDIA_LATENCY_PROBE
  ? new LatencyProbe(process.env.MEDIA_LATENCY_PROBE)
  : undefined;

/** Bucket width of the snapshot's histograms, in ms. */
export const LATENCY_BUCKET_MS = BUCKET_MS;
