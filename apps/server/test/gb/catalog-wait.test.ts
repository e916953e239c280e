/**
 * What wait() and status() report while a catalog answer is being stored: from its last page on, that
 * answer (still running), never the answer before it. Between the last page and the end of the store
 * (several round trips on PostgreSQL) they used to report the previous outcome, so fetchcatalog?wait=1
 * could answer with the catalog before, and catalog.test.ts's two-fetches test read the registration's
 * outcome (Added 122, Updated 0) in the PostgreSQL run of CI.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogProgress } from '@opencvr/shared';
import { GbDevice } from '../fixtures/gb-device.js';
import { answerQueries, makeCatalog } from '../fixtures/gb-device-answers.js';
import { useAdminApp } from '../api/admin-app.js';

const DEV = '34020000001320000001';
const PW = 'pw123456';

const devices: GbDevice[] = [];
const server = useAdminApp();
beforeEach(async () => {
  await server.t.ctx.config.set('gb', { DevicePassword: PW });
});
// Registered after useAdminApp(), so it runs first: the devices leave before the app closes.
afterEach(async () => {
  for (const d of devices.splice(0)) await d.close();
});

describe('catalog wait() and status() while an answer is stored', () => {
  it('from the last page on, wait() resolves with that answer and status() says it still runs', async () => {
    const catalog = server.t.ctx.gbDevices.catalog;
    const dev = await GbDevice.start({ deviceId: DEV, password: PW, serverPort: server.t.ctx.gb.port });
    devices.push(dev);
    const answering = answerQueries(dev, { deviceId: DEV, catalog: makeCatalog(DEV, 30), perPage: 10 });
    await dev.register();
    const first = await catalog.wait(DEV);
    await answering.idle();
    expect(first).toMatchObject({ Outcome: 'complete', Added: 30 });

    // Heard after the catalog service's own handler (hooked at start): each page has been taken, and on
    // the last one the answer has ended and its store has begun, not finished.
    const seen: { status: CatalogProgress | undefined; waited: Promise<CatalogProgress | undefined> }[] = [];
    const unhook = server.t.ctx.gb.onMessage('Catalog', () => {
      seen.push({ status: catalog.status(DEV), waited: catalog.wait(DEV) });
    });
    try {
      const started = await catalog.fetch(DEV);
      const second = await catalog.wait(DEV);
      await answering.idle();
      expect(second).toMatchObject({ SN: started.SN, Outcome: 'complete', Received: 30, Added: 0, Updated: 30 });
      expect(seen).toHaveLength(3);
      for (const s of seen) {
        expect(s.status).toMatchObject({ SN: started.SN, Running: true });
        expect(await s.waited).toMatchObject({ SN: started.SN, Outcome: 'complete', Added: 0, Updated: 30 });
      }
      expect(catalog.status(DEV)).toMatchObject({ SN: started.SN, Running: false, Outcome: 'complete' });
    } finally {
      unhook();
    }
  });
});
