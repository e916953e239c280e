/**
 * The set-up of the device-recording tests (records.test.ts, records-download.test.ts): a listening
 * app on fresh storage, initialised, its GB settings (UDP media on a free port range, a short
 * AckTimeout), and the TS device double registered with a one-camera catalog stored.
 */
import { startTestApp, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { freePort } from '../fixtures/camera.js';
import { GbDevice } from '../fixtures/gb-device.js';
import { answerQueries, makeCatalog } from '../fixtures/gb-device-answers.js';

export const DEV = '34020000001320000001';
export const CHN = '34020000001310000001';
const PW = 'pw123456';

export async function startRecordsRig(): Promise<{ t: TestApp; admin: string; dev: GbDevice }> {
  const t = await startTestApp({ listen: true });
  const admin = await initialise(t);
  const base = await freePort();
  await t.ctx.config.set('gb', { DevicePassword: PW, AckTimeout: 3, RtpPortMin: base, RtpPortMax: base + 20, MediaIP: '127.0.0.1', MediaTransport: 'UDP' });
  const dev = await GbDevice.start({ deviceId: DEV, password: PW, serverPort: t.ctx.gb.port });
  const answering = answerQueries(dev, { deviceId: DEV, catalog: makeCatalog(DEV, 1) });
  const reg = await dev.register();
  if (reg.status !== 200) throw new Error(`the device double's REGISTER got ${reg.status}`);
  await t.ctx.gbDevices.catalog.wait(DEV);
  await answering.idle();
  return { t, admin, dev };
}
