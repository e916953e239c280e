/**
 * Always-on channels (OnDemand 0, EasyCVR's 按需直播 off): their main stream runs whether anybody
 * watches or not, from the start of the server on, so the first viewer gets the cached GOP at once
 * instead of waiting for the camera. Hubs already keep an always-on stream up and retry a lost camera
 * with back-off; this service makes sure each one is opened in the first place, and that an edit of
 * OnDemand (either way) is followed by the hubs already running.
 *
 * The set follows the database, as the recording engine and the CDN pushes do: a pass at start (in
 * the background, opening `burst` streams every `paceMs`, so 1,500 cameras are not dialled in the same
 * millisecond), after every inventory change, after a GB device's online state changes, and
 * `tickMs` after the last pass (a hub stopped by an edit of its source is opened again) while there is
 * something to follow: always-on channels, a main-stream hub running, or a pass that failed. A server
 * with none of these arms no timer (issue 4): what would change that comes as an inventory change or
 * a GB device's status, each a pass. That pacing is
 * the site's; how many INVITEs one GB device gets at once is bounded where every INVITE is sent (the
 * INVITE client's per-device queue, gb/invite/queue.ts).
 *
 * A GB28181 channel is always-on only while its device is registered and online: an offline device
 * gets no INVITE (its hub with nobody watching stops, one still watched is on-demand again), and its
 * channels are opened again when it comes back.
 *
 * An administrator's stopstream on an always-on main stream holds (`hold`): the channel is on-demand
 * until the hold is released, so the stop is seen (the 10 s pass used to open it again at once) and a
 * viewer can still watch it. The hold ends when the channel is edited or its device's source settings
 * (credentials, enable) change (`release`), when the channel stops being an always-on candidate
 * (disabled, its device disabled, OnDemand 1, deleted), when its GB device is offline (it starts
 * afresh when the device comes back), and at a restart of the server (holds are not stored): WVP's
 * "stop" of a pulled stream likewise stays until the stream is started or edited, and a restart
 * bringing up every always-on stream is what OnDemand 0 promises.
 */
import type { Kysely } from 'kysely';
import type { Channel, Database, Device } from '../../db/schema.js';
import type { StreamHub } from '../../media/hub.js';
import { GB_DEVICE_TYPE } from '../../gb/media/index.js';
import { parseStreamKey } from './streams.js';
import { CoalescedPass } from '../coalesced-pass.js';

export interface AlwaysOnDeps {
  db: Kysely<Database>;
  /** Opens (or finds) a channel's main stream: StreamService.open(device, channel, 0). */
  open(device: Device, channel: Channel): StreamHub | undefined;
  /** The hubs running now (StreamService.hubs.list()). */
  hubs(): StreamHub[];
  /** Whether a GB28181 device is registered and online now. */
  gbOnline(deviceId: string): boolean;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
  /** The pause between bursts (tests pass their own). */
  sleep?(ms: number): Promise<void>;
}

export interface AlwaysOnOptions {
  /** Streams opened in one go before pausing `paceMs`. */
  burst: number;
  paceMs: number;
  /** The regular pass. */
  tickMs: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const DEFAULT_ALWAYS_ON_OPTIONS: AlwaysOnOptions = { burst: 10, paceMs: 100, tickMs: 10_000 };

export class AlwaysOnChannels {
  /** The next regular pass, armed after each pass while there is something to follow (see the top). */
  private timer?: NodeJS.Timeout;
  private readonly passes = new CoalescedPass(
    () => this.passThenArm(),
    (err) => this.deps.log.warn({ err }, 'always-on: pass failed'),
  );
  /** What the last pass saw: always-on candidates or running main-stream hubs. */
  private following = false;
  private stopped = true;
  /** Channels without a stream source (a device type nothing ingests): warned about once. */
  private noSource = new Set<number>();
  /** Always-on channels (row ids) an administrator stopped: on-demand until released. */
  private readonly held = new Set<number>();

  constructor(
    private readonly deps: AlwaysOnDeps,
    private readonly options: AlwaysOnOptions = DEFAULT_ALWAYS_ON_OPTIONS,
  ) {}

  /** The first pass (resolves when it is done) and the regular ones after it. */
  start(): Promise<void> {
    this.stopped = false;
    return this.reconcile();
  }

