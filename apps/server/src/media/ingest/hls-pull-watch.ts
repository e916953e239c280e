/**
 * The pull source's eye on a live HLS playlist (ffmpeg-pull-source.ts), judged as the stream checker
 * judges it (access/hls-liveness.ts, one memory for both):
 * - before a run: a playlist that is not moving is stale and no ffmpeg runs. ffmpeg starts a live
 *   playlist 3 segments from its end, so a brand-new start on a stopped source showed its last
 *   segments as live before it stalled. Where nothing tells yet (a first look without
 *   EXT-X-PROGRAM-DATE-TIME), the start waits for the next segment, 1.5 target durations at most;
 *   a playlist unchanged since the last run ended is stale too, one that advanced plays from its first
 *   new segment (hls-played.ts);
 * - while a run plays: the playlist is read every half target duration (RFC 8216 6.3.4's reload for
 *   an unchanged one), and 1.5 target durations without a new segment ends the run as stale. The 15 s
 *   no-media watchdog found that later, and said only that media stopped.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Reason } from '@opencvr/shared';
import { MAX_WATCH_MS, playlistAddress, readMediaPlaylist, staleMiss } from '../../access/http-stream-probe.js';
import type { HlsPlaylist } from '../../access/hls-playlist.js';
import { DEFAULT_TARGET_DURATION_S, forgetPlaylist, lookAtPlaylist, type HlsLiveness } from '../../access/hls-liveness.js';
import { hlsResume, hlsRunEnded } from './hls-played.js';
import type { PullUrl } from './pull-url.js';

export type HlsStart =
  | { kind: 'stale'; words: string; why: Reason }
  /** Run ffmpeg (from `liveStartIndex` when given), then watch() with the target duration read. */
  | { kind: 'play'; liveStartIndex?: number; targetS: number };

export class HlsPullWatch {
  /** Aborted by stop(): ends a wait for the playlist's next segment. */
  private readonly halt = new AbortController();
  private timer?: NodeJS.Timeout;
  private reading = false;
  private stopped = false;
  private readonly address: string;

  constructor(
    private readonly url: PullUrl,
    private readonly readTimeoutMs: number,
    /** The channel whose pin the address's https:// server holds (access/tls/https-trust.ts). */
    private readonly pinFor?: number,
  ) {
    this.address = playlistAddress(url.url);
  }

  /** Whether the next run may start, and where; undefined once stopped meanwhile. */
  async beforeRun(): Promise<HlsStart | undefined> {
    let list = await this.read();
    let liveness = this.judge(list);
    while (liveness?.kind === 'unknown' && liveness.decideAt - Date.now() <= MAX_WATCH_MS) {
      const waitMs = Math.max(0, Math.min(liveness.reloadMs, liveness.decideAt - Date.now()));
      if (!(await sleep(waitMs, true, { signal: this.halt.signal }).catch(() => false))) return undefined;
      list = (await this.read()) ?? list;
      liveness = this.judge(list);
    }
    if (this.stopped) return undefined;
    if (liveness?.kind === 'stale') {
      // Its newest segment counts as played: when the source is back, the run starts after it.
      hlsRunEnded(this.url.display, list);
      const miss = staleMiss(liveness.seconds);
      return { kind: 'stale', words: miss.reason, why: miss.why };
    }
    const resume = hlsResume(this.url.display, list);
    if (resume.kind === 'stale') {
      const miss = staleMiss(resume.seconds);
      return { kind: 'stale', words: miss.reason, why: miss.why };
    }
    const targetS = (list?.kind === 'media' && list.targetDuration) || DEFAULT_TARGET_DURATION_S;
    return { kind: 'play', targetS, ...(resume.kind === 'from' ? { liveStartIndex: resume.liveStartIndex } : {}) };
  }

  /** While the run plays: `onStale` once the playlist has not moved for 1.5 target durations. */
  watch(targetS: number, onStale: (words: string, why: Reason) => void) {
    this.timer = setInterval(() => void this.check(onStale), (targetS * 1000) / 2);
    this.timer.unref();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.timer);
    this.halt.abort();
  }

  private async check(onStale: (words: string, why: Reason) => void) {
    if (this.reading || this.stopped) return;
    this.reading = true;
    try {
      const liveness = this.judge(await this.read());
      if (liveness?.kind !== 'stale' || this.stopped) return;
      const miss = staleMiss(liveness.seconds);
      onStale(miss.reason, miss.why);
    } finally {
      this.reading = false;
    }
  }

  private read() {
    return readMediaPlaylist(this.url.url, this.readTimeoutMs, this.pinFor);
  }

  /** What a read says of the source (undefined: unreadable, a recording or no segment: ffmpeg decides). */
  private judge(list: HlsPlaylist | undefined): HlsLiveness | undefined {
    if (list?.kind !== 'media' || !list.segments) return undefined;
    if (list.ended) {
      forgetPlaylist(this.address);
      return undefined;
    }
    return lookAtPlaylist(this.address, list);
  }
}
