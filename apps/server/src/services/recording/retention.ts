/**
 * Retention: complete, non-important segments older than their channel's save days are deleted (the
 * longest of the channel's plans; DefaultSaveDays without a plan); then, while the free space under
 * the record root is below MinFreeBytes, the oldest non-important segments of any channel on that
 * disk go first (an earlier record folder on another disk keeps its segments: deleting them frees
 * nothing here).
 * An important segment is never deleted automatically, nor one being written; one a download is
 * reading waits for a later pass. Deletions are logged.
 */
import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { UnsafePathError } from './paths.js';
import { toSegment, type SegmentRow } from './store.js';
import type { Log } from './reconcile.js';

export interface RetentionDeps {
  db: Kysely<Database>;
  rootAbs: string;
  minFreeBytes: number;
  defaultSaveDays: number;
  saveDays: Map<number, number>;
  fileOf(row: SegmentRow): string;
  /** A segment a download is reading (RecordingService.hold): left for a later pass. */
  held?(row: SegmentRow): boolean;
  /**
   * Root keys (recordings.root) whose folders are on the record folder's disk (rootsOnDisk): the
   * keep-free guard deletes only their segments, as deleting others frees nothing there. Undefined: all.
   */
  guardRoots?: readonly string[];
  /** Free bytes under a folder (fs.statfs by default; tests pass a fake). */
  freeBytes?(dir: string): Promise<number>;
  log: Log;
  now?: Date;
}

export interface RetentionReport {
  expired: number;
  forSpace: number;
  freedBytes: number;
  refused: number;
  /** Segments left for a later pass because a download was reading them. */
  held: number;
}

export async function statfsFree(dir: string): Promise<number> {
  const s = await fs.promises.statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
}

/**
 * Deletes a segment: its path checked (throws UnsafePathError and leaves it), then its row deleted
 * only if it is still complete and not important, then its file. The row a caller read may be stale:
 * a mark (record/setimportant) that came since keeps the segment, file and row; returns false then
 * (or when the row is gone already). A crash between the row and the file leaves an orphan file,
 * which reconciliation at start indexes again.
 */
export async function deleteSegment(
  db: Kysely<Database>,
  row: SegmentRow,
  fileOf: (r: SegmentRow) => string,
  unlink: (file: string) => Promise<void> = (f) => fs.promises.rm(f, { force: true }),
): Promise<boolean> {
  const file = fileOf(row);
  const res = await db.deleteFrom('recordings').where('id', '=', row.id).where('important', '=', 0).where('status', '=', 'complete').executeTakeFirst();
  if (!Number(res.numDeletedRows)) return false;
  await unlink(file);
  return true;
}

/**
 * The keys of the record roots (`allowed`: key → folder) on the same file system as the current one
 * (`current`'s), by device number: an earlier record folder on another disk is not the guard's to
 * empty. A folder that cannot be read (missing, unmounted) is not on it; the current one always is.
 */
export function rootsOnDisk(allowed: ReadonlyMap<string, string>, current: string, devOf: (dir: string) => number = (dir) => fs.statSync(dir).dev): string[] {
  let dev: number;
  try {
    dev = devOf(allowed.get(current)!);
  } catch {
    return [current];
  }
  return [...allowed]
    .filter(([key, dir]) => {
      if (key === current) return true;
      try {
        return devOf(dir) === dev;
      } catch {
        return false;
      }
    })
    .map(([key]) => key);
}

/**
 * The distinct channel_pk of the index by a loose index scan (the next channel is the smallest one
 * above the last): as many index seeks as channels, on SQLite and PostgreSQL alike.
 */
export async function indexedChannels(db: Kysely<Database>): Promise<number[]> {
  const { rows } = await sql<{ pk: number | null }>`WITH RECURSIVE c(pk) AS (
      SELECT MIN(channel_pk) FROM recordings
      UNION ALL
      SELECT (SELECT MIN(r.channel_pk) FROM recordings r WHERE r.channel_pk > c.pk) FROM c WHERE c.pk IS NOT NULL
    ) SELECT pk FROM c WHERE pk IS NOT NULL`.execute(db);
  return rows.map((r) => Number(r.pk));
}

