/**
 * CDN push (the channel's EnableCdn with its CdnUrl, EasyCVR's "CDN 推流"): every enabled channel
 * with an rtmp:// or rtmps:// CdnUrl has its main stream published there by the server itself
 * (access/rtmp/publisher.ts: an RTMP client, no ffmpeg), copied, not transcoded. The push is one more
 * subscriber of the hub, so it holds an on-demand channel open as the recorder does. Each run: open
 * the hub, wait for its tracks, publish (with the login the server asks for), then feed an FlvOutput
 * whose tags go out as RTMP messages; it starts on the hub's cached keyframe with fresh headers, and
 * drops whole units to the next keyframe when the socket falls behind. A run that ends (refused,
 * closed, the server stopped reading) is started again after a back-off of 1 s doubling to 30 s
 * (back to 1 s after a run that published for 10 s), its reason kept and logged without the key.
 *
 * H.265 goes out as enhanced RTMP ('hvc1', what YouTube, Twitch, SRS 6 and ffmpeg 6.1+ take) unless
 * the server is configured with CDN_HEVC=h264: then as the channel's H.264 variant (transcoded once,
 * shared with the browsers that play it), for CDNs that take only H.264.
 *
 * The set of pushes follows the database: reconcile() after every channel change, and `tickMs` after
 * the last pass while a push runs or a pass failed (a hub that was stopped, e.g. by an edit of the
 * channel, is opened again). With no push nothing is armed (issue 4): a push can only begin with a
 * channel change, which reconciles.
 *
 * Each push keeps what the administrator sees of it (snapshot(): connecting, pushing since when with
 * bytes and bitrate, retrying or login refused with the catalogue's reason and the next try) and
 * tells `changed` when its state moves, for the events socket (cdn-status.ts renders both).
 */
import type { Kysely } from 'kysely';
import type { Channel, Database, Device } from '../../db/schema.js';
import type { Track } from '@opencvr/codec';
import type { Reason } from '@opencvr/shared';
import type { StreamHub, Subscriber } from '../../media/hub.js';
import { maskedPushUrl, maskPushUrl } from '../../media/ffmpeg/push-url-mask.js';
import { FlvOutput } from '../../media/outputs/flv.js';
import { openRtmpPublish, RtmpPublishError, type RtmpPublication } from '../../access/rtmp/publisher.js';
import type { HevcMode } from '@opencvr/flv';
import { CoalescedPass } from '../coalesced-pass.js';

/**
 * How an H.265 channel reaches the CDN: as it is, in enhanced RTMP ('hvc1') or in the legacy FLV
 * codec id 12 that many Chinese CDNs and older SRS/nginx-rtmp forks take ('codec-id-12'), or as its
 * H.264 variant.
 */
export type CdnHevc = 'hvc1' | 'codec-id-12' | 'h264';

/** What a push is doing now; 'stopped' (EnableCdn on, nothing pushed) is cdn-status.ts's. */
export type CdnRunState = 'connecting' | 'pushing' | 'retrying' | 'loginRefused';

/** One push as the administrator sees it. `url` is whole: cdn-status.ts masks it and the reason's vars. */
export interface CdnPushSnapshot {
  deviceId: string;
  channelId: string;
  url: string;
  state: CdnRunState;
  runs: number;
  transcoded: boolean;
  /** Pushing: when the CDN said Publish.Start (epoch ms), bytes it took, bits per second lately. */
  since?: number;
  bytesSent?: number;
  bitrate?: number;
  /** Retrying, loginRefused: when the next run starts (epoch ms). */
  nextTryAt?: number;
  /** Why the last run ended. */
  why?: Reason;
}

/** A push's state moved (null: the push was stopped). */
export type CdnPushChange = { deviceId: string; channelId: string; snapshot: CdnPushSnapshot | null };

