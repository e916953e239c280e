/**
 * A live GB stream whose session cannot start (here: the only RTP port of the range is taken) is
 * retried by its hub every few seconds, each time with a new GB source. Its words are logged once per
 * distinct failure until it is live (the hub's onFailure, as for every source), not warned again by
 * every retry's GB source.
 */
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { Channel, Device } from '../../src/db/schema.js';
import type { ConfigStore } from '../../src/services/config/store.js';
import { GbMediaService } from '../../src/gb/media/index.js';
import { StreamHub } from '../../src/media/hub.js';
import { freePort } from '../fixtures/camera.js';
import { until } from '../helpers/index.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a GB live session that cannot start', () => {
  it('is logged once across the hub’s retries, with the same words', async () => {
    const port = await freePort();
    const taken = dgram.createSocket('udp4');
    await new Promise<void>((r) => taken.bind(port, '0.0.0.0', () => r()));
    cleanups.push(() => taken.close());

    const warnings: string[] = [];
    const gb = { RtpPortMin: port, RtpPortMax: port, MediaTransport: 'UDP', MediaTransportMode: 'passive', MediaIP: '127.0.0.1', Host: '', AckTimeout: 5 };
    const media = new GbMediaService({
      config: { get: async () => gb } as unknown as ConfigStore,
      log: { info: () => undefined, warn: (o, m) => warnings.push(`${m} ${JSON.stringify(o)}`) },
    });
    media.setInviter({ invite: () => Promise.reject(new Error('no INVITE expected: the port is taken first')) });
    const device = { device_type: 'GB28181', device_id: '34020000001320000001', sip_local_ip: '' } as Device;
    const channel = { id: 1, channel_id: '34020000001310000001' } as Channel;

    const failures: string[] = [];
    const hub = new StreamHub('gb-start-failure', () => media.sourceFactory(device, channel, 0)!, {
      onDemand: false,
      graceMs: 60_000,
      retryMinMs: 0,
      retryMaxMs: 0,
      maxGopUnits: 10,
    });
    cleanups.push(() => hub.stop());
    hub.onFailure = (_h, words) => failures.push(words);
    await until(() => hub.stats.restarts >= 4, 15_000, { what: 'four failed starts' });

    expect(hub.why).toEqual({ key: 'gbMediaFailed' });
    expect(hub.reason).toMatch(/^no free UDP port for RTP/);
    expect(failures).toEqual([hub.reason]);
    expect(warnings).toEqual([]);
  });
});
