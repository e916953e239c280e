/**
 * Recordings kept on GB28181 devices (issue 6): RecordInfo searches, playback sessions and downloads,
 * one per app (gbRecordsOf(ctx), kept beside the AppContext as the platform's playback service is).
 * Sessions and downloads are in memory: they live as long as their socket or file.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Lang, Reason } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import type { Channel, Device } from '../../db/schema.js';
import type { GbMediaService, GbSourceOptions } from '../media/service.js';
import type { GbInviteClient, GbInviteSession } from '../invite/client.js';
import type { GbLog } from '../core.js';
import type { GbApi, ManscdpClient } from '../manscdp-client.js';
import { GbRecordsError } from './errors.js';
import { DeviceDownload } from './download.js';
import { DevicePlaybackSession } from './playback.js';
import { GbRecordQuery } from './query.js';

export interface GbRecordsDeps {
  gb: Pick<GbApi, 'onMessage' | 'onDeviceStatus'>;
  client: Pick<ManscdpClient, 'nextSn' | 'send' | 'encodingOf' | 'heard'>;
  invite: Pick<GbInviteClient, 'invite'>;
  media: Pick<GbMediaService, 'source'>;
  /** Where finished downloads are kept (removed an hour after they were made, and at start: a restart forgets the tasks). */
  downloadDir: string;
  log: GbLog;
}

export interface RecordTarget {
  device: Device;
  channel: Channel;
  userId: number;
  /** ms; whole seconds are asked (t= is in seconds). */
  from: number;
  to: number;
  /** The language the session's own messages (the playback socket's state reasons) are written in. */
  lang?: Lang;
}

/** Download speeds a device is asked for (a=downloadspeed). */
export const DOWNLOAD_SPEEDS = [1, 2, 4, 8] as const;
const DOWNLOAD_KEEP_MS = 3600_000;
const MAX_SESSIONS = 64;
const MAX_DOWNLOADS = 16;

export class GbRecords {
  readonly query: GbRecordQuery;
  private readonly sessions = new Map<string, DevicePlaybackSession>();
  private readonly downloads = new Map<string, DeviceDownload>();
  private sweepTimer?: NodeJS.Timeout;
  /** A download nobody asks about this long is cancelled (undefined: DeviceDownload's 120 s; tests shorten it). */
  unwatchedMs?: number;

  constructor(private readonly deps: GbRecordsDeps) {
    this.query = new GbRecordQuery({ gb: deps.gb, client: deps.client, log: deps.log });
  }

  start() {
    this.query.start();
    void this.removeLeftovers();
    // Finished files nobody fetched go after an hour even when no new download comes to sweep them.
    this.sweepTimer = setInterval(() => this.sweep(), 60_000);
    this.sweepTimer.unref();
  }

  stop() {
    this.query.stop();
    clearInterval(this.sweepTimer);
    for (const s of [...this.sessions.values()]) s.close();
    // Running ones only: a finished file stays for the hour it was promised (the sweep after a restart is by age).
    for (const d of [...this.downloads.values()]) if (d.state === 'downloading' || d.state === 'remuxing') d.cancel({ key: 'gbServiceStopping' });
  }

  /** Playback of a device's recording from `from` to `to`; resolves once the device accepted the INVITE. */
  async playback(t: RecordTarget): Promise<DevicePlaybackSession> {
    if (this.sessions.size >= MAX_SESSIONS) {
      const idle = [...this.sessions.values()].find((s) => !s.attached);
      if (!idle) throw new GbRecordsError({ key: 'gbTooManyPlaybacks' });
      idle.close();
    }
    const id = crypto.randomBytes(16).toString('hex');
    let inviteError: unknown;
    const session = new DevicePlaybackSession(id, t.device.device_id, t.channel.id, t.userId, t.from, t.to, {
      log: this.deps.log,
      lang: t.lang,
      source: (hooks) =>
        this.historySource(
          t,
          { session: 'Playback' },
          {
            ended: hooks.ended,
            failed: (err) => (inviteError = err),
            invited: (s) => hooks.dialog(s.dialog),
          },
          // A paused playback receives nothing: the session watches for stalls itself (not while paused).
          { fallbackIp: t.device.sip_local_ip, idleTimeoutMs: 24 * 3600_000 },
        ),
      onClose: () => {
        clearTimeout(timer);
        this.sessions.delete(id);
      },
    });
    this.sessions.set(id, session);
    // No socket within a minute: the device is told to stop (BYE).
    const timer = setTimeout(() => {
      if (!session.attached) session.close();
    }, 60_000);
    timer.unref();
    try {
      await session.start();
    } catch (err) {
      session.close();
      throw inviteError ?? err;
    }
    return session;
  }

  get(id: string): DevicePlaybackSession | undefined {
    return this.sessions.get(id);
  }

