/**
 * AlwaysOnChannels against a real database with its streams counted instead of opened: which channels
 * it opens (enabled always-on cameras of enabled devices, GB ones only while their device is online),
 * that a pass opens them `burst` at a time with a pause between, and that running main-stream hubs follow OnDemand.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/db/index.js';
import type { StreamHub } from '../../src/media/hub.js';
import { AlwaysOnChannels } from '../../src/services/media/always-on.js';
import { streamKey } from '../../src/services/media/streams.js';
import { useSeededDb } from '../helpers/index.js';

let db: Db;
useSeededDb((d) => (db = d));

const now = new Date().toISOString();
async function device(id: string, type: string, enable = 1) {
  await db.kysely.insertInto('devices').values({ device_id: id, device_name: id, device_type: type, online: 1, enable, created_at: now }).execute();
}
async function channel(device: string, id: string, o: { on_demand?: number; enable?: number; parental?: number } = {}) {
  const row = await db.kysely
    .insertInto('channels')
    .values({ channel_id: id, parent_device_id: device, name: id, online: 1, enable: o.enable ?? 1, on_demand: o.on_demand ?? 0, parental: o.parental ?? 0, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A hub as the service sees it: its key, state and viewers; what it is told is recorded. */
function stubHub(key: string, viewers = 0) {
  return { key, state: 'live', viewers, setOnDemand: vi.fn(), stop: vi.fn() };
}
type Stub = ReturnType<typeof stubHub>;

function service(o: { online?: string[]; hubs?: Stub[] } = {}) {
  const opened: number[] = [];
  const pauses: number[] = [];
  const hubs = o.hubs ?? [];
  const svc = new AlwaysOnChannels(
    {
      db: db.kysely,
      open: (_d, c) => {
        opened.push(c.id);
        const hub = stubHub(streamKey(c.id, 0));
        hubs.push(hub);
        return hub as unknown as StreamHub;
      },
      hubs: () => hubs as unknown as StreamHub[],
      gbOnline: (id) => (o.online ?? []).includes(id),
      log: { info: () => undefined, warn: () => undefined },
      sleep: async () => void pauses.push(opened.length),
    },
    { burst: 10, paceMs: 100, tickMs: 60_000 },
  );
  return { svc, opened, pauses, hubs };
}

