/** The index of recorded segments: rows written by the recorders, read by the record calls. */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database, Recording } from '../../db/schema.js';
import type { SegmentProgress, SegmentStart, SegmentStore } from '../../media/outputs/recorder.js';

export interface SegmentRow {
  id: number;
  channelPk: number;
  root: string;
  path: string;
  startAt: Date;
  endAt: Date;
  durationMs: number;
  bytes: number;
  important: boolean;
  status: 'recording' | 'complete';
}

/** What the day view needs of a segment (querydaily's merged ranges). */
export type SegmentSpan = Pick<SegmentRow, 'id' | 'startAt' | 'endAt' | 'bytes' | 'important' | 'status'>;

export function toSegment(r: Recording): SegmentRow {
  return {
    id: r.id,
    channelPk: r.channel_pk,
    root: r.root,
    path: r.path,
    startAt: new Date(r.start_at),
    endAt: new Date(r.end_at),
    durationMs: Number(r.duration_ms),
    bytes: Number(r.bytes),
    important: !!r.important,
    status: r.status,
  };
}

/**
 * No segment is longer than this: the recorder cuts at 1.5 × SegmentSeconds (≤ 3600) + 2 s of wall
 * time, and reconciliation only closes what a recorder wrote. Range look-ups bound start_at from
 * below by it, so the (channel_pk, start_at) index reads only the rows near the range instead of
 * every row of the channel before it (a year of 5-minute segments is 105,120 rows per channel).
 */
export const MAX_SEGMENT_MS = 2 * 3600_000;

/** Rows per progress UPDATE (8 parameters each: within SQLite's and PostgreSQL's limits). */
const PROGRESS_CHUNK = 200;

interface PendingProgress {
  p: SegmentProgress;
  complete: boolean;
  waiters: { resolve(): void; reject(err: unknown): void }[];
}

export class RecordingIndex implements SegmentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(seg: SegmentStart): Promise<number> {
    const at = seg.startAt.toISOString();
    const row = await this.db
      .insertInto('recordings')
      .values({
        channel_pk: seg.channelPk,
        root: seg.rootKey,
        path: seg.path,
        start_at: at,
        end_at: at,
        duration_ms: 0,
        bytes: seg.bytes,
        important: 0,
        status: 'recording',
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * A segment's progress (or its close). Writes of the same tick are gathered into one statement:
   * every recorder flushes on the same 2 s grid (recorder.ts), so 64 recorded channels make one
   * UPDATE a tick instead of 64 transactions (each a commit: ~80 µs of the event loop on SQLite).
   * Resolves when the row is written.
   */
  update(id: number, p: SegmentProgress, complete: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const prev = this.progress.get(id);
      // The later progress of a row wins (a failed write may have rolled it back); a close stays.
      this.progress.set(id, { p, complete: complete || !!prev?.complete, waiters: [...(prev?.waiters ?? []), { resolve, reject }] });
      this.progressTick ??= setImmediate(() => void this.writeProgress());
    });
  }

  /** Statements the progress writes took so far (one per batch of up to PROGRESS_CHUNK rows). */
  progressStatements = 0;
  private progress = new Map<number, PendingProgress>();
  private progressTick?: NodeJS.Immediate;
  private progressWriting?: Promise<void>;

  private async writeProgress(): Promise<void> {
    this.progressTick = undefined;
    // One batch at a time: a later one must not be overtaken by an earlier one still writing.
    while (this.progressWriting) await this.progressWriting;
    if (!this.progress.size) return;
    const batch = [...this.progress];
    this.progress.clear();
    this.progressWriting = (async () => {
      for (let i = 0; i < batch.length; i += PROGRESS_CHUNK) {
        const chunk = batch.slice(i, i + PROGRESS_CHUNK);
        try {
          await this.writeProgressChunk(chunk);
          for (const [, w] of chunk) for (const x of w.waiters) x.resolve();
        } catch (err) {
          for (const [, w] of chunk) for (const x of w.waiters) x.reject(err);
        }
      }
    })().finally(() => {
      this.progressWriting = undefined;
    });
    await this.progressWriting;
  }

  /**
   * The SQL text of a progress UPDATE per shape (rows, closed rows): built by the query builder once,
   * then run with new parameters. Building it each tick cost Kysely's walk over ~3 nodes per value
   * (64 rows: ~200 parameters) every 2 s on the event loop, for the same text.
   */
  private progressSql = new Map<string, string>();
  /** Progress UPDATEs built by the query builder (the rest reused a built text). */
  progressBuilt = 0;

