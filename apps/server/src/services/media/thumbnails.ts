/**
 * Channel thumbnails for the video square's cards (issue 4): the server keeps each channel's latest
 * picture on disk and the cards read it with a call that never opens a stream.
 *
 * Pictures come only from streams that run anyway (a viewer, the recorder, an always-on channel):
 * the keyframe the hub already caches is decoded, scaled to a card's size, one decode at a time at
 * low CPU priority with a pause between two, and only for channels somebody looks at: a card that
 * asked for its picture within `interestMs` (a 404 too) gets one made from its running stream, again
 * after `refreshMs`. A decode costs ~0.11 CPU-s here (a 1080p keyframe to 480 px, mostly ffmpeg's
 * start): made for every running stream every 5 minutes, as first built, it was one every 2 s at 256
 * recorded streams, ~5 % of a core for pictures nobody saw; with nobody on the square it is nothing.
 * A page of 20 cards costs 20 file reads, and at most one small decode per `gapMs` for its stale or
 * missing pictures. A channelsnap call (someone asked for a picture) puts its stream first in line.
 *
 * A channel with no stream running (an on-demand camera nobody watches) has no keyframe to decode;
 * if it has a SnapUrl (the camera's own snapshot address), its card's picture is the camera's JPEG
 * instead, fetched and scaled when nothing running is due, with the same refresh and interest rules:
 * one HTTP request and one small decode, no camera stream opened.
 */
import { DEFAULT_HTTP_SNAPSHOT_OPTIONS, fetchSnapshot, snapshotTarget, type SnapshotSource } from '../../access/http-snapshot.js';
import { decodeJpeg, runProcess, scaleJpeg, type Runner } from '../../media/snapshot.js';
import type { StreamHub } from '../../media/hub.js';
import { parseStreamKey } from './streams.js';
import { ThumbnailStore } from './thumbnail-store.js';

export interface ThumbnailOptions {
  /**
   * A running stream's thumbnail is made again after this long while its card is looked at (also
   * the wait after a failed try).
   */
  refreshMs: number;
  /** A card that asked for its thumbnail within this long is looked at; no other is made. */
  interestMs: number;
  /** A channelsnap call refreshes the thumbnail unless it is younger than this. */
  snapMinAgeMs: number;
  /** Pause after each decode, and between two looks for work. */
  gapMs: number;
  /** Thumbnails are scaled down to this width (a card is ~200-300 CSS px, twice that on HiDPI screens). */
  width: number;
  /** ffmpeg's scheduling priority: the decodes yield to the streams. */
  niceness: number;
  ffmpeg: string;
  ffmpegTimeoutMs: number;
  run: Runner;
}

export const DEFAULT_THUMBNAIL_OPTIONS: ThumbnailOptions = {
  refreshMs: 5 * 60_000,
  interestMs: 10 * 60_000,
  snapMinAgeMs: 30_000,
  gapMs: 500,
  width: 480,
  niceness: 10,
  ffmpeg: 'ffmpeg',
  ffmpegTimeoutMs: 5000,
  run: runProcess,
};

export interface ThumbnailDeps {
  dataDir: string;
  /** The node's hubs (StreamService.hubs.list). */
  hubs: () => StreamHub[];
  /** The ids of the channels that exist, to drop the thumbnails of deleted ones at start. */
  channelIds: () => Promise<number[]>;
  log?: { warn(obj: object, msg: string): void };
}

export class ChannelThumbnails {
  readonly store: ThumbnailStore;
  /** Tests shorten the times. */
  readonly opts: ThumbnailOptions;
  readonly stats = { made: 0, failed: 0 };
  /** Streams asked for by channelsnap, served before the rest. */
  private urgent = new Set<StreamHub>();
  /**
   * When a channel may be tried again after a try that made nothing: after refreshMs when the decode
   * failed, after a few pauses when the stream had no keyframe yet (it has only just come up). Else
   * one stream that never gives a picture, always the stalest, would hold up all the others.
   */
  private retryAt = new Map<number, number>();
  /** When each channel's card last asked for its thumbnail (channelthumb). */
  private askedAt = new Map<number, number>();
  /** The snapshot addresses of the channels asked for that have one (SnapUrl). */
  private snapshotOf = new Map<number, SnapshotSource>();
  private timer?: NodeJS.Timeout;
  /** When the armed timer fires (Date.now() clock); undefined: none armed, nothing is due. */
  private timerAt?: number;
  private running = false;
  private current?: Promise<void>;

