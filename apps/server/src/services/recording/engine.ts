/**
 * The schedule engine: on each pass it works out which channels should be recording now — enabled
 * channels of enabled devices with EnableRecord on whose plan says "now" (or which are in no plan),
 * plus those recording by hand — and keeps one recorder subscribed to each one's main-stream hub
 * (StreamService.open holds the hub open even if on demand). A recorder whose channel no longer
 * should record is stopped and unsubscribed. A hub that stopped (stopstream, a deleted channel) is
 * reopened at the next pass. After a restart the first pass resumes whatever should be running.
 *
 * A pass runs when asked (kick(): a channel, device, plan, binding, manual recording or record
 * setting changed; every such change kicks), at the next slot edge of a plan in use, and every
 * `tickMs` only while there is something to watch: a recorder running (its hub may stop, the record
 * settings may change), a channel that had no stream source, or a pass that failed. Otherwise no timer
 * is armed but the next edge's (issue 4: an idle server is not woken every 5 s), and that one at most
 * MAX_EDGE_WAIT_MS ahead: the edge is worked out again from the wall clock then, so a clock step or a
 * change of UTC offset between now and the edge moves it at most that much late.
 */
import type { Kysely } from 'kysely';
import { isScheduledAt, nextEdge, type NormalSchedule } from '@opencvr/shared';
import type { Channel, Database, Device } from '../../db/schema.js';
import type { StreamHub } from '../../media/hub.js';
import type { RecorderOutput } from '../../media/outputs/recorder.js';
import type { Log } from './reconcile.js';

export interface EngineDeps {
  db: Kysely<Database>;
  schedulesByChannel(): Promise<Map<number, NormalSchedule[]>>;
  open(device: Device, channel: Channel): StreamHub | undefined;
  /** A recorder for a channel with the current settings, and what identifies those settings. */
  makeRecorder(channelPk: number): Promise<{ recorder: RecorderOutput; settings: string }>;
  /** The settings key now (a change restarts the recorders). */
  settingsKey(): Promise<string>;
  log: Log;
  now?: () => Date;
}

interface Running {
  hub: StreamHub;
  recorder: RecorderOutput;
  unsubscribe: () => void;
  settings: string;
}

/** Whether a channel records at `now`: manual, or EnableRecord with its plans (no plan = always). */
export function shouldRecord(c: { enable_record: number; manual: boolean }, schedules: NormalSchedule[] | undefined, now: Date): boolean {
  if (c.manual) return true;
  if (!c.enable_record) return false;
  if (schedules === undefined) return true;
  return schedules.some((s) => isScheduledAt(s, now));
}

/** The longest wait for a slot edge before the next edge is worked out again (see the top). */
export const MAX_EDGE_WAIT_MS = 60_000;

export class RecordEngine {
  private running = new Map<number, Running>();
  /** The next pass: tickMs, the next slot edge, or none (see the top). */
  private timer?: NodeJS.Timeout;
  /** The last pass: ms from its start to the next slot edge of a plan in use (none: no edge), and whether it failed. */
  private edgeInMs?: number;
  private failed = false;
  private ticking?: Promise<void>;
  private again: Promise<void> | undefined;
  private stopped = true;
  private noSource = new Set<number>();
  /** Channels under manual recording (realtimerecord/start) as of the last pass. */
  private manual = new Set<number>();

  constructor(
    private readonly deps: EngineDeps,
    private readonly tickMs = 5000,
  ) {}

  start() {
    this.stopped = false;
    void this.kick();
  }

