/**
 * The INVITEs one GB28181 device gets at once (gb/invite/queue.ts): at most DEFAULT_INVITE_QUEUE.perDevice
 * open transactions when an NVR's always-on channels come online, the rest sent in turn; a 486 cools
 * the device down (its reason in both languages) and the retry waits for the cool-down; an INVITE
 * still waiting when its hub stops is never sent; a device that stops answering INVITEs is sent one
 * at a time until it answers again.
 * Source: the GB device double (registration, a catalog of many cameras, INVITEs answered with PS over
 * RTP, its open INVITE transactions counted).
 */
import { reason } from '@opencvr/shared';
import { header, userOf } from '@opencvr/sip';
import { describe, it, type TestContext } from 'vitest';
import { DEFAULT_INVITE_QUEUE } from '../../src/gb/invite/queue.js';
import type { GbInviteError } from '../../src/gb/invite/client.js';
import { streamKey } from '../../src/services/media/streams.js';
import { until } from '../helpers/index.js';
import { channelStream, CH, DEV, startRig, view, type GbRig } from './invite-support.js';

const BOUND = DEFAULT_INVITE_QUEUE.perDevice;

/**
 * A rig for this test only (startRig's: its own app, SIP port and device double), closed when the test
 * ends: the tests wait on the double's timers and the queue's, not on one another, and run at once.
 */
async function rigFor(onTestFinished: TestContext['onTestFinished'], o: Parameters<typeof startRig>[0] = {}): Promise<GbRig> {
  const r = await startRig(o);
  onTestFinished(() => r.close());
  return r;
}

async function channelsOf(r: GbRig) {
  const device = await r.t.ctx.db.selectFrom('devices').selectAll().where('device_id', '=', DEV).executeTakeFirstOrThrow();
  const channels = await r.t.ctx.db.selectFrom('channels').selectAll().where('parent_device_id', '=', DEV).orderBy('channel_id').execute();
  return { device, channels };
}

const offline = (r: GbRig) => until(() => !r.t.ctx.gb.session(DEV)?.online, 20_000, { what: 'the device offline' });

