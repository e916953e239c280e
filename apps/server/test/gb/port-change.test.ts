/** A new SIP Port saved in the GB settings takes effect without a restart. */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { GbDevice } from '../fixtures/gb-device.js';
import { freePort } from '../fixtures/camera.js';

const DEV = '34020000001320000077';
const PASSWORD = '12345678';

describe('GB SIP port change', () => {
  let t: TestApp | undefined;
  const devices: GbDevice[] = [];
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.close()));
    await t?.close();
  });

  it('moves UDP and TCP to the new Port; a device registers there', async () => {
    // No SIP_PORT: the gb section's Port decides (the default 15060 may be taken on this machine).
    t = await startTestApp({ overrides: { sipPort: undefined } });
    await t.ctx.config.set('gb', { DevicePassword: PASSWORD });
    const port = await freePort();
    await t.ctx.config.set('gb', { Port: port });
    await expect.poll(() => t!.ctx.gb.port, { timeout: 10_000 }).toBe(port);
    for (const transport of ['UDP', 'TCP'] as const) {
      const dev = await GbDevice.start({ deviceId: DEV, password: PASSWORD, serverPort: port, transport });
      devices.push(dev);
      expect((await dev.register()).status).toBe(200);
    }
  });

  it('SIP_PORT wins over a changed Port', async () => {
    t = await startTestApp();
    const before = t.ctx.gb.port;
    expect(before).toBeGreaterThan(0);
    await t.ctx.config.set('gb', { Port: await freePort() });
    await new Promise((r) => setTimeout(r, 300));
    expect(t.ctx.gb.port).toBe(before);
  });
});
