/**
 * The recording domain: reconciliation at start, the schedule engine, retention, the record plans,
 * and the index look-ups the record calls and the playback/download outputs use. Every file it
 * touches comes from an index row through `fileOf`, which refuses paths outside the record roots.
 */
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { Channel, Database, Device } from '../../db/schema.js';
import type { ConfigStore } from '../config/store.js';
import type { StreamService } from '../media/streams.js';
import { RecorderOutput } from '../../media/outputs/recorder.js';
import { RecordEngine } from './engine.js';
import { recordRoot, safeJoin, segmentPath, UnsafePathError } from './paths.js';
import { RecordPlanService } from './plans.js';
import { reconcile, type Log, type ReconcileReport } from './reconcile.js';
import { deleteSegment, rootsOnDisk, runRetention, statfsFree, type RetentionReport } from './retention.js';
import { MAX_SEGMENT_MS, RecordingIndex, toSegment, type SegmentRow } from './store.js';

export interface RecordingServiceDeps {
  db: Kysely<Database>;
  dataDir: string;
  config: ConfigStore;
  streams: Pick<StreamService, 'open'>;
  log: Log;
}

export interface RecordingServiceOptions {
  tickMs?: number;
  retentionMs?: number;
  /** Longest fragment of the recorder (default 1 s, at most MAX_FRAGMENT_SECONDS of recorder.ts; RECORD_FRAGMENT_SECONDS). */
  fragmentSeconds?: number;
  freeBytes?(dir: string): Promise<number>;
}

/** A segment file of a channel's time range, for playback and download. */
export interface SegmentFile {
  id: number;
  file: string;
  startAt: Date;
  endAt: Date;
  durationMs: number;
  bytes: number;
  status: 'recording' | 'complete';
}

export class RecordingService {
  readonly index: RecordingIndex;
  readonly plans: RecordPlanService;
  readonly engine: RecordEngine;
  private retentionTimer?: NodeJS.Timeout;
  private started?: Promise<void>;
  private retentionRun?: Promise<RetentionReport | undefined>;
  lastReconcile?: ReconcileReport;
  /** Segment files downloads are reading (file → readers), and those removed by request meanwhile. */
  private reading = new Map<string, number>();
  private unlinkWhenRead = new Set<string>();

  constructor(
    private readonly deps: RecordingServiceDeps,
    private readonly opts: RecordingServiceOptions = {},
  ) {
    this.index = new RecordingIndex(deps.db);
    this.plans = new RecordPlanService(deps.db);
    this.engine = new RecordEngine(
      {
        db: deps.db,
        schedulesByChannel: () => this.plans.schedulesByChannel(),
        open: (d: Device, c: Channel) => deps.streams.open(d, c, 0),
        makeRecorder: (pk) => this.makeRecorder(pk),
        settingsKey: async () => settingsKey(await deps.config.get('record')),
        log: deps.log,
      },
      opts.tickMs ?? 5000,
    );
  }

  /** The record roots: the current one and earlier ones (their segments stay reachable). */
  async roots(): Promise<{ key: string; abs: string; allowed: Map<string, string> }> {
    const cfg = await this.deps.config.get('record');
    const abs = recordRoot(cfg.RecordPath, this.deps.dataDir);
    const allowed = new Map<string, string>(cfg.OldPaths.map((k) => [k, recordRoot(k, this.deps.dataDir)]));
    allowed.set(cfg.RecordPath, abs);
    return { key: cfg.RecordPath, abs, allowed };
  }

  /** The absolute file of a row; throws UnsafePathError when its root is unknown or its path leaves the root. */
  fileOfWith(allowed: Map<string, string>, row: Pick<SegmentRow, 'root' | 'path'>): string {
    const root = allowed.get(row.root);
    if (root === undefined) throw new UnsafePathError(row.path);
    return safeJoin(root, row.path);
  }
  async fileOf(row: Pick<SegmentRow, 'root' | 'path'>): Promise<string> {
    return this.fileOfWith((await this.roots()).allowed, row);
  }

