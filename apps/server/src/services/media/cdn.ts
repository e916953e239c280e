/**
 * CDN push (the channel's EnableCdn with its CdnUrl, EasyCVR's "CDN 推流"): every enabled channel
 * with an rtmp:// or rtmps:// CdnUrl has its main stream sent there by one ffmpeg, fed the hub's
 * FLV on stdin and copying it (no transcoding). The push is one more subscriber of the hub, so it
 * holds an on-demand channel open as the recorder does; ffmpeg runs under the Supervisor (restart
 * with back-off, the last error kept for the log). Each run gets its own FlvOutput, which starts it
 * on the hub's cached keyframe with fresh headers, and drops to the next keyframe when ffmpeg (or
 * the CDN behind it) falls behind.
 *
 * An H.265 channel goes out as it is where the local ffmpeg reads and writes HEVC in FLV (6.1 and
 * later, "enhanced FLV"); with an older one (Debian 12's 5.1) it goes out as the channel's H.264
 * variant, the one browsers without HEVC play (transcoded once, shared with them): pushing HEVC
 * there could only fail, run after run. Which hub feeds ffmpeg is decided when the camera's tracks
 * are known.
 *
 * The set of pushes follows the database: reconcile() after every channel change, and every
 * `tickMs` (a hub that was stopped, e.g. by an edit of the channel, is opened again).
 */
import type { Kysely } from 'kysely';
import type { Channel, Database, Device } from '../../db/schema.js';
import type { Track } from '@opencvr/codec';
import type { StreamHub, Subscriber } from '../../media/hub.js';
import { cdnPushArgs } from '../../media/ffmpeg/args.js';
import { maskedPushUrl, maskPushUrl } from '../../media/ffmpeg/push-url-mask.js';
import { Supervisor, type SupervisedRun } from '../../media/ffmpeg/supervisor.js';
import { ffmpegHasHevcInFlv } from '../../media/ffmpeg/version.js';
import { FlvOutput } from '../../media/outputs/flv.js';
import { CoalescedPass } from '../coalesced-pass.js';

export interface CdnDeps {
  db: Kysely<Database>;
  open(device: Device, channel: Channel): StreamHub | undefined;
  /** The transcoded H.264 variant of an open hub (made on first use); none: H.265 is pushed as it is. */
  h264Of?(hub: StreamHub): StreamHub | undefined;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
  /** ffmpeg (tests may pass another path). */
  ffmpeg?: string;
  /** Whether that ffmpeg takes HEVC in FLV; asked of it once when absent. */
  hevcInFlv?: boolean;
}

const isHevc = (tracks: Track[]) => tracks.find((t) => t.kind === 'video')?.codec === 'h265';

/** The CDN addresses a push accepts: RTMP, over TLS or not. */
export const isCdnUrl = (url: string) => /^rtmps?:\/\/[^\s/]+\/\S+$/i.test(url);

class CdnPush {
  private supervisor: Supervisor;
  private unsubscribe?: () => void;
  /** The hubs this run depends on: the channel's, and its H.264 variant when that one feeds ffmpeg. */
  private hubs: StreamHub[] = [];
  /** Each attach() gets its own number, so a decision taken after a later attach() is dropped. */
  private attachment = 0;
  readonly stats = { runs: 0, lastReason: '', transcoded: false };

  constructor(
    readonly channelPk: number,
    readonly url: string,
    private readonly openHub: () => StreamHub | undefined,
    private readonly deps: CdnDeps,
    private readonly hevcInFlv: boolean,
  ) {
    this.supervisor = new Supervisor({
      bin: deps.ffmpeg,
      args: cdnPushArgs(url),
      restartMinMs: 1000,
      restartMaxMs: 30_000,
      onStart: (run) => this.attach(run),
      onExit: (words, restartInMs) => {
        this.detach();
        // ffmpeg echoes its output address, stream key and all: not in the log (push-url-mask.ts).
        const reason = maskPushUrl(words, url);
        this.stats.lastReason = reason;
        if (restartInMs !== undefined) this.deps.log.warn({ channel: channelPk, reason, restartInMs }, 'cdn push: ffmpeg ended, restarting');
      },
    });
  }