describe('AlwaysOnChannels', () => {
  it('opens enabled always-on cameras of enabled devices, GB ones only while online, 10 at a time', async () => {
    await device('rtsp1', 'RTSP');
    const always: number[] = [];
    for (let i = 0; i < 24; i++) always.push(await channel('rtsp1', `c${i}`));
    await channel('rtsp1', 'ondemand', { on_demand: 1 });
    await channel('rtsp1', 'disabled', { enable: 0 });
    await channel('rtsp1', 'folder', { parental: 1 });
    await device('rtsp2', 'RTSP', 0);
    await channel('rtsp2', 'of-disabled-device');
    await device('34020000001320000001', 'GB28181');
    always.push(await channel('34020000001320000001', '34020000001310000001'));
    await device('34020000001320000002', 'GB28181');
    await channel('34020000001320000002', '34020000001310000002');

    const { svc, opened, pauses } = service({ online: ['34020000001320000001'] });
    await svc.start();
    await svc.stop();
    expect(opened.sort((a, b) => a - b)).toEqual(always);
    // A pause after every 10 opens: 25 streams in three bursts.
    expect(pauses).toEqual([10, 20]);
  });

  it('a pass opens only what is not running, and running hubs follow OnDemand and the GB device state', async () => {
    await device('rtsp1', 'RTSP');
    const running = await channel('rtsp1', 'running');
    const missing = await channel('rtsp1', 'missing');
    const nowOnDemand = await channel('rtsp1', 'now-on-demand', { on_demand: 1 });
    await device('34020000001320000002', 'GB28181');
    const gbUnwatched = await channel('34020000001320000002', '34020000001310000001');
    const gbWatched = await channel('34020000001320000002', '34020000001310000002');
    const hubs = {
      running: stubHub(streamKey(running, 0)),
      nowOnDemand: stubHub(streamKey(nowOnDemand, 0), 1),
      sub: stubHub(streamKey(running, 1), 1),
      variant: stubHub(`${streamKey(running, 0)}_h264`, 1),
      gbUnwatched: stubHub(streamKey(gbUnwatched, 0)),
      gbWatched: stubHub(streamKey(gbWatched, 0), 1),
    };
    const { svc, opened } = service({ hubs: Object.values(hubs) });
    await svc.start();
    await svc.stop();

    expect(opened).toEqual([missing]);
    expect(hubs.running.setOnDemand).toHaveBeenCalledWith(false);
    expect(hubs.nowOnDemand.setOnDemand).toHaveBeenCalledWith(true);
    // Always-on is the main stream's: a sub stream or a variant is left on-demand.
    expect(hubs.sub.setOnDemand).not.toHaveBeenCalled();
    expect(hubs.variant.setOnDemand).not.toHaveBeenCalled();
    // The GB device is offline: its unwatched stream stops, the watched one is on-demand again.
    // With a reason the user reads in their language (getchannelstream, streamstat), not only the log's words.
    expect(hubs.gbUnwatched.stop).toHaveBeenCalledWith('the device is offline', { key: 'streamGbDeviceOffline' });
    expect(hubs.gbWatched.stop).not.toHaveBeenCalled();
    expect(hubs.gbWatched.setOnDemand).toHaveBeenCalledWith(true);
  });

  it('a held channel (stopstream) is not opened and its running hub is on-demand; the hold ends when it is no candidate or its GB device is offline', async () => {
    await device('rtsp1', 'RTSP');
    const held = await channel('rtsp1', 'held');
    const watched = await channel('rtsp1', 'held-watched');
    const disabledLater = await channel('rtsp1', 'disabled-later');
    const gbId = '34020000001320000003';
    await device(gbId, 'GB28181');
    const gb = await channel(gbId, '34020000001310000003');
    const online = [gbId];
    const viewerHub = stubHub(streamKey(watched, 0), 1);
    const { svc, opened } = service({ online, hubs: [viewerHub] });
    for (const pk of [held, watched, disabledLater, gb]) svc.hold(pk);

    await svc.start();
    expect(opened).toEqual([]);
    expect(viewerHub.setOnDemand).toHaveBeenCalledWith(true);
    expect(viewerHub.stop).not.toHaveBeenCalled();

    // Disabled: no candidate, the hold ends; enabled again it opens as always-on does.
    await db.kysely.updateTable('channels').set({ enable: 0 }).where('id', '=', disabledLater).execute();
    await svc.reconcile();
    expect(svc.isHeld(disabledLater)).toBe(false);
    await db.kysely.updateTable('channels').set({ enable: 1 }).where('id', '=', disabledLater).execute();
    // The GB device goes offline and comes back: its channel starts afresh.
    online.length = 0;
    await svc.reconcile();
    expect(svc.isHeld(gb)).toBe(false);
    online.push(gbId);
    await svc.reconcile();
    expect(opened.sort((a, b) => a - b)).toEqual([disabledLater, gb]);

    // An edit releases a hold (release); the others still hold.
    svc.release([held]);
    await svc.reconcile();
    await svc.stop();
    expect(opened.sort((a, b) => a - b)).toEqual([held, disabledLater, gb]);
    expect(svc.isHeld(watched)).toBe(true);
  });

  describe('the regular pass sleeps while there is nothing to follow (issue 4)', () => {
    afterEach(() => vi.useRealTimers());
    /** The regular pass armed by the timer, run to its end. */
    async function tick(svc: AlwaysOnChannels) {
      vi.advanceTimersByTime(60_000);
      await (svc as unknown as { passes: { idle(): Promise<void> } }).passes.idle();
    }

    it('no always-on channel and no stream: no timer; one added (an inventory change) is opened, and followed every tickMs after', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
      await device('rtsp1', 'RTSP');
      await channel('rtsp1', 'on-demand', { on_demand: 1 });
      const { svc, opened, hubs } = service();
      await svc.start();
      expect(svc.armed).toBe(false);
      expect(vi.getTimerCount()).toBe(0);

      const always = await channel('rtsp1', 'always');
      await svc.reconcile();
      expect(opened).toEqual([always]);
      expect(svc.armed).toBe(true);
      // Its hub stopped (an edit of its source): the next regular pass opens it again.
      hubs[0].state = 'stopped';
      await tick(svc);
      expect(opened).toEqual([always, always]);
      expect(svc.armed).toBe(true);

      // On-demand again and its stream gone: asleep once more.
      await db.kysely.updateTable('channels').set({ on_demand: 1 }).where('id', '=', always).execute();
      hubs.length = 0;
      await svc.reconcile();
      expect(svc.armed).toBe(false);
      await svc.stop();
    });

    it('a main-stream hub running (a viewer of an on-demand channel) keeps the pass, which follows its OnDemand; a failed pass is tried again', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
      await device('rtsp1', 'RTSP');
      const folder = await channel('rtsp1', 'folder', { parental: 1 });
      const viewed = stubHub(streamKey(folder, 0), 1);
      const { svc } = service({ hubs: [viewed] });
      await svc.start();
      expect(viewed.setOnDemand).toHaveBeenLastCalledWith(true);
      expect(svc.armed).toBe(true);
      viewed.setOnDemand.mockClear();
      await tick(svc);
      expect(viewed.setOnDemand).toHaveBeenCalledWith(true);
      await svc.stop();
      expect(vi.getTimerCount()).toBe(0);

      // A pass that fails (the database away) arms the next one though there is nothing else to follow.
      const failing = new AlwaysOnChannels(
        {
          db: { selectFrom: () => { throw new Error('database away'); } } as unknown as typeof db.kysely, // prettier-ignore
          open: () => undefined,
          hubs: () => [],
          gbOnline: () => false,
          log: { info: () => undefined, warn: () => undefined },
        },
        { burst: 10, paceMs: 100, tickMs: 60_000 },
      );
      await failing.start();
      expect(failing.armed).toBe(true);
      await failing.stop();
      expect(failing.armed).toBe(false);
    });
  });
});
