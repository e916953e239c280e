/**
 * Migration 0005: status_reason held its writer's English words; it holds a REASONS key now (with a
 * channel's vars as JSON). A database of before keeps reading right: its rows are rewritten once.
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/index.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';
import { statusReasonText } from '../../src/services/inventory/status-reason.js';
import { createTestStorage, type TestStorage } from '../helpers/db.js';

let storage: TestStorage | undefined;
let db: Db | undefined;
afterEach(async () => {
  await db?.close();
  await storage?.cleanup();
  db = storage = undefined;
});

describe('migration 0005: the stored words become catalogue keys', () => {
  it('rewrites the channels and devices stored before it, and the answer reads them in both languages', async () => {
    storage = await createTestStorage();
    db = await openDatabase({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
    // Back to the schema of before, with rows as its writers stored them.
    await migrateTo(db.kysely, db.engine, '0004_gb');
    const now = new Date().toISOString();
    // The tables as they were before 0005 (the typed schema has status_reason_vars).
    const old = db.kysely as any;
    await old
      .insertInto('devices')
      .values([
        { device_id: 'cam', device_type: 'RTSP', created_at: now, status_reason: '' },
        { device_id: '34020000001320000001', device_type: 'GB28181', created_at: now, status_reason: 'keepalive timeout' },
      ])
      .execute();
    const words = [
      'connection refused',
      'timeout after 3000 ms',
      '404 Not Found',
      '401 Unauthorized (no supported authentication scheme)',
      'no such stream: NetStream.Play.StreamNotFound',
      'device offline',
      'catalog: video lost',
      'something no writer says',
      '',
    ];
    await old
      .insertInto('channels')
      .values(words.map((w, i) => ({ channel_id: String(i + 1), parent_device_id: 'cam', created_at: now, status_reason: w })))
      .execute();

    await migrateToLatest(db.kysely, db.engine);

    const rows = await db.kysely.selectFrom('channels').select(['channel_id', 'status_reason', 'status_reason_vars']).orderBy('id').execute();
    expect(rows.map((r) => [r.status_reason, r.status_reason_vars ? JSON.parse(r.status_reason_vars) : ''])).toEqual([
      ['connectionRefused', ''],
      ['statusNoAnswerWithin', { ms: '3000' }],
      ['statusAnswered', { status: '404', phrase: 'Not Found' }],
      ['statusUnauthorized', { status: '401', phrase: 'Unauthorized' }],
      ['statusNoSuchStream', { code: 'NetStream.Play.StreamNotFound' }],
      ['statusWithDevice', ''],
      ['statusCatalogVideoLost', ''],
      ['statusCheckFailed', ''],
      ['', ''],
    ]);
    const text = (i: number, lang: 'zh-CN' | 'en-US') => statusReasonText(rows[i].status_reason, rows[i].status_reason_vars, lang);
    expect([text(0, 'zh-CN'), text(1, 'zh-CN'), text(2, 'zh-CN'), text(3, 'en-US')]).toEqual([
      '连接被拒绝',
      '3000毫秒内无应答',
      '摄像机回应 404 Not Found',
      'the camera refused the user name or password (401 Unauthorized)',
    ]);
    const gb = await db.kysely.selectFrom('devices').select('status_reason').where('device_id', '=', '34020000001320000001').executeTakeFirstOrThrow();
    expect(gb.status_reason).toBe('statusKeepaliveTimeout');
  });
});