describe.concurrent('INVITEs to one device', () => {
  it(`32 always-on channels coming online: never more than ${BOUND} INVITE transactions open at the device, all channels live in the end`, async ({ expect, onTestFinished }) => {
    // The device takes a while over each INVITE, as an NVR does, so INVITEs sent together overlap.
    const r = await rigFor(onTestFinished, { cameras: 32, media: { delayMs: 200 }, graceMs: 30_000 });
    expect((await r.dev.unregister()).status).toBe(200);
    await offline(r);
    await r.t.ctx.db.updateTable('channels').set({ on_demand: 0 }).where('parent_device_id', '=', DEV).execute();
    await r.t.ctx.alwaysOn.reconcile();
    expect(r.media.invites).toHaveLength(0);

    // It registers: all 32 are INVITEd, BOUND at a time.
    expect((await r.dev.register()).status).toBe(200);
    const { channels } = await channelsOf(r);
    expect(channels).toHaveLength(32);
    await until(() => channels.every((c) => r.t.ctx.streams.get(streamKey(c.id, 0))?.state === 'live'), 90_000, { what: 'all 32 channels live' });
    expect(r.media.maxInFlight).toBeLessThanOrEqual(BOUND);
    expect(r.media.maxInFlight).toBeGreaterThan(1);
    expect(new Set(r.media.invites.map((i) => userOf(header(i, 'To'))))).toEqual(new Set(channels.map((c) => c.channel_id)));
    expect(r.t.ctx.gbInvite.queue.state(DEV)).toMatchObject({ inFlight: 0, waiting: 0 });
  }, 120_000);

  it('a 486 Busy Here: the reason says the device is busy in both languages; the retry waits for the cool-down and plays', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { media: { status: 486 }, graceMs: 30_000 });
    const err = (await r.t.ctx.gbInvite
      .invite({ deviceId: DEV, channelId: CH, session: 'Play', offer: { ip: '127.0.0.1', port: 40000, transport: 'udp' }, onEnded: () => undefined })
      .catch((e: unknown) => e)) as GbInviteError;
    expect(err).toMatchObject({ code: 'refused', status: 486 });
    const seconds = DEFAULT_INVITE_QUEUE.busyMinMs / 1000;
    expect(reason(err.why!.key, 'zh-CN', err.why!.vars)).toBe(`设备繁忙，拒绝了通道 ${CH} 的 INVITE（486 Busy Here），${seconds}秒后再向该设备发送 INVITE`);
    expect(reason(err.why!.key, 'en-US', err.why!.vars)).toBe(
      `the device is busy and refused the INVITE for channel ${CH} (486 Busy Here): it is asked again in ${seconds} s`,
    );
    const { busyUntil } = r.t.ctx.gbInvite.queue.state(DEV);
    expect(busyUntil).toBeGreaterThan(0);

    // The device is willing again; a viewer's INVITE waits for the cool-down, then the stream plays.
    const arrived: number[] = [];
    r.dev.listeners.add((req) => {
      if (req.method === 'INVITE') arrived.push(Date.now());
    });
    r.media.set({});
    const { URL, Stream } = await channelStream(r);
    const got = await view(r, URL, 2);
    expect(got.binary.length).toBeGreaterThanOrEqual(2);
    expect(r.t.ctx.streams.get(Stream)?.state).toBe('live');
    expect(r.media.invites).toHaveLength(2);
    expect(arrived).toHaveLength(1);
    expect(arrived[0]).toBeGreaterThanOrEqual(busyUntil);
  });

  it('an INVITE waiting for its turn is dropped when its hub stops: the device never gets it', async ({ expect, onTestFinished }) => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const r = await rigFor(onTestFinished, { cameras: BOUND + 1, media: { hold }, graceMs: 30_000 });
    const { device, channels } = await channelsOf(r);
    const hubs = channels.map((c) => r.t.ctx.streams.open(device, c, 0)!);
    await until(() => r.media.inFlight === BOUND && r.t.ctx.gbInvite.queue.state(DEV).waiting === 1, 15_000, {
      what: `${BOUND} INVITEs open and one waiting`,
    });
    const invited = new Set(r.media.invites.map((i) => userOf(header(i, 'To'))));
    const waitingIndex = channels.findIndex((c) => !invited.has(c.channel_id));
    expect(waitingIndex).toBeGreaterThanOrEqual(0);

    hubs[waitingIndex].stop('test: the viewer left');
    expect(r.t.ctx.gbInvite.queue.state(DEV)).toMatchObject({ inFlight: BOUND, waiting: 0 });
    release();
    await until(() => hubs.every((h, i) => i === waitingIndex || h.state === 'live'), 30_000, { what: 'the other channels live' });
    expect(r.media.invites).toHaveLength(BOUND);
    expect(r.media.invites.map((i) => userOf(header(i, 'To')))).not.toContain(channels[waitingIndex].channel_id);
    expect(r.t.ctx.gbInvite.queue.state(DEV)).toMatchObject({ inFlight: 0, waiting: 0 });
  });

  it('a device that stops answering INVITEs is sent one at a time, each after the last one’s AckTimeout, until it answers again', async ({ expect, onTestFinished }) => {
    const cameras = BOUND + 2;
    const r = await rigFor(onTestFinished, { cameras, media: { silent: true }, gb: { AckTimeout: 1 }, graceMs: 30_000 });
    const queue = r.t.ctx.gbInvite.queue;
    // Each INVITE as the device gets it: when, and how many the platform has open with it then.
    const arrivals: { at: number; open: number }[] = [];
    r.dev.listeners.add((req) => {
      if (req.method === 'INVITE') arrivals.push({ at: Date.now(), open: queue.state(DEV).inFlight });
    });
    const { device, channels } = await channelsOf(r);
    const hubs = channels.map((c) => r.t.ctx.streams.open(device, c, 0)!);
    await until(() => arrivals.length >= BOUND + 3, 30_000, { what: `${BOUND + 3} INVITEs at the silent device` });
    // The first BOUND went together; after them, never a second one before the last got its AckTimeout
    // (before, the BOUND silent turns went to the next BOUND waiting INVITEs at once).
    const later = arrivals.slice(BOUND);
    for (const [i, a] of later.entries()) {
      expect(a.open, `INVITE ${BOUND + i + 1}`).toBe(1);
      expect(a.at - arrivals[BOUND + i - 1].at, `INVITE ${BOUND + i + 1}`).toBeGreaterThanOrEqual(1000);
    }
    expect(queue.state(DEV).suspect).toBe(true);

    // It answers again: the next INVITE's 200 trusts it with BOUND at a time, and every channel plays.
    r.media.set({});
    await until(() => hubs.every((h) => h.state === 'live'), 60_000, { what: 'every channel live' });
    expect(queue.state(DEV)).toMatchObject({ suspect: false, inFlight: 0, waiting: 0 });
  }, 90_000);
});