export async function runRetention(deps: RetentionDeps): Promise<RetentionReport> {
  const { db, log } = deps;
  const now = deps.now ?? new Date();
  const report: RetentionReport = { expired: 0, forSpace: 0, freedBytes: 0, refused: 0, held: 0 };
  const refusedIds = new Set<number>();

  const drop = async (row: SegmentRow, why: string) => {
    if (deps.held?.(row)) {
      refusedIds.add(row.id);
      report.held++;
      return false;
    }
    try {
      if (!(await deleteSegment(db, row, deps.fileOf))) {
        // Marked important (or gone) since it was listed: kept, and not listed again in this pass.
        refusedIds.add(row.id);
        return false;
      }
    } catch (err) {
      if (!(err instanceof UnsafePathError)) throw err;
      refusedIds.add(row.id);
      report.refused++;
      log.warn({ id: row.id, path: row.path }, 'retention: refused a path outside the record root');
      return false;
    }
    report.freedBytes += row.bytes;
    log.info({ id: row.id, channel: row.channelPk, path: row.path, start: row.startAt.toISOString(), bytes: row.bytes, why }, 'retention: segment deleted');
    return true;
  };

  // 1. Save days. The channels come from a skip scan of the (channel_pk, start_at) index (one seek
  // per channel), and each channel's look-up is bounded by its cutoff on start_at (a segment ends
  // after it starts). SELECT DISTINCT and an unbounded look-up read every row instead: with a year of
  // 5-minute segments for 64 channels that blocked SQLite, and so the event loop, for 6 s a pass.
  const channels = await indexedChannels(db);
  for (const pk of channels) {
    const days = deps.saveDays.get(pk) ?? deps.defaultSaveDays;
    const cutoff = new Date(now.getTime() - days * 86400_000).toISOString();
    for (;;) {
      const rows = await db
        .selectFrom('recordings')
        .selectAll()
        .where('channel_pk', '=', pk)
        .where('start_at', '<', cutoff)
        .where('status', '=', 'complete')
        .where('important', '=', 0)
        .where('end_at', '<', cutoff)
        .orderBy('start_at')
        .limit(200)
        .execute();
      const todo = rows.map(toSegment).filter((r) => !refusedIds.has(r.id));
      if (!todo.length) break;
      for (const r of todo) if (await drop(r, `older than ${days} days`)) report.expired++;
    }
  }

  // 2. Keep-free guard.
  if (deps.minFreeBytes > 0) {
    const free = deps.freeBytes ?? statfsFree;
    let avail: number;
    try {
      avail = await free(deps.rootAbs);
    } catch (err) {
      log.warn({ err, root: deps.rootAbs }, 'retention: cannot read the free space of the record folder');
      return report;
    }
    const roots = deps.guardRoots;
    while (avail < deps.minFreeBytes) {
      const rows = (
        await db
          .selectFrom('recordings')
          .selectAll()
          .where('status', '=', 'complete')
          .where('important', '=', 0)
          .$if(roots !== undefined, (q) => (roots!.length ? q.where('root', 'in', [...roots!]) : q.where(sql<boolean>`1 = 0`)))
          .orderBy('start_at')
          .orderBy('id')
          .limit(20 + refusedIds.size)
          .execute()
      )
        .map(toSegment)
        .filter((r) => !refusedIds.has(r.id));
      if (!rows.length) {
        log.warn({ root: deps.rootAbs, free: avail, minFree: deps.minFreeBytes }, 'retention: free space below the keep-free limit and nothing left that may be deleted');
        break;
      }
      for (const r of rows) {
        if (await drop(r, 'free space below the keep-free limit')) report.forSpace++;
        avail = await free(deps.rootAbs);
        if (avail >= deps.minFreeBytes) break;
      }
    }
  }
  if (report.expired || report.forSpace) log.info({ ...report }, 'retention: done');
  return report;
}