export interface CdnDeps {
  db: Kysely<Database>;
  open(device: Device, channel: Channel): StreamHub | undefined;
  /** The transcoded H.264 variant of an open hub (made on first use). */
  h264Of?(hub: StreamHub): StreamHub | undefined;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
  /** Default 'hvc1'. */
  hevc?: CdnHevc;
  /** Back-off bounds (tests shorten them). */
  restartMinMs?: number;
  restartMaxMs?: number;
  /** For each step of the RTMP conversation. */
  timeoutMs?: number;
  /** A push started, stopped, or its state moved. */
  changed?(c: CdnPushChange): void;
}

/** Bitrate: bytes taken sampled each second, over the last few. */
const RATE_SAMPLE_MS = 1000;
const RATE_SAMPLES = 5;

const isHevc = (tracks: Track[]) => tracks.find((t) => t.kind === 'video')?.codec === 'h265';

/** The CDN addresses a push accepts: RTMP, over TLS or not. */
export const isCdnUrl = (url: string) => /^rtmps?:\/\/[^\s/]+\/\S+$/i.test(url);

/** A run that published this long was not a failing one: the back-off starts again from its minimum. */
const STABLE_MS = 10_000;
/**
 * Bytes queued on the socket before units are dropped (to the next keyframe): about 4 s of a 2 Mbit/s
 * channel, so a CDN that slows for a moment loses nothing and one that cannot keep up skips ahead.
 */
const MAX_BUFFERED = 1024 * 1024;

class CdnPush {
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private delayMs: number;
  /** The current run's ways out: its abort, its publication, its subscriptions. */
  private abort?: AbortController;
  private publication?: RtmpPublication;
  private leave: (() => void)[] = [];
  /** The hubs this run depends on: the channel's, and its H.264 variant when that one is pushed. */
  private hubs: StreamHub[] = [];
  private running?: Promise<void>;
  readonly stats = { runs: 0, lastReason: '', transcoded: false };
  private state: CdnRunState = 'connecting';
  private since?: number;
  private why?: Reason;
  private nextTryAt?: number;
  /** Pushing: [time, bytes taken] each second, the last RATE_SAMPLES of them. */
  private samples: [number, number][] = [];
  private sampler?: NodeJS.Timeout;

  constructor(
    readonly channelPk: number,
    readonly deviceId: string,
    readonly channelId: string,
    readonly url: string,
    private readonly openHub: () => StreamHub | undefined,
    private readonly deps: CdnDeps,
  ) {
    this.delayMs = deps.restartMinMs ?? 1000;
  }

  start() {
    this.running = this.run();
  }

  snapshot(): CdnPushSnapshot {
    const snap: CdnPushSnapshot = {
      deviceId: this.deviceId,
      channelId: this.channelId,
      url: this.url,
      state: this.state,
      runs: this.stats.runs,
      transcoded: this.stats.transcoded,
      why: this.why,
    };
    const pub = this.publication;
    if (this.state === 'pushing' && pub) {
      const now: [number, number] = [Date.now(), pub.sent()];
      const first = this.samples[0] ?? now;
      snap.since = this.since;
      snap.bytesSent = now[1];
      snap.bitrate = now[0] > first[0] ? Math.round(((now[1] - first[1]) * 8 * 1000) / (now[0] - first[0])) : 0;
    }
    if (this.state === 'retrying' || this.state === 'loginRefused') snap.nextTryAt = this.nextTryAt;
    return snap;
  }

  private moveTo(state: CdnRunState) {
    this.state = state;
    this.deps.changed?.({ deviceId: this.deviceId, channelId: this.channelId, snapshot: this.snapshot() });
  }

  private sampleFrom(pub: RtmpPublication) {
    this.samples = [[Date.now(), pub.sent()]];
    this.sampler = setInterval(() => {
      this.samples.push([Date.now(), pub.sent()]);
      if (this.samples.length > RATE_SAMPLES) this.samples.shift();
    }, RATE_SAMPLE_MS);
    this.sampler.unref();
  }

  /** A hub it feeds from is gone (stopped): the next reconcile opens a new one. */
  get stale(): boolean {
    return this.hubs.some((h) => h.state === 'stopped');
  }

