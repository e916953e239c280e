/**
 * Where the inventory benchmark's calls spend their time, query by query
 * (`node --import tsx bench/inventory/explain.ts [--runs N]`; not part of `npm run bench`).
 *
 * The same data as run.ts (seed.ts) in a fresh SQLite file and a throwaway PostgreSQL; the server's
 * own services (DeviceService, ChannelService, LabelService) run in this process on a Kysely that
 * logs every query with its duration. For each call of the benchmark, as admin and as the operator
 * (scope: 10 labels), it prints the median time of each SQL statement over N runs (default 30,
 * after 5 warm-up runs) and, for the slowest statements, the plan: EXPLAIN QUERY PLAN on SQLite,
 * EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL. The group tree's two member queries live in the route
 * (apps/server/src/routes/api/labels.ts, group/children) and are repeated here as written there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { TREE_HIDDEN_TYPES } from '@opencvr/shared';
import { openDatabase } from '../../apps/server/src/db/index';
import type { Database } from '../../apps/server/src/db/schema';
import { ChannelService } from '../../apps/server/src/services/inventory/channels';
import { DeviceService } from '../../apps/server/src/services/inventory/devices';
import { LabelService } from '../../apps/server/src/services/inventory/labels';
import { roleLabelClosure, type Scope } from '../../apps/server/src/services/inventory/scope';
import type { NewsService } from '../../apps/server/src/services/news/news';
import { LABELS, labelName, MID_DEVICE, ROLE_LABELS, SEARCH, seedInventory, type Engine } from './seed';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 30;
const WARMUP = 5;
const PLANS_PER_CALL = 2;

const { startPostgres } = (await import(path.join(ROOT, 'scripts/pg.mjs'))) as {
  startPostgres(opts?: { log?: (m: string) => void }): Promise<{ url: string; stop(): Promise<void> }>;
};

const cleanups: Array<() => Promise<void> | void> = [];
async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (err) {
      console.error(`clean-up: ${(err as Error).message}`);
    }
  }
}
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => void cleanup().finally(() => process.exit(130)));

interface Logged {
  sql: string;
  params: readonly unknown[];
  ms: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function engineReport(engine: Engine) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-bench-explain-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  let url: string | undefined;
  if (engine === 'PostgreSQL') {
    const server = await startPostgres();
    cleanups.push(() => server.stop());
    url = server.url;
  }
  // Migrate exactly as the server does, then seed.
  const setup = await openDatabase({ dataDir, databaseUrl: url });
  const db = setup.kysely;
  const now = new Date().toISOString();
  const labelIds: number[] = [];
  for (let l = 0; l < LABELS; l++) {
    const row = await db
      .insertInto('labels')
      .values({ name: labelName(l), parent_id: 0, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    labelIds.push(row.id);
  }
  const role = await db
    .insertInto('roles')
    .values({ name: 'bench-operators', describe: '', builtin: 0, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('role_labels')
    .values(labelIds.slice(0, ROLE_LABELS).map((l) => ({ role_id: role.id, label_id: l })))
    .execute();
  await seedInventory(engine, db, labelIds, 9);
  await setup.close();

  // A logging Kysely on the same database, with the server's settings.
  let log: Logged[] = [];
  const onLog = (e: LogEvent) => {
    if (e.level === 'query') log.push({ sql: e.query.sql, params: e.query.parameters, ms: e.queryDurationMillis });
  };
  let explain: (q: Logged) => Promise<string>;
  let kysely: Kysely<Database>;
  if (engine === 'PostgreSQL') {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: onLog });
    explain = async (q) => {
      const r = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.params as unknown[]);
      return r.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
    };
  } else {
    const sqlite = new SQLite(path.join(dataDir, 'opencvr.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log: onLog });
    explain = async (q) =>
      (
        sqlite.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.params as unknown[])) as {
          id: number;
          parent: number;
          detail: string;
        }[]
      )
        .map((r) => {
          // Indent by depth.
          return `${r.parent ? '  ' : ''}${r.detail}`;
        })
        .join('\n');
  }
  const dbEngine = engine === 'PostgreSQL' ? 'postgres' : 'sqlite';
  const devices = new DeviceService(kysely, dbEngine);
  const channels = new ChannelService(kysely, dbEngine, {} as NewsService);
  const labels = new LabelService(kysely);

  const admin: Scope = { all: true };
  const operator: Scope = { all: false, roleId: role.id, labelIds: await roleLabelClosure(kysely, role.id) };
  const groupLabel = labelIds[0];
  const calls: { name: string; run: (scope: Scope) => Promise<unknown> }[] = [
    { name: 'devicesconfig page 1', run: (s) => devices.list(s, { start: 0, limit: 20 }, s.all) },
    { name: 'devicesconfig page 50', run: (s) => devices.list(s, { start: 980, limit: 20 }, s.all) },
    { name: 'channelsconfig', run: (s) => channels.list(s, { start: 0, limit: 20, device: MID_DEVICE }, 1, s.all, 'zh-CN') },
    {
      name: 'tree expand',
      run: (s) =>
        channels.list(s, { start: 0, limit: 50, device: MID_DEVICE, excludeDeviceTypes: TREE_HIDDEN_TYPES }, 1, s.all, 'zh-CN'),
    },
    {
      name: 'search',
      run: (s) =>
        channels.list(s, { start: 0, limit: 9999, q: SEARCH, excludeDeviceTypes: TREE_HIDDEN_TYPES }, 1, s.all, 'zh-CN'),
    },
    {
      name: 'group tree',
      run: async (s) => {
        // As GET /api/v1/group/children?labelid=…
        await labels.children(s, groupLabel);
        await kysely
          .selectFrom('label_devices')
          .innerJoin('devices', 'devices.id', 'label_devices.device_pk')
          .select([
            'devices.device_id',
            'devices.device_name',
            'devices.online',
            'devices.enable',
            'devices.device_type',
          ])
          .where('label_devices.label_id', '=', groupLabel)
          .where('devices.device_type', 'not in', [...TREE_HIDDEN_TYPES])
          .orderBy('devices.id')
          .execute();
        await kysely
          .selectFrom('label_channels')
          .innerJoin('channels', 'channels.id', 'label_channels.channel_pk')
          .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
          .select([
            'channels.id',
            'channels.parent_device_id',
            'channels.channel_id',
            'channels.name',
            'channels.online',
            'channels.enable',
            'channels.parental',
          ])
          .where('label_channels.label_id', '=', groupLabel)
          .where('devices.device_type', 'not in', [...TREE_HIDDEN_TYPES])
          .orderBy('channels.id')
          .execute();
      },
    },
  ];

  console.log(`\n################ ${engine} ################`);
  for (const [who, scope] of [
    ['admin', admin],
    ['operator', operator],
  ] as const) {
    for (const c of calls) {
      for (let i = 0; i < WARMUP; i++) await c.run(scope);
      const perQuery = new Map<string, { first: Logged; ms: number[] }>();
      const totals: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        log = [];
        const t0 = performance.now();
        await c.run(scope);
        totals.push(performance.now() - t0);
        for (const q of log) {
          const e = perQuery.get(q.sql) ?? { first: q, ms: [] };
          e.ms.push(q.ms);
          perQuery.set(q.sql, e);
        }
      }
      const rows = [...perQuery.values()].map((e) => ({ ...e, med: median(e.ms), perCall: e.ms.length / RUNS }));
      const inDb = rows.reduce((s, r) => s + r.med * r.perCall, 0);
      console.log(
        `\n=== ${engine} / ${who} / ${c.name}: ${median(totals).toFixed(2)} ms per call in-process (median of ${RUNS}), ${inDb.toFixed(2)} ms in ${rows.length} statements`,
      );
      for (const r of rows) {
        const text = r.first.sql.length > 400 ? `${r.first.sql.slice(0, 400)}…` : r.first.sql;
        console.log(`  ${r.med.toFixed(2).padStart(7)} ms  ${text}`);
      }
      const slow = rows
        .filter((r) => r.med >= 1)
        .sort((a, b) => b.med - a.med)
        .slice(0, PLANS_PER_CALL);
      for (const r of slow) {
        console.log(
          `\n  --- plan of the ${r.med.toFixed(2)} ms statement (params ${JSON.stringify(r.first.params).slice(0, 200)}):`,
        );
        console.log(`  SQL: ${r.first.sql}`);
        console.log((await explain(r.first)).replace(/^/gm, '    '));
      }
    }
  }
  await kysely.destroy();
}

let code = 0;
try {
  for (const engine of ['SQLite', 'PostgreSQL'] as const) await engineReport(engine);
} catch (err) {
  console.error((err as Error).stack ?? err);
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);