  /** A pass, then the next one armed `tickMs` later if there is something to follow or this one failed. */
  private async passThenArm() {
    let failed = true;
    try {
      await this.pass();
      failed = false;
    } finally {
      clearTimeout(this.timer);
      this.timer = undefined;
      if (!this.stopped && (failed || this.following)) {
        this.timer = setTimeout(() => void this.reconcile(), this.options.tickMs);
        this.timer.unref();
      }
    }
  }

  /** Whether the regular pass is armed (tests). */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** Opens and re-flags streams to match the database (one pass at a time; a call during a pass runs another after it). */
  reconcile(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.passes.run();
  }

  /**
   * stopstream on a channel's main stream: not opened again by this service, and on-demand while
   * viewers watch it, until released. Call before stopping the hub, so no pass opens it in between.
   */
  hold(channelPk: number) {
    this.held.add(channelPk);
  }

  /** The channels' holds end (an edit): an always-on one is opened again at the next pass. */
  release(channelPks: Iterable<number>) {
    for (const pk of channelPks) this.held.delete(pk);
  }

  isHeld(channelPk: number): boolean {
    return this.held.has(channelPk);
  }

  private async pass() {
    const { db } = this.deps;
    const channels = await db
      .selectFrom('channels')
      .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
      .selectAll('channels')
      .where('channels.on_demand', '=', 0)
      .where('channels.enable', '=', 1)
      .where('channels.parental', '=', 0)
      .where('devices.enable', '=', 1)
      .execute();
    const parents = [...new Set(channels.map((c) => c.parent_device_id))];
    const devices = new Map(
      (parents.length ? await db.selectFrom('devices').selectAll().where('device_id', 'in', parents).execute() : []).map((d) => [d.device_id, d]),
    );
    if (this.stopped) return;
    const want = new Map<number, { device: Device; channel: Channel }>();
    /** Always-on channels of a GB device that is offline now. */
    const waiting = new Set<number>();
    const candidates = new Set<number>();
    for (const channel of channels) {
      const device = devices.get(channel.parent_device_id);
      if (!device) continue;
      candidates.add(channel.id);
      if (device.device_type === GB_DEVICE_TYPE && !this.deps.gbOnline(device.device_id)) waiting.add(channel.id);
      else if (!this.held.has(channel.id)) want.set(channel.id, { device, channel });
    }
    // A hold ends once the channel is no always-on candidate (disabled, OnDemand 1, deleted) or its
    // device is offline: enabled again or back online, it starts as always-on does.
    for (const pk of this.held) if (!candidates.has(pk) || waiting.has(pk)) this.held.delete(pk);

    // Main-stream hubs running now follow their channel's OnDemand (sub streams and variants are
    // on-demand whatever the channel says).
    const open = new Set<number>();
    for (const hub of this.deps.hubs()) {
      const key = parseStreamKey(hub.key);
      if (!key || key.variant || key.flow !== 0 || hub.state === 'stopped') continue;
      if (waiting.has(key.channelPk) && hub.viewers === 0) {
        hub.stop('the device is offline', { key: 'streamGbDeviceOffline' });
        continue;
      }
      hub.setOnDemand(!want.has(key.channelPk));
      open.add(key.channelPk);
    }

    this.following = candidates.size > 0 || open.size > 0;

    let opened = 0;
    for (const [pk, { device, channel }] of want) {
      // Held since this pass read the hubs: a stop that came in meanwhile stays a stop.
      if (open.has(pk) || this.held.has(pk)) continue;
      if (this.stopped) return;
      const hub = this.deps.open(device, channel);
      if (!hub) {
        if (!this.noSource.has(pk)) this.deps.log.warn({ channel: pk }, 'always-on: the channel has no stream source; not started');
        this.noSource.add(pk);
        continue;
      }
      this.noSource.delete(pk);
      // A hub opened from an older row (a viewer's) is always-on from now on.
      hub.setOnDemand(false);
      if (++opened % this.options.burst === 0) await (this.deps.sleep ?? sleep)(this.options.paceMs);
    }
    if (opened) this.deps.log.info({ opened, alwaysOn: want.size }, 'always-on: streams opened');
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.passes.idle();
  }
}