  private async run(): Promise<void> {
    const abort = (this.abort = new AbortController());
    this.stats.runs++;
    // A run after the first says so: the console's "retrying" becomes "connecting".
    if (this.stats.runs > 1) this.moveTo('connecting');
    let publishedAt: number | undefined;
    let reason: string;
    let why: Reason;
    let loginRefused = false;
    try {
      const hub = this.openHub();
      if (!hub) throw new RtmpPublishError('the channel could not be opened', { key: 'cdnChannelUnavailable' });
      this.hubs = [hub];
      // Held open while the CDN answers; the tracks decide what is pushed.
      const tracks = await new Promise<Track[]>((resolve, reject) => {
        const holder: Subscriber = {
          tracks: resolve,
          unit: () => undefined,
          state: (state) => state === 'stopped' && reject(new RtmpPublishError('the channel stopped', { key: 'cdnChannelStopped' })),
        };
        this.leave.push(hub.subscribe(holder));
        abort.signal.addEventListener('abort', () => reject(new RtmpPublishError('stopped', { key: 'cdnChannelStopped' })), { once: true });
      });
      const variant = isHevc(tracks) && this.deps.hevc === 'h264' ? this.deps.h264Of?.(hub) : undefined;
      if (variant) this.hubs.push(variant);
      this.stats.transcoded = !!variant;
      const pub = await openRtmpPublish(new URL(this.url), {
        timeoutMs: this.deps.timeoutMs ?? 10_000,
        // The connect's fourCcList announces enhanced RTMP only.
        hevc: isHevc(tracks) && !variant && this.hevcMode === 'enhanced',
        signal: abort.signal,
      });
      this.publication = pub;
      if (abort.signal.aborted) void pub.close();
      publishedAt = performance.now();
      this.since = Date.now();
      this.why = undefined;
      this.sampleFrom(pub);
      this.moveTo('pushing');
      // The output before the holder leaves: an on-demand hub never sees no subscriber.
      const holding = this.leave.splice(0);
      this.leave.push((variant ?? hub).subscribe(this.output(pub)));
      for (const l of holding) l();
      if (variant) this.deps.log.info({ channel: this.channelPk }, 'cdn push: H.265 goes out as the H.264 variant (CDN_HEVC=h264)');
      ({ words: reason, why } = await pub.ended);
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
      why = err instanceof RtmpPublishError ? err.why : { key: 'cdnChannelUnavailable' };
      // A refused login fails the same way until someone edits the address; asked again each second,
      // a server may lock the account: straight to the longest wait.
      if (err instanceof RtmpPublishError && err.auth) {
        this.delayMs = this.deps.restartMaxMs ?? 30_000;
        loginRefused = true;
      }
    }
    this.detach();
    if (this.stopped) return;
    // The key or a password may be in a server's words (an _error's description): never in the log.
    reason = maskPushUrl(reason, this.url);
    this.stats.lastReason = reason;
    this.why = why;
    if (publishedAt !== undefined && performance.now() - publishedAt >= STABLE_MS) this.delayMs = this.deps.restartMinMs ?? 1000;
    const restartInMs = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.deps.restartMaxMs ?? 30_000);
    this.deps.log.warn({ channel: this.channelPk, url: maskedPushUrl(this.url), reason, restartInMs }, 'cdn push: ended, restarting');
    this.nextTryAt = Date.now() + restartInMs;
    this.timer = setTimeout(() => this.start(), restartInMs);
    this.moveTo(loginRefused ? 'loginRefused' : 'retrying');
  }

  /** How H.265 is written when it goes as it is. */
  private get hevcMode(): HevcMode {
    return this.deps.hevc === 'codec-id-12' ? 'codec-id-12' : 'enhanced';
  }

  private output(pub: RtmpPublication) {
    let open = true;
    return new FlvOutput(
      {
        buffered: () => pub.buffered(),
        open: () => open,
        write: (bytes) => {
          try {
            pub.write(bytes);
          } catch (err) {
            // Not whole tags from our own muxer: a bug, ended here rather than thrown into the hub.
            open = false;
            this.deps.log.warn({ err, channel: this.channelPk }, 'cdn push: a tag could not be sent');
            void pub.close();
          }
        },
        // The hub stopped: this run ends (the channel's next hub is the next reconcile's).
        end: () => void pub.close(),
      },
      { maxBufferedBytes: MAX_BUFFERED, hevc: this.hevcMode },
      (err) => this.deps.log.warn({ err, channel: this.channelPk }, 'cdn push: a unit could not be muxed'),
    );
  }

  private detach() {
    clearInterval(this.sampler);
    this.sampler = undefined;
    this.since = undefined;
    for (const l of this.leave.splice(0)) l();
    this.publication = undefined;
    this.abort = undefined;
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.abort?.abort();
    await this.publication?.close();
    await this.running;
  }
}

