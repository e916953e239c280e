/**
 * sipp as the GB device (a real SIP peer) for the flows of issue 6's device management: an NVR that
 * registers and sends its catalog of 300 cameras in 75 paged MESSAGEs (stored as its channels), and a
 * camera raising alarms by MESSAGE and by NOTIFY (stored with priority, method, spec 3 type, time,
 * description and position). The platform's own requests reach sipp out of its call and are
 * answered 200 by answer-200.xml.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { hasSipp, runSipp } from './sipp.js';

const DEV = '34020000001180000001';
const CH = '34020000001310000001';
const PW = '12345678';
/** sipp's error log less the notes that the out-of-call scenario took the platform's requests (expected here). */
const realErrors = (log: string) =>
  log
    .replace(/The following events occurred:\n?/, '')
    .replace(/\S+\s+\S+\s+\S+: Received out-of-call \w+ message, using the out-of-call scenario/g, '')
    .trim();

describe.skipIf(!hasSipp).each(['UDP', 'TCP'] as const)('sipp device management over %s', (transport) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
    await t.ctx.config.set('gb', { DevicePassword: PW, AckTimeout: 2 });
  });
  afterEach(async () => t?.close());

  it('a catalog of 300 items in 75 pages is stored as the device’s channels', async () => {
    const r = await runSipp('catalog-300.xml', {
      port: t.ctx.gb.port,
      transport,
      deviceId: DEV,
      password: PW,
      keys: { domain: DEV.slice(0, 10), civil: DEV.slice(0, 6) },
      ooc: 'answer-200.xml',
      timeout: '60s',
    });
    expect(realErrors(r.errors)).toBe('');
    expect(r.code).toBe(0);
    const p = await t.ctx.gbDevices.catalog.wait(DEV);
    expect(p).toMatchObject({ Outcome: 'complete', Received: 300, SumNum: 300, Added: 300 });
    const rows = await t.ctx.db.selectFrom('channels').selectAll().where('parent_device_id', '=', DEV).orderBy('channel_id').execute();
    expect(rows).toHaveLength(300);
    expect(rows[0]).toMatchObject({ channel_id: '34020000001311000001', name: 'Camera 1000001', parent_id: '', parental: 0, manufacturer: 'Hikvision', online: 1 });
    expect(rows[299].channel_id).toBe('34020000001311000300');
  });

  it('an alarm MESSAGE and an alarm NOTIFY are answered 200 and stored', async () => {
    const r = await runSipp('alarm.xml', { port: t.ctx.gb.port, transport, deviceId: DEV, password: PW, keys: { channel: CH }, ooc: 'answer-200.xml' });
    expect(realErrors(r.errors)).toBe('');
    expect(r.code).toBe(0);
    const page = await t.ctx.alarms.list({}, 0, 10);
    expect(page.Total).toBe(2);
    const [video, motion] = page.Alarms;
    expect(motion).toMatchObject({ DeviceID: DEV, ChannelID: CH, AlarmPriority: 1, AlarmMethod: 5, AlarmType: 7, AlarmDescription: 'motion in zone 1', Longitude: 116.397, Latitude: 39.909 });
    expect(motion.AlarmTime).toBe(new Date('2026-11-22T08:00:01').toISOString());
    expect(video).toMatchObject({ AlarmPriority: 3, AlarmMethod: 2, AlarmType: 1, AlarmDescription: 'video loss' });
  });
});