  /** Device playbacks through their H.264 leg (an ffmpeg each), counted against the platform's bound. */
  get transcoding() {
    let n = 0;
    for (const s of this.sessions.values()) if (s.transcoding && !s.closed) n++;
    return n;
  }

  /** Starts a download (s=Download); resolves once the device accepted the INVITE. */
  async download(t: RecordTarget & { speed: number; name: string }): Promise<DeviceDownload> {
    this.sweep();
    const running = [...this.downloads.values()].filter((d) => d.state === 'downloading' || d.state === 'remuxing');
    if (running.length >= MAX_DOWNLOADS) throw new GbRecordsError({ key: 'gbTooManyDownloads' });
    const id = crypto.randomBytes(16).toString('hex');
    let inviteError: unknown;
    const d = new DeviceDownload(id, t.channel.id, t.userId, t.from, t.to, t.name, {
      dir: this.deps.downloadDir,
      log: this.deps.log,
      unwatchedMs: this.unwatchedMs,
      source: (hooks) =>
        this.historySource(
          t,
          { session: 'Download', downloadSpeed: t.speed },
          {
            ended: hooks.ended,
            failed: (err) => (inviteError = err),
            invited: () => hooks.invited(),
          },
          { fallbackIp: t.device.sip_local_ip },
        ),
    });
    this.downloads.set(id, d);
    try {
      await d.start();
    } catch (err) {
      this.downloads.delete(id);
      throw inviteError ?? err;
    }
    return d;
  }

  /**
   * A hub source fed by a history INVITE (s=Playback or s=Download) of `t`'s range: the device's BYE
   * or MediaStatus 121 end both the source and the session (with the catalogue's reason); a refused
   * INVITE is handed to `failed` so the caller can answer with the device's own reason.
   */
  private historySource(
    t: RecordTarget,
    invite: { session: 'Playback' | 'Download'; downloadSpeed?: number },
    on: { ended(why: Reason): void; failed(err: unknown): void; invited(s: GbInviteSession): void },
    options: GbSourceOptions,
  ) {
    return this.deps.media.source(async (offer, ended, signal) => {
      let s: GbInviteSession;
      try {
        s = await this.deps.invite.invite({
          deviceId: t.device.device_id,
          channelId: t.channel.channel_id,
          offer,
          ...seconds(t),
          ...invite,
          signal,
          onEnded: (reason, why) => {
            // An end without a catalogue reason: the user reads gbSessionEnded, the log has the words.
            if (!why) this.deps.log.info({ device: t.device.device_id, channel: t.channel.channel_id, reason }, 'gb records: the device session ended');
            on.ended(why ?? { key: 'gbSessionEnded' });
            ended(reason);
          },
        });
      } catch (err) {
        on.failed(err);
        throw err;
      }
      on.invited(s);
      return { answer: s.media, close: () => s.close() };
    }, options);
  }

  getDownload(id: string): DeviceDownload | undefined {
    return this.downloads.get(id);
  }

  /** Files of an earlier run (its tasks were in memory: nobody can fetch them any more). */
  private async removeLeftovers() {
    const names = await fs.promises.readdir(this.deps.downloadDir).catch(() => [] as string[]);
    for (const n of names) {
      const id = /^([0-9a-f]{32})(\.part)?\.mp4$/.exec(n)?.[1];
      // A download of this run started meanwhile keeps its file.
      if (id && !this.downloads.has(id)) await fs.promises.rm(path.join(this.deps.downloadDir, n), { force: true }).catch(() => undefined);
    }
  }

  /** Finished downloads older than an hour are forgotten and their files removed. */
  private sweep() {
    const now = Date.now();
    for (const [id, d] of this.downloads) {
      if ((d.state === 'done' || d.state === 'failed' || d.state === 'cancelled') && now - d.startedAt > DOWNLOAD_KEEP_MS) {
        this.downloads.delete(id);
        fs.promises.rm(d.file, { force: true }).catch(() => undefined);
      }
    }
  }
}

/** t= of the INVITE: whole Unix seconds covering the range. */
function seconds(t: { from: number; to: number }) {
  const startTime = Math.floor(t.from / 1000);
  return { startTime, endTime: Math.max(startTime + 1, Math.ceil(t.to / 1000)) };
}

const services = new WeakMap<AppContext, GbRecords>();

/** The app's one GbRecords (made and hooked on at first use). */
export function gbRecordsOf(ctx: AppContext): GbRecords {
  let s = services.get(ctx);
  if (!s) {
    s = new GbRecords({
      gb: ctx.gb,
      client: ctx.gbDevices.client,
      invite: ctx.gbInvite,
      media: ctx.gbMedia,
      downloadDir: path.join(ctx.settings.dataDir, 'gb-downloads'),
      log: ctx.gb.log,
    });
    s.start();
    services.set(ctx, s);
  }
  return s;
}