export class CdnPushes {
  private pushes = new Map<number, CdnPush>();
  /** The next regular pass (see the top): armed after a pass while a push runs or it failed; only once started. */
  private timer?: NodeJS.Timeout;
  private started = false;
  private readonly passes = new CoalescedPass(
    () => this.passThenArm(),
    (err) => this.deps.log.warn({ err }, 'cdn push: pass failed'),
  );

  constructor(
    private readonly deps: CdnDeps,
    private readonly tickMs = 10_000,
  ) {}

  start() {
    this.started = true;
    return this.reconcile();
  }

  private async passThenArm() {
    let failed = true;
    try {
      await this.pass();
      failed = false;
    } finally {
      clearTimeout(this.timer);
      this.timer = undefined;
      if (this.started && (failed || this.pushes.size > 0)) {
        this.timer = setTimeout(() => void this.reconcile(), this.tickMs);
        this.timer.unref();
      }
    }
  }

  /** Whether the regular pass is armed (tests). */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** The push of one channel now (undefined: none runs). */
  snapshot(deviceId: string, channelId: string): CdnPushSnapshot | undefined {
    for (const p of this.pushes.values()) if (p.deviceId === deviceId && p.channelId === channelId) return p.snapshot();
    return undefined;
  }

  /** Channels pushed now, with their CDN address, runs started and the last run's end. */
  active(): { channelPk: number; url: string; runs: number; transcoded: boolean; lastReason: string }[] {
    return [...this.pushes.values()].map((p) => ({ channelPk: p.channelPk, url: p.url, ...p.stats }));
  }

  /** Starts and stops pushes to match the database (one pass at a time; a call during a pass runs another after it). */
  reconcile(): Promise<void> {
    return this.passes.run();
  }

  private async pass() {
    const rows = await this.deps.db
      .selectFrom('channels')
      .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
      .selectAll('channels')
      .where('channels.enable', '=', 1)
      .where('devices.enable', '=', 1)
      .where('channels.enable_cdn', '=', 1)
      .execute();
    const want = new Map(rows.filter((r) => isCdnUrl(r.cdn_url)).map((r) => [r.id, r]));
    for (const [pk, push] of this.pushes) {
      if (want.get(pk)?.cdn_url === push.url && !push.stale) continue;
      this.pushes.delete(pk);
      await push.stop();
      this.deps.log.info({ channel: pk }, 'cdn push: stopped');
      this.deps.changed?.({ deviceId: push.deviceId, channelId: push.channelId, snapshot: null });
    }
    for (const [pk, row] of want) {
      if (this.pushes.has(pk)) continue;
      const device = await this.deps.db.selectFrom('devices').selectAll().where('device_id', '=', row.parent_device_id).executeTakeFirst();
      if (!device) continue;
      const push = new CdnPush(pk, row.parent_device_id, row.channel_id, row.cdn_url, () => this.deps.open(device, row), this.deps);
      this.pushes.set(pk, push);
      push.start();
      this.deps.changed?.({ deviceId: push.deviceId, channelId: push.channelId, snapshot: push.snapshot() });
      this.deps.log.info({ channel: pk, url: maskedPushUrl(row.cdn_url) }, 'cdn push: started');
    }
  }

  async stop() {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.passes.idle();
    const all = [...this.pushes.values()];
    this.pushes.clear();
    await Promise.all(all.map((p) => p.stop()));
  }
}