  /** The next pass after one ended: every tickMs while there is something to watch, else at the next edge only. */
  private armNext() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped) return;
    const watch = this.failed || this.running.size > 0 || this.noSource.size > 0;
    let delay = watch ? this.tickMs : undefined;
    if (this.edgeInMs !== undefined) {
      const edge = Math.max(0, Math.min(this.edgeInMs, MAX_EDGE_WAIT_MS));
      delay = delay === undefined ? edge : Math.min(delay, edge);
    }
    if (delay === undefined) return;
    this.timer = setTimeout(() => void this.kick(), delay);
    this.timer.unref?.();
  }

  /** Whether a pass is armed by the timer (tests). */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /**
   * Re-evaluates now (after a plan, channel or manual change). Resolves when a pass that started
   * after this call is done: a pass already running may have read the database before the change.
   */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.ticking) {
      this.again ??= this.ticking.then(() => this.kick());
      return this.again;
    }
    this.edgeInMs = undefined;
    this.ticking = this.tick()
      .then(
        () => void (this.failed = false),
        (err) => {
          this.failed = true;
          this.deps.log.warn({ err }, 'recording engine: pass failed');
        },
      )
      .finally(() => {
        this.ticking = undefined;
        this.again = undefined;
        this.armNext();
      });
    return this.ticking;
  }

  /** Channel pks being recorded now. */
  active(): number[] {
    return [...this.running.keys()];
  }
  isRecording(pk: number): boolean {
    return this.running.has(pk);
  }
  /** Recorded by realtimerecord/start (until stop), whatever the plans say; as of the last pass. */
  isManual(pk: number): boolean {
    return this.manual.has(pk);
  }
  recorderOf(pk: number): RecorderOutput | undefined {
    return this.running.get(pk)?.recorder;
  }

  private async tick() {
    const { db } = this.deps;
    const now = this.deps.now?.() ?? new Date();
    const manual = new Set((await db.selectFrom('record_manual').select('channel_pk').execute()).map((r) => r.channel_pk));
    this.manual = manual;
    const candidates = await db
      .selectFrom('channels')
      .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
      .select(['channels.id as pk', 'channels.enable_record as enable_record'])
      .where('channels.enable', '=', 1)
      .where('devices.enable', '=', 1)
      .where((eb) => eb.or([eb('channels.enable_record', '=', 1), eb('channels.id', 'in', manual.size ? [...manual] : [-1])]))
      .execute();
    const schedules = await this.deps.schedulesByChannel();
    const want = new Set<number>();
    for (const c of candidates) {
      if (shouldRecord({ enable_record: c.enable_record, manual: manual.has(c.pk) }, schedules.get(c.pk), now)) want.add(c.pk);
    }
    if (this.stopped) return;

    const settings = await this.deps.settingsKey();
    for (const [pk, r] of this.running) {
      if (!want.has(pk) || r.hub.state === 'stopped' || r.settings !== settings) await this.stopOne(pk, !want.has(pk) ? 'not scheduled' : r.hub.state === 'stopped' ? 'stream stopped' : 'settings changed');
    }
    const missing = [...want].filter((pk) => !this.running.has(pk));
    if (missing.length) {
      const channels = await db.selectFrom('channels').selectAll().where('id', 'in', missing).execute();
      const devices = await db
        .selectFrom('devices')
        .selectAll()
        .where('device_id', 'in', [...new Set(channels.map((c) => c.parent_device_id))])
        .execute();
      for (const c of channels) {
        if (this.stopped) return;
        const d = devices.find((x) => x.device_id === c.parent_device_id);
        if (!d) continue;
        const hub = this.deps.open(d, c);
        if (!hub) {
          if (!this.noSource.has(c.id)) this.deps.log.warn({ channel: c.id }, 'recording: the channel has no stream source; not recorded');
          this.noSource.add(c.id);
          continue;
        }
        this.noSource.delete(c.id);
        const { recorder, settings: s } = await this.deps.makeRecorder(c.id);
        if (this.stopped) return;
        const unsubscribe = hub.subscribe(recorder);
        this.running.set(c.id, { hub, recorder, unsubscribe, settings: s });
        this.deps.log.info({ channel: c.id, device: c.parent_device_id, channelId: c.channel_id }, 'recording: started');
      }
    }
    this.armEdge(now, schedules);
  }

  /** The next slot edge of any plan in use (armNext arms a pass there), so a slot starts and ends on time. */
  private armEdge(now: Date, schedules: Map<number, NormalSchedule[]>) {
    let next: number | undefined;
    for (const list of schedules.values()) {
      for (const s of list) {
        const e = nextEdge(s, now);
        if (e && (next === undefined || e.getTime() < next)) next = e.getTime();
      }
    }
    this.edgeInMs = next === undefined ? undefined : next - now.getTime() + 20;
  }

  private async stopOne(pk: number, why: string) {
    const r = this.running.get(pk);
    if (!r) return;
    this.running.delete(pk);
    // stop() writes the last fragment before it first waits, while the hub's cached units it may
    // hold by reference are still whole; then the hub lets go of it.
    const stopped = r.recorder.stop();
    r.unsubscribe();
    await stopped;
    this.deps.log.info({ channel: pk, why }, 'recording: stopped');
  }

  /** Stops every recorder; resolves when their index rows are closed. */
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.ticking;
    for (const pk of [...this.running.keys()]) await this.stopOne(pk, 'shutdown');
  }
}