  start() {
    this.supervisor.start();
  }

  /** A hub it feeds from is gone (stopped): the next reconcile opens a new one. */
  get stale(): boolean {
    return this.hubs.some((h) => h.state === 'stopped');
  }

  private attach(run: SupervisedRun) {
    this.detach();
    const hub = this.openHub();
    if (!hub) return;
    this.hubs = [hub];
    this.stats.runs++;
    const out = this.output(run);
    const h264Of = this.deps.h264Of;
    if (this.hevcInFlv || !h264Of) {
      this.unsubscribe = hub.subscribe(out);
      return;
    }
    // The codec is known with the tracks: a gate subscriber waits for them, then hands over (the
    // output is subscribed before the gate leaves, so an on-demand hub never sees no subscriber).
    const attachment = ++this.attachment;
    const gate: Subscriber = {
      tracks: (tracks) =>
        queueMicrotask(() => {
          if (attachment !== this.attachment || !this.unsubscribe) return;
          const variant = isHevc(tracks) ? h264Of(hub) : undefined;
          if (variant) this.hubs.push(variant);
          this.stats.transcoded = !!variant;
          const leaveGate = this.unsubscribe;
          this.unsubscribe = (variant ?? hub).subscribe(out);
          leaveGate();
          if (variant) this.deps.log.info({ channel: this.channelPk }, 'cdn push: H.265 goes out as the H.264 variant (this ffmpeg cannot put HEVC in FLV)');
        }),
      unit: () => undefined,
    };
    this.unsubscribe = hub.subscribe(gate);
  }

  private output(run: SupervisedRun) {
    return new FlvOutput(
      { buffered: () => run.buffered(), open: () => true, write: (b) => void run.write(b), end: () => undefined },
      // Below the supervisor's 4 MB stdin limit: whole units are dropped (to the next keyframe), never part of a tag.
      { maxBufferedBytes: 2 * 1024 * 1024, hevc: 'enhanced' },
      (err) => this.deps.log.warn({ err, channel: this.channelPk }, 'cdn push: a unit could not be muxed'),
    );
  }

  private detach() {
    this.attachment++;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  async stop() {
    this.detach();
    await this.supervisor.stop();
  }
}

export class CdnPushes {
  private pushes = new Map<number, CdnPush>();
  private timer?: NodeJS.Timeout;
  private readonly passes = new CoalescedPass(
    () => this.pass(),
    (err) => this.deps.log.warn({ err }, 'cdn push: pass failed'),
  );
  private hevcInFlv?: boolean;

  constructor(
    private readonly deps: CdnDeps,
    private readonly tickMs = 10_000,
  ) {}

  start() {
    this.timer = setInterval(() => void this.reconcile(), this.tickMs);
    this.timer.unref();
    return this.reconcile();
  }

  /** Channels pushed now, with their CDN address. */
  active(): { channelPk: number; url: string; runs: number; transcoded: boolean }[] {
    return [...this.pushes.values()].map((p) => ({ channelPk: p.channelPk, url: p.url, runs: p.stats.runs, transcoded: p.stats.transcoded }));
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
    }
    for (const [pk, row] of want) {
      if (this.pushes.has(pk)) continue;
      const device = await this.deps.db.selectFrom('devices').selectAll().where('device_id', '=', row.parent_device_id).executeTakeFirst();
      if (!device) continue;
      this.hevcInFlv ??= this.deps.hevcInFlv ?? (await ffmpegHasHevcInFlv(this.deps.ffmpeg));
      const push = new CdnPush(pk, row.cdn_url, () => this.deps.open(device, row), this.deps, this.hevcInFlv);
      this.pushes.set(pk, push);
      push.start();
      this.deps.log.info({ channel: pk, url: maskedPushUrl(row.cdn_url) }, 'cdn push: started');
    }
  }

  async stop() {
    clearInterval(this.timer);
    await this.passes.idle();
    const all = [...this.pushes.values()];
    this.pushes.clear();
    await Promise.all(all.map((p) => p.stop()));
  }
}