  /** Reconciles the index with the disk, then starts the engine and retention. Idempotent. */
  start(): Promise<void> {
    this.started ??= (async () => {
      const roots = await this.roots();
      fs.mkdirSync(roots.abs, { recursive: true });
      this.lastReconcile = await reconcile({ db: this.deps.db, root: roots, fileOf: (r) => this.fileOfWith(roots.allowed, r), log: this.deps.log });
      this.engine.start();
      const every = this.opts.retentionMs ?? 5 * 60_000;
      this.retentionTimer = setInterval(() => void this.retention(), every);
      this.retentionTimer.unref?.();
      void this.retention();
    })();
    return this.started;
  }

  /** Resolves once start() has finished (reconciliation done, engine running). */
  get ready(): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  async stop() {
    clearInterval(this.retentionTimer);
    await this.started?.catch(() => undefined);
    await this.engine.stop();
    await this.retentionRun;
  }

  /** One retention pass (never two at once). */
  retention(): Promise<RetentionReport | undefined> {
    this.retentionRun ??= (async () => {
      try {
        const cfg = await this.deps.config.get('record');
        const roots = await this.roots();
        return await runRetention({
          db: this.deps.db,
          rootAbs: roots.abs,
          minFreeBytes: cfg.MinFreeBytes,
          guardRoots: cfg.MinFreeBytes > 0 ? rootsOnDisk(roots.allowed, roots.key) : undefined,
          defaultSaveDays: cfg.DefaultSaveDays,
          saveDays: await this.plans.saveDaysByChannel(),
          fileOf: (r) => this.fileOfWith(roots.allowed, r),
          held: (r) => {
            try {
              return this.reading.has(this.fileOfWith(roots.allowed, r));
            } catch {
              return false;
            }
          },
          freeBytes: this.opts.freeBytes ?? statfsFree,
          log: this.deps.log,
        });
      } catch (err) {
        this.deps.log.warn({ err }, 'retention: pass failed');
        return undefined;
      } finally {
        this.retentionRun = undefined;
      }
    })();
    return this.retentionRun;
  }

  private async makeRecorder(channelPk: number) {
    const cfg = await this.deps.config.get('record');
    const roots = await this.roots();
    const recorder = new RecorderOutput({
      channelPk,
      root: roots.abs,
      rootKey: roots.key,
      segmentSeconds: cfg.SegmentSeconds,
      fragmentSeconds: this.opts.fragmentSeconds,
      pathFor: (start, attempt) => segmentPath(channelPk, start, attempt),
      store: this.index,
      log: this.deps.log,
    });
    return { recorder, settings: settingsKey(cfg) };
  }

  /**
   * The segment files of a channel overlapping [from, to), oldest first, with their times: what
   * playback and download stream. Rows with a path outside the record root are left out (and logged).
   */
  async segmentsBetween(channelPk: number, from: Date, to: Date): Promise<SegmentFile[]> {
    const { allowed } = await this.roots();
    const out: SegmentFile[] = [];
    for (const r of await this.index.between(channelPk, from, to)) {
      let file: string;
      try {
        file = this.fileOfWith(allowed, r);
      } catch (err) {
        if (!(err instanceof UnsafePathError)) throw err;
        this.deps.log.warn({ id: r.id, path: r.path }, 'recording: refused a path outside the record root');
        continue;
      }
      out.push({ id: r.id, file, startAt: r.startAt, endAt: r.endAt, durationMs: r.durationMs, bytes: r.bytes, status: r.status });
    }
    return out;
  }