  private async writeProgressChunk(chunk: [number, PendingProgress][]) {
    this.progressStatements++;
    const closed = chunk.filter(([, w]) => w.complete).map(([id]) => id);
    // The parameters in the order the built statement takes them: each CASE's (id, value) pairs,
    // the closed ids, the ids of the WHERE.
    const params: unknown[] = [];
    for (const [id, w] of chunk) params.push(id, w.p.endAt.toISOString());
    for (const [id, w] of chunk) params.push(id, w.p.durationMs);
    for (const [id, w] of chunk) params.push(id, w.p.bytes);
    for (const id of closed) params.push(id);
    for (const [id] of chunk) params.push(id);
    const shape = `${chunk.length}:${closed.length}`;
    const text = this.progressSql.get(shape);
    if (text !== undefined) {
      await this.db.executeQuery(CompiledQuery.raw(text, params));
      return;
    }
    // Each row's own values through CASE; the casts type the parameters for PostgreSQL (SQLite takes them as they are).
    const byId = <T>(value: (w: PendingProgress) => T, type: string) =>
      sql<T>`case ${sql.ref('id')} ${sql.join(
        chunk.map(([id, w]) => sql`when ${id} then cast(${value(w)} as ${sql.raw(type)})`),
        sql` `,
      )} end`;
    const compiled = this.db
      .updateTable('recordings')
      .set({
        end_at: byId((w) => w.p.endAt.toISOString(), 'varchar(32)'),
        duration_ms: byId((w) => w.p.durationMs, 'integer'),
        bytes: byId((w) => w.p.bytes, 'bigint'),
        ...(closed.length ? { status: sql<'complete' | 'recording'>`case when ${sql.ref('id')} in (${sql.join(closed)}) then 'complete' else ${sql.ref('status')} end` } : {}),
      })
      .where(
        'id',
        'in',
        chunk.map(([id]) => id),
      )
      .compile();
    this.progressBuilt++;
    // Kept only if the builder put the parameters where `params` has them (a Kysely upgrade that
    // orders them otherwise builds every time instead of writing wrong values). Few shapes occur
    // (the rows recording, and how many closed in a tick); bounded anyway.
    const same = compiled.parameters.length === params.length && compiled.parameters.every((v, i) => v === params[i]);
    if (same && this.progressSql.size < 64) this.progressSql.set(shape, compiled.sql);
    await this.db.executeQuery(compiled);
  }

  async get(id: number): Promise<SegmentRow | undefined> {
    const r = await this.db.selectFrom('recordings').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toSegment(r);
  }

  /** Segments of a channel overlapping [from, to), oldest first. */
  async between(channelPk: number, from: Date, to: Date): Promise<SegmentRow[]> {
    const rows = await this.db
      .selectFrom('recordings')
      .selectAll()
      .where('channel_pk', '=', channelPk)
      .where('start_at', '>', new Date(from.getTime() - MAX_SEGMENT_MS).toISOString())
      .where('start_at', '<', to.toISOString())
      .where('end_at', '>', from.toISOString())
      .orderBy('start_at')
      .orderBy('id')
      .execute();
    return rows.map(toSegment);
  }

  /**
   * The spans of a channel's segments overlapping [from, to), oldest first: `between` without the
   * file columns. A day of 5-minute segments is ~300 rows; reading six columns instead of eleven
   * costs the day query about a quarter as much (measured on a year of 64 channels, with five).
   */
  async spans(channelPk: number, from: Date, to: Date): Promise<SegmentSpan[]> {
    const rows = await this.db
      .selectFrom('recordings')
      .select(['id', 'start_at', 'end_at', 'bytes', 'important', 'status'])
      .where('channel_pk', '=', channelPk)
      .where('start_at', '>', new Date(from.getTime() - MAX_SEGMENT_MS).toISOString())
      .where('start_at', '<', to.toISOString())
      .where('end_at', '>', from.toISOString())
      .orderBy('start_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: r.id, startAt: new Date(r.start_at), endAt: new Date(r.end_at), bytes: Number(r.bytes), important: !!r.important, status: r.status }));
  }

  /**
   * For each interval [bounds[i], bounds[i + 1]) (e.g. the local days of a month), whether a segment
   * of the channel overlaps it. One statement of one indexed existence probe per interval: a month of
   * 5-minute segments is 8,928 rows, none of which needs to leave the database.
   */
  async overlaps(channelPk: number, bounds: readonly Date[]): Promise<boolean[]> {
    if (bounds.length < 2) return [];
    const probes = bounds.slice(0, -1).map((from, i) => {
      const to = bounds[i + 1];
      return sql<{ i: number }>`SELECT ${sql.lit(i)} AS i WHERE EXISTS (SELECT 1 FROM recordings WHERE channel_pk = ${channelPk} AND start_at > ${new Date(from.getTime() - MAX_SEGMENT_MS).toISOString()} AND start_at < ${to.toISOString()} AND end_at > ${from.toISOString()})`;
    });
    const { rows } = await sql<{ i: number }>`${sql.join(probes, sql` UNION ALL `)}`.execute(this.db);
    const out = new Array<boolean>(bounds.length - 1).fill(false);
    for (const r of rows) out[Number(r.i)] = true;
    return out;
  }

  /** Channels (of `pks`, or all) with a segment overlapping [from, to). */
  async channelsWithin(from: Date, to: Date, pks?: number[]): Promise<number[]> {
    if (pks && !pks.length) return [];
    let q = this.db
      .selectFrom('recordings')
      .select('channel_pk')
      .distinct()
      .where('start_at', '>', new Date(from.getTime() - MAX_SEGMENT_MS).toISOString())
      .where('start_at', '<', to.toISOString())
      .where('end_at', '>', from.toISOString());
    if (pks) q = q.where('channel_pk', 'in', pks);
    return (await q.execute()).map((r) => r.channel_pk);
  }

  async setImportant(id: number, important: boolean) {
    await this.db.updateTable('recordings').set({ important: important ? 1 : 0 }).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('recordings').where('id', '=', id).execute();
  }
}
