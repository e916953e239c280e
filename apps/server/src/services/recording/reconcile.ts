/**
 * Crash safety at start, before any recorder runs:
 *  - every row still 'recording' (the process died while writing it): its file is scanned, a torn
 *    last fragment cut off, the real end taken from the last complete fragment, and the row marked
 *    complete — or row and file removed when nothing playable remains;
 *  - a segment file under the record root that the index does not know (the row insert was lost; one
 *    the recorder names: <channel id>/<YYYYMMDD>/<HHmmss>[-N].mp4, other files are left alone) is
 *    indexed from its name and contents, or removed when unreadable (one reached through a symbolic
 *    link that leads out of the root is left alone: refused);
 *  - a row whose file is gone is dropped — unless the root folder itself is missing or empty (an
 *    unmounted disk), when nothing is dropped and a warning is logged.
 * Every file path comes from the index through `fileOf`, which refuses paths outside the root.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { repairMp4 } from './mp4-scan.js';
import { parseSegmentPath, safeJoin, UnsafePathError } from './paths.js';
import { toSegment, type SegmentRow } from './store.js';
import { parseLocalStamp } from './time.js';

export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ReconcileDeps {
  db: Kysely<Database>;
  /** The current root: its setting (stored in rows) and folder. */
  root: { key: string; abs: string };
  /** The absolute file of a row, or throws UnsafePathError. */
  fileOf(row: SegmentRow): string;
  log: Log;
}

export interface ReconcileReport {
  repaired: number;
  removedEmpty: number;
  orphansIndexed: number;
  orphansRemoved: number;
  missingDropped: number;
  refused: number;
}

const exists = (f: string) => {
  try {
    return fs.statSync(f).isFile();
  } catch {
    return false;
  }
};

const unlinkQuiet = (f: string) => {
  try {
    fs.unlinkSync(f);
  } catch {
    /* gone already */
  }
};

export async function reconcile(deps: ReconcileDeps): Promise<ReconcileReport> {
  const { db, log } = deps;
  const report: ReconcileReport = { repaired: 0, removedEmpty: 0, orphansIndexed: 0, orphansRemoved: 0, missingDropped: 0, refused: 0 };

  // 1. Segments interrupted while being written.
  const open = (await db.selectFrom('recordings').selectAll().where('status', '=', 'recording').execute()).map(toSegment);
  for (const row of open) {
    let file: string;
    try {
      file = deps.fileOf(row);
    } catch (err) {
      if (!(err instanceof UnsafePathError)) throw err;
      report.refused++;
      log.warn({ id: row.id, path: row.path, root: row.root }, 'recording: refused a path outside the record root; row left alone');
      continue;
    }
    if (!exists(file)) {
      await db.deleteFrom('recordings').where('id', '=', row.id).execute();
      report.missingDropped++;
      continue;
    }
    const scan = repairMp4(file);
    const durationMs = Math.round((scan.endTime - scan.firstTime) * 1000);
    if (!scan.ok || scan.fragments === 0 || durationMs <= 0) {
      unlinkQuiet(file);
      await db.deleteFrom('recordings').where('id', '=', row.id).execute();
      report.removedEmpty++;
      log.info({ id: row.id, path: row.path, reason: scan.reason ?? 'no complete fragment' }, 'recording: interrupted segment had nothing playable; removed');
      continue;
    }
    await db
      .updateTable('recordings')
      .set({ status: 'complete', duration_ms: durationMs, end_at: new Date(row.startAt.getTime() + durationMs).toISOString(), bytes: scan.fileSize })
      .where('id', '=', row.id)
      .execute();
    report.repaired++;
    log.info({ id: row.id, path: row.path, durationMs, cut: scan.torn }, 'recording: interrupted segment closed');
  }

  // 2 and 3. Files the index does not know, rows whose file is gone (current root).
  const rootAbs = deps.root.abs;
  let channelDirs: string[] = [];
  try {
    // A channel's folder is its id, a database integer (PostgreSQL's is 32-bit and refuses a larger
    // parameter): another number is not the recorder's.
    channelDirs = fs.readdirSync(rootAbs).filter((d) => /^[1-9]\d{0,9}$/.test(d) && Number(d) <= 2_147_483_647);
  } catch {
    channelDirs = [];
  }
  // One row is enough to tell an unmounted disk (and costs nothing on a large index, unlike the list).
  if (!channelDirs.length && (await db.selectFrom('recordings').select('id').where('root', '=', deps.root.key).limit(1).executeTakeFirst())) {
    log.warn({ root: rootAbs }, 'recording: the record folder is missing or empty while the index lists segments in it; index kept as is');
    return report;
  }
  const rowChannels = (
    await db.selectFrom('recordings').select('channel_pk').distinct().where('root', '=', deps.root.key).execute()
  ).map((r) => r.channel_pk);
  const allChannels = new Set([...channelDirs.map(Number), ...rowChannels]);
  for (const pk of allChannels) {
    const files = new Set<string>();
    const chDir = path.join(rootAbs, String(pk));
    let days: string[] = [];
    try {
      days = fs.readdirSync(chDir).filter((d) => /^\d{8}$/.test(d));
    } catch {
      days = [];
    }
    for (const day of days) {
      let names: string[] = [];
      try {
        names = fs.readdirSync(path.join(chDir, day));
      } catch {
        names = [];
      }
      // Only names the recorder gives (HHmmss.mp4, HHmmss-N.mp4): another file is not its to index or remove.
      for (const n of names) if (parseSegmentPath(`${pk}/${day}/${n}`)) files.add(`${pk}/${day}/${n}`);
    }
    const rows = await db.selectFrom('recordings').select(['id', 'path']).where('channel_pk', '=', pk).where('root', '=', deps.root.key).execute();
    const known = new Set(rows.map((r) => r.path));
    for (const r of rows) {
      if (files.has(r.path)) continue;
      await db.deleteFrom('recordings').where('id', '=', r.id).execute();
      report.missingDropped++;
    }
    for (const rel of files) {
      if (known.has(rel)) continue;
      // Confined as the index's paths are (safeJoin): a linked file or channel or day folder that
      // leads out of the root is left alone, neither cut by the scan nor removed nor indexed.
      let file: string;
      try {
        file = safeJoin(rootAbs, rel);
      } catch (err) {
        if (!(err instanceof UnsafePathError)) throw err;
        report.refused++;
        log.warn({ path: rel, root: rootAbs }, 'recording: a file the index did not know leads out of the record root; left alone');
        continue;
      }
      const parsed = parseSegmentPath(rel);
      const start = parsed && parseLocalStamp(parsed.day + parsed.time);
      const scan = start ? repairMp4(file) : undefined;
      const durationMs = scan ? Math.round((scan.endTime - scan.firstTime) * 1000) : 0;
      if (!start || !scan || !scan.ok || !scan.fragments || durationMs <= 0) {
        unlinkQuiet(file);
        report.orphansRemoved++;
        log.info({ path: rel }, 'recording: unreadable file the index did not know; removed');
        continue;
      }
      const now = new Date().toISOString();
      await db
        .insertInto('recordings')
        .values({
          channel_pk: pk,
          root: deps.root.key,
          path: rel,
          start_at: start.toISOString(),
          end_at: new Date(start.getTime() + durationMs).toISOString(),
          duration_ms: durationMs,
          bytes: scan.fileSize,
          important: 0,
          status: 'complete',
          created_at: now,
        })
        .execute();
      report.orphansIndexed++;
      log.info({ path: rel, durationMs }, 'recording: indexed a file the index did not know');
    }
  }
  return report;
}