  /**
   * Holds segment files while a download reads them: its length was promised up front, so a file
   * must not vanish under it. A removal by request meanwhile takes the row at once and unlinks the
   * file when the last reader lets go; retention leaves it for a later pass. Returns the release
   * (once is enough; more calls do nothing).
   */
  hold(files: readonly string[]): () => void {
    const mine = [...new Set(files)];
    for (const f of mine) this.reading.set(f, (this.reading.get(f) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      for (const f of mine) {
        const n = (this.reading.get(f) ?? 1) - 1;
        if (n > 0) {
          this.reading.set(f, n);
          continue;
        }
        this.reading.delete(f);
        if (this.unlinkWhenRead.delete(f)) {
          fs.promises.rm(f, { force: true }).catch((err) => this.deps.log.warn({ err, file: f }, 'recording: removed segment file not deleted after its download'));
        }
      }
    };
  }

  /** Unlinks a removed segment's file, or marks it for when the downloads reading it are done. */
  private readonly unlink = async (file: string): Promise<void> => {
    if (this.reading.has(file)) this.unlinkWhenRead.add(file);
    else await fs.promises.rm(file, { force: true });
  };

  /**
   * Deletes one segment (file and row). Refuses one being written, and any path outside the roots;
   * false when it is no longer complete and unmarked (marked important since `row` was read, or gone).
   */
  async removeSegment(row: SegmentRow): Promise<boolean> {
    if (row.status === 'recording') throw new Error('segment is being written');
    const { allowed } = await this.roots();
    if (!(await deleteSegment(this.deps.db, row, (r) => this.fileOfWith(allowed, r), this.unlink))) return false;
    this.deps.log.info({ id: row.id, channel: row.channelPk, path: row.path }, 'recording: segment removed by request');
    return true;
  }

  /**
   * Complete, non-important segments of a channel holding a second of [from, to): deleted; returns the
   * count and what was refused. A segment is one file: one running past either end goes whole, as a
   * day's list shows it on both days. Taken by their start alone (session 26), a day's first minutes,
   * written in the segment begun the evening before, outlived "delete the day": 0 deleted, 0 kept, and
   * the day still listed 00:00:00–00:02:30 (issue 5 walk, session 27).
   */
  async removeBetween(channelPk: number, from: Date, to: Date): Promise<{ removed: number; kept: number }> {
    const rows = (
      await this.deps.db
        .selectFrom('recordings')
        .selectAll()
        .where('channel_pk', '=', channelPk)
        // Bounded from below as the index's range look-ups are (store.ts): the rows near the day, not the channel's year.
        .where('start_at', '>', new Date(from.getTime() - MAX_SEGMENT_MS).toISOString())
        .where('start_at', '<', to.toISOString())
        .where('end_at', '>', from.toISOString())
        .execute()
    ).map(toSegment);
    const { allowed } = await this.roots();
    let removed = 0;
    let kept = 0;
    for (const r of rows) {
      if (r.important || r.status !== 'complete') {
        kept++;
        continue;
      }
      try {
        if (await deleteSegment(this.deps.db, r, (x) => this.fileOfWith(allowed, x), this.unlink)) removed++;
        else kept++; // marked important since it was read
      } catch (err) {
        if (!(err instanceof UnsafePathError)) throw err;
        kept++;
        this.deps.log.warn({ id: r.id, path: r.path }, 'recording: refused a path outside the record root');
      }
    }
    if (removed) this.deps.log.info({ channel: channelPk, removed, from: from.toISOString(), to: to.toISOString() }, 'recording: segments removed by request');
    return { removed, kept };
  }

  /** Manual recording (realtimerecord/start and stop): kept in the database, so it survives a restart. */
  async setManual(channelPk: number, on: boolean) {
    if (on) {
      await this.deps.db
        .insertInto('record_manual')
        .values({ channel_pk: channelPk, started_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('channel_pk').doNothing())
        .execute();
    } else await this.deps.db.deleteFrom('record_manual').where('channel_pk', '=', channelPk).execute();
    await this.engine.kick();
  }
}

function settingsKey(cfg: { RecordPath: string; SegmentSeconds: number }) {
  return `${cfg.RecordPath}\n${cfg.SegmentSeconds}`;
}
