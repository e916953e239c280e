/**
 * A 10,000-item GB28181 catalog (issue 6 figure "catalog of 10,000 items ingested (time)", goal "a
 * 10,000-item catalog stored within 10 s").
 *
 * Catalog: 20 business-group directories (215) under the device and 9,980 cameras (131) spread under
 * them, every field a Hikvision NVR fills (the device double's makeCatalog).
 *
 * 1. Store: gb/catalog/store.ts storeCatalog() on a fresh SQLite database (migrated as the server's,
 *    WAL, synchronous NORMAL): first the 10,000 inserts, then the same catalog again (all updates).
 *    Baseline in the same run: the same rows upserted one statement per row in one transaction (what
 *    a per-item handler does).
 * 2. End to end over SIP: the server in its own process (SQLite, loopback UDP); the TypeScript device
 *    double registers, gets the platform's catalog query and answers it as devices on UDP do: pages
 *    kept under 1,300 bytes (a few items each, one MESSAGE per page, 8 in flight). Measured from the
 *    REGISTER to catalogstatus reporting the answer stored (the query, every page's transaction, the
 *    aggregation and the store).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { decodeManscdp, encodeCatalogPages, type CatalogItem } from '@opencvr/manscdp';
import { openDatabase } from '../../apps/server/src/db/index';
import { storeCatalog } from '../../apps/server/src/gb/catalog/store';
import { GbDevice } from '../../apps/server/test/fixtures/gb-device';
import { answerQueries, makeCatalog } from '../../apps/server/test/fixtures/gb-device-answers';
import type { Figure } from '../lib/figures';
import { call, freePort, initialise, startServer } from '../lib/server';

const DEV = '34020000001110000001';
const ITEMS = 10_000;
const GOAL = '< 10000 ms';

/** The catalog as the platform decodes it (pages through the real encoder and decoder). */
function decodedCatalog(): CatalogItem[] {
  const pages = encodeCatalogPages({ sn: 1, deviceId: DEV, items: makeCatalog(DEV, ITEMS - 20, { dirs: 20 }), perPage: 500 });
  return pages.flatMap((p) => {
    const d = decodeManscdp(p.bytes);
    if (!d.ok || d.message.kind !== 'catalog') throw new Error('catalog page did not decode');
    return d.message.items;
  });
}

async function freshDb(label: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `opencvr-bench-catalog-${label}-`));
  const db = await openDatabase({ dataDir: dir });
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('devices')
    .values({ device_id: DEV, device_name: 'NVR', device_type: 'GB28181', online: 1, enable: 1, created_at: now })
    .execute();
  return {
    db,
    close: async () => {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function measureStore(items: CatalogItem[]) {
  const a = await freshDb('batched');
  let t0 = performance.now();
  const first = await storeCatalog(a.db.kysely, DEV, items, { complete: true, defaultOnline: true });
  const insertMs = performance.now() - t0;
  t0 = performance.now();
  const again = await storeCatalog(a.db.kysely, DEV, items, { complete: true, defaultOnline: true });
  const updateMs = performance.now() - t0;
  if (first.added !== ITEMS || again.updated !== ITEMS) throw new Error(`store: added ${first.added}, updated ${again.updated}`);
  await a.close();

  // Baseline: one upsert statement per row, in one transaction.
  const b = await freshDb('per-row');
  t0 = performance.now();
  await b.db.kysely.transaction().execute(async (trx) => {
    let n = 0;
    for (const i of items) {
      const now = new Date().toISOString();
      await trx
        .insertInto('channels')
        .values({
          channel_id: i.deviceId,
          parent_device_id: DEV,
          name: i.name ?? i.deviceId,
          online: 1,
          enable: 1,
          created_at: now,
          updated_at: now,
          channel_num: ++n,
          parent_id: i.parentId === DEV ? '' : (i.parentId ?? ''),
          parental: i.parental ?? 0,
          manufacturer: i.manufacturer ?? '',
          model: i.model ?? '',
          owner: i.owner ?? '',
          civil_code: i.civilCode ?? '',
          address: i.address ?? '',
          status: i.status ?? '',
          longitude: i.longitude ?? null,
          latitude: i.latitude ?? null,
          from_catalog: 1,
        })
        .onConflict((oc) => oc.columns(['parent_device_id', 'channel_id']).doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), updated_at: eb.ref('excluded.updated_at') })))
        .execute();
    }
  });
  const perRowMs = performance.now() - t0;
  await b.close();
  return { insertMs, updateMs, perRowMs };
}

async function measureOverSip(): Promise<{ ms: number; pages: number; outcome: string }> {
  const sipPort = await freePort();
  const server = await startServer({ label: 'catalog', env: { SIP_PORT: String(sipPort) } });
  const session = await initialise(server.url);
  const dev = await GbDevice.start({ deviceId: DEV, password: 'Sip12345', serverPort: sipPort });
  try {
    const items = makeCatalog(DEV, ITEMS - 20, { dirs: 20 });
    const answering = answerQueries(dev, { deviceId: DEV, catalog: items, maxBytes: 1300, window: 8 });
    const t0 = performance.now();
    const reg = await dev.register();
    if (reg.status !== 200) throw new Error(`REGISTER answered ${reg.status}`);
    type Status = { Running?: boolean; Outcome?: string; Received?: number };
    const deadline = Date.now() + 180_000;
    for (;;) {
      const b = await call<Status>(server.url, `/api/v1/devices/catalogstatus?device=${DEV}`, { headers: { token: session.Token } });
      if (b.Running === false && b.Outcome) {
        const ms = performance.now() - t0;
        await answering.idle();
        return { ms, pages: answering.pageAnswers.length, outcome: `${b.Outcome} (${b.Received} items)` };
      }
      if (Date.now() > deadline) throw new Error('catalog over SIP: no outcome within 180 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await dev.close();
    await server.stop();
  }
}

export async function measureCatalog(): Promise<Figure[]> {
  const items = decodedCatalog();
  const store = await measureStore(items);
  const sip = await measureOverSip();
  console.log(
    `[gb28181] catalog: store ${store.insertMs.toFixed(0)} ms (insert), ${store.updateMs.toFixed(0)} ms (update), ` +
      `${store.perRowMs.toFixed(0)} ms one statement per row; over SIP ${sip.ms.toFixed(0)} ms, ${sip.pages} pages, ${sip.outcome}`,
  );
  return [
    { name: 'catalog 10,000 items stored (batched upsert, SQLite)', value: Math.round(store.insertMs), unit: 'ms', baseline: Math.round(store.perRowMs), goal: GOAL },
    { name: 'catalog 10,000 items re-stored (all updates, SQLite)', value: Math.round(store.updateMs), unit: 'ms', baseline: Math.round(store.perRowMs), goal: GOAL },
    { name: 'catalog 10,000 items over SIP/UDP: REGISTER to stored', value: Math.round(sip.ms), unit: 'ms', baseline: null, goal: GOAL },
  ];
}
