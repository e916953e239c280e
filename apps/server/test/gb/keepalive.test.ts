/**
 * Liveness with short timers: offline after KeepaliveCount missed keepalives (device, its channels,
 * the message log and a status event at once), back on the next keepalive; registration expiry is a
 * separate rule. TypeScript device double over UDP and TCP on loopback.
 *
 * The tests wait on the server's real timers (a 5 s keepalive rule, a 2 s registration), not on one
 * another: each starts its own app and device double (`gbRig`) and they run at once
 * (`describe.concurrent`), so the file lasts about its longest test, not the sum of all.
 */
import { describe, it, type TestContext } from 'vitest';
import { startTestApp, until, type TestApp } from '../helpers/index.js';
import { GbDevice } from '../fixtures/gb-device.js';
import type { DeviceStatusEvent } from '../../src/gb/index.js';
import { gbDeviceDetails } from '../../src/routes/api/gb-devices.js';

const DEV = '34020000001320000001';

/**
 * This test's app (GB settings `gb`), the device double over `transport` and the status events the
 * app sends, stopped when the test ends.
 */
async function gbRig({ onTestFinished }: TestContext, transport: 'UDP' | 'TCP', gb: Record<string, unknown>) {
  const t: TestApp = await startTestApp();
  onTestFinished(() => t.close());
  await t.ctx.config.set('gb', { DevicePassword: 'pw', ...gb });
  const events: DeviceStatusEvent[] = [];
  t.ctx.gb.onDeviceStatus((e) => events.push(e));
  const dev = await GbDevice.start({ deviceId: DEV, password: 'pw', serverPort: t.ctx.gb.port, transport });
  // The after-hooks run as a stack: the device double stops before the app closes.
  onTestFinished(() => dev.close());
  return { t, dev, events };
}

describe.concurrent.each(['UDP', 'TCP'] as const)('GB keepalive over %s', (transport) => {
  // The shortest rule the settings allow: offline after one missed 5 s keepalive.
  const SHORT = { KeepaliveTimeout: 5, KeepaliveCount: 1 };

  it('goes offline with its channels when keepalives stop, and comes back on the next one', async (ctx) => {
    const { expect } = ctx;
    const { t, dev, events } = await gbRig(ctx, transport, SHORT);
    expect((await dev.register()).status).toBe(200);
    // A channel of the device (the catalog is the second wave's): inserted as the catalog will.
    await t.ctx.db
      .insertInto('channels')
      .values({ channel_id: '34020000001310000001', parent_device_id: DEV, name: 'gate', online: 1, enable: 1, created_at: new Date().toISOString() })
      .execute();
    const started = Date.now();
    // The status event is sent once every write of the transition is done (device, channels, log):
    // wait for it rather than for the device row, which is written first.
    await until(() => events.length >= 2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    const row = await t.ctx.inventory.devices.get(DEV);
    expect(row?.online).toBe(0);
    expect(row!.status_reason).toBe('statusKeepaliveTimeout');
    // The device information says why in the answer's language (the row keeps the service's words).
    expect((await gbDeviceDetails(t.ctx, DEV, false, 'zh-CN'))?.StatusReason).toBe('心跳超时');
    expect((await gbDeviceDetails(t.ctx, DEV, false, 'en-US'))?.StatusReason).toBe('keepalive timeout');
    const ch = await t.ctx.db.selectFrom('channels').selectAll().where('parent_device_id', '=', DEV).executeTakeFirstOrThrow();
    expect(ch.online).toBe(0);
    expect(events.map((e) => [e.online, e.reason])).toEqual([
      [true, ''],
      [false, 'keepalive timeout'],
    ]);
    const offNews = await t.ctx.db.selectFrom('news').select(['channel_id', 'status']).where('status', '=', 'OFF').execute();
    expect(offNews.map((n) => n.channel_id).sort()).toEqual(['34020000001310000001', DEV].sort());
    // Still registered: the next keepalive brings device and channel back.
    expect((await dev.keepalive()).status).toBe(200);
    expect((await t.ctx.inventory.devices.get(DEV))?.online).toBe(1);
    expect((await t.ctx.db.selectFrom('channels').select('online').where('parent_device_id', '=', DEV).executeTakeFirstOrThrow()).online).toBe(1);
    expect(events.at(-1)).toEqual({ deviceId: DEV, online: true, reason: '' });
  }, 30_000);

  it('stays online while keepalives come', async (ctx) => {
    const { expect } = ctx;
    const { t, dev, events } = await gbRig(ctx, transport, SHORT);
    await dev.register();
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 2000));
      expect((await dev.keepalive()).status).toBe(200);
    }
    expect((await t.ctx.inventory.devices.get(DEV))?.online).toBe(1);
    expect(events.filter((e) => !e.online)).toEqual([]);
  }, 30_000);
});

describe.concurrent('GB registration expiry', () => {
  it('expires a registration apart from keepalives: offline and unregistered', async (ctx) => {
    const { expect } = ctx;
    const { t, dev } = await gbRig(ctx, 'UDP', { KeepaliveTimeout: 3600 });
    expect((await dev.register({ expires: 2 })).status).toBe(200);
    const row = await until(async () => {
      const d = await t.ctx.inventory.devices.get(DEV);
      return d?.online === 0 && d;
    });
    expect(row.status_reason).toBe('statusRegistrationExpired');
    expect(t.ctx.gb.session(DEV)).toBeUndefined();
    expect((await dev.keepalive()).status).toBe(403);
    // A new REGISTER brings it back.
    expect((await dev.register()).status).toBe(200);
    expect((await t.ctx.inventory.devices.get(DEV))?.online).toBe(1);
  }, 30_000);
});