  constructor(
    private readonly deps: ThumbnailDeps,
    opts: Partial<ThumbnailOptions> = {},
  ) {
    this.opts = { ...DEFAULT_THUMBNAIL_OPTIONS, ...opts };
    this.store = new ThumbnailStore(`${deps.dataDir}/thumbnails`);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const ids = new Set(await this.deps.channelIds());
      await this.store.load((pk) => ids.has(pk));
    } catch (err) {
      this.deps.log?.warn({ err }, 'thumbnails: could not read the folder');
    }
    if (this.running) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
    this.urgent.clear();
    await this.current;
  }

  /**
   * A card asked for the channel's thumbnail (channelthumb): it is kept fresh for a while, from its
   * running stream, else from `snapshot` (the channel's SnapUrl, when it is an http(s) address).
   */
  asked(channelPk: number, snapshot?: SnapshotSource) {
    this.askedAt.set(channelPk, Date.now());
    if (snapshot && snapshotTarget(snapshot)) this.snapshotOf.set(channelPk, snapshot);
    else this.snapshotOf.delete(channelPk);
    this.wake();
  }

  private lookedAt(channelPk: number, now: number): boolean {
    return now - (this.askedAt.get(channelPk) ?? -Infinity) < this.opts.interestMs;
  }

  /** channelsnap was called for this stream: its thumbnail is made next, unless it is fresh already. */
  snapped(hub: StreamHub) {
    const pk = parseStreamKey(hub.key)?.channelPk;
    if (pk === undefined || Date.now() - this.store.writtenAt(pk) < this.opts.snapMinAgeMs) return;
    this.urgent.add(hub);
    this.wake();
  }

  /**
   * Something may be due sooner than the armed look (or none is armed): look within gapMs, as the
   * scheduler did when it looked every gapMs. A step in progress arms the next look itself.
   */
  private wake() {
    if (!this.running || this.current) return;
    if (this.timerAt === undefined || this.timerAt > Date.now() + this.opts.gapMs) this.schedule(this.opts.gapMs);
  }

  /** The next look in `ms`, or none (undefined: nothing is due until a card asks or channelsnap is called). */
  private schedule(ms: number | undefined) {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
    if (!this.running || ms === undefined) return;
    this.timerAt = Date.now() + ms;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = undefined;
      this.current = this.step().finally(() => (this.current = undefined));
    }, ms);
    this.timer.unref?.();
  }

  /** One decode when a stream is due (else a camera snapshot that is), then a pause; with nothing done, a sleep until the next due. */
  private async step() {
    const hub = this.next();
    let worked = false;
    if (hub) worked = await this.make(hub);
    else {
      const pk = this.nextSnapshot();
      if (pk !== undefined) {
        await this.makeFromCamera(pk, this.snapshotOf.get(pk)!);
        worked = true;
      }
    }
    this.schedule(worked || this.urgent.size ? this.opts.gapMs : this.nextDue());
  }

  /**
   * After a look that found nothing to do, when the next may be due (ms from now, at least gapMs), or
   * undefined when nothing can be until a card asks (asked) or channelsnap is called (snapped): the
   * scheduler sleeps instead of looking every gapMs (issue 4: an idle server's wake-ups). A looked-at
   * channel with a live stream is due when its thumbnail gets older than refreshMs (and its retry
   * time has come), one with a snapshot address likewise; a looked-at channel with neither may get a
   * stream at any moment (a viewer opens it) with nothing to tell this service, so it is looked at
   * every gapMs as before. Cards nobody asked for within interestMs are forgotten here.
   */
  private nextDue(): number | undefined {
    if (!this.askedAt.size) return undefined;
    const now = Date.now();
    const live = this.liveChannels({ variants: false });
    let due = Infinity;
    for (const [pk, at] of this.askedAt) {
      if (now - at >= this.opts.interestMs) {
        this.askedAt.delete(pk);
        continue;
      }
      if (!live.has(pk) && !this.snapshotOf.has(pk)) return this.opts.gapMs;
      due = Math.min(due, Math.max(this.store.writtenAt(pk) + this.opts.refreshMs, this.retryAt.get(pk) ?? 0));
    }
    return due === Infinity ? undefined : Math.max(this.opts.gapMs, due - now);
  }

  /** Channels whose stream is live (with `variants`, also where only an H.264 leg of it is). */
  private liveChannels({ variants }: { variants: boolean }): Set<number> {
    const live = new Set<number>();
    for (const hub of this.deps.hubs()) {
      const key = parseStreamKey(hub.key);
      if (key && (variants || !key.variant) && hub.state === 'live') live.add(key.channelPk);
    }
    return live;
  }

  /** A looked-at channel with a snapshot address, no live stream and a stale (or no) thumbnail. */
  private nextSnapshot(): number | undefined {
    if (!this.snapshotOf.size) return undefined;
    const now = Date.now();
    const live = this.liveChannels({ variants: true });
    for (const pk of this.snapshotOf.keys()) {
      if (!this.lookedAt(pk, now)) {
        this.snapshotOf.delete(pk);
        continue;
      }
      if (live.has(pk) || now - this.store.writtenAt(pk) < this.opts.refreshMs || now < (this.retryAt.get(pk) ?? 0)) continue;
      return pk;
    }
    return undefined;
  }

  private async makeFromCamera(pk: number, source: SnapshotSource) {
    try {
      const { run, ffmpeg, ffmpegTimeoutMs: timeoutMs, width, niceness } = this.opts;
      const camera = await fetchSnapshot(source, { ...DEFAULT_HTTP_SNAPSHOT_OPTIONS, timeoutMs });
      await this.store.write(pk, await scaleJpeg(camera, { run, ffmpeg, timeoutMs, width, niceness, quality: 5 }));
      this.retryAt.delete(pk);
      this.stats.made++;
    } catch (err) {
      this.retryAt.set(pk, Date.now() + this.opts.refreshMs);
      this.stats.failed++;
      this.deps.log?.warn({ err, channel: pk }, 'thumbnail from the camera snapshot failed');
    }
  }

  /**
   * The stream to make a thumbnail of: one asked for by channelsnap, else of the live ones whose card
   * was looked at lately the one whose thumbnail is oldest (missing: first).
   */
  private next(): StreamHub | undefined {
    for (const hub of this.urgent) {
      this.urgent.delete(hub);
      if (hub.state === 'live') return hub;
    }
    const now = Date.now();
    let best: StreamHub | undefined;
    let bestAge = -1;
    for (const hub of this.deps.hubs()) {
      const key = parseStreamKey(hub.key);
      // A transcoded variant shows the same picture as its original.
      if (!key || key.variant || hub.state !== 'live') continue;
      if (!this.lookedAt(key.channelPk, now)) continue;
      const age = now - this.store.writtenAt(key.channelPk);
      if (age < this.opts.refreshMs || now < (this.retryAt.get(key.channelPk) ?? 0)) continue;
      // Of the two flows of one channel the sub stream is the cheaper decode.
      if (age > bestAge || (age === bestAge && key.flow === 1)) {
        best = hub;
        bestAge = age;
      }
    }
    return best;
  }

  /** Whether a decode was tried (a stream with no keyframe yet is tried again after a few pauses). */
  private async make(hub: StreamHub): Promise<boolean> {
    const pk = parseStreamKey(hub.key)!.channelPk;
    const frame = hub.cachedKeyframe();
    if (!frame) {
      this.retryAt.set(pk, Date.now() + 5 * this.opts.gapMs);
      return false;
    }
    try {
      const { run, ffmpeg, ffmpegTimeoutMs: timeoutMs, width, niceness } = this.opts;
      const jpeg = await decodeJpeg(frame, { run, ffmpeg, timeoutMs, width, niceness, quality: 5 });
      await this.store.write(pk, jpeg);
      this.retryAt.delete(pk);
      this.stats.made++;
    } catch (err) {
      this.retryAt.set(pk, Date.now() + this.opts.refreshMs);
      this.stats.failed++;
      this.deps.log?.warn({ err, stream: hub.key }, 'thumbnail failed');
    }
    return true;
  }
}
