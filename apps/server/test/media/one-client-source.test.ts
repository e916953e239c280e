/**
 * A source that serves one client at a time (ffmpeg's `-listen 1` RTMP server, many cheap cameras)
 * watched while the stream checker probes every second: each time it goes away and comes back, the
 * hub is live again within seconds and its first connection after the return gets the slot. The
 * checker's probe that finds the source back tells the hub to connect SOURCE_BACK_DELAY_MS later;
 * its next probe, one interval after, used to hold the only slot exactly then, again and again (the
 * e2e RTMP pull refused 1 run in 4, commit 72b5411). Real peers on loopback: the RTMP server double
 * behind a one-client gate (fixtures/one-client-gate.ts), the server's own RTMP client and checker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HubState } from '../../src/media/hub.js';
import { startTestApp, until, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { startRtmpServer, type RtmpServerDouble } from '../fixtures/rtmp-server.js';
import { startOneClientGate, type OneClientGate } from '../fixtures/one-client-gate.js';
import { readFlv } from '@opencvr/flv';
import fs from 'node:fs';

const FIXTURE = new URL('../fixtures/rtmp/h264-aac.flv', import.meta.url);
const CYCLES = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a one-client source the stream checker probes every second', () => {
  let t: TestApp | undefined;
  let server: RtmpServerDouble | undefined;
  let gate: OneClientGate | undefined;
  let unsubscribe: (() => void) | undefined;
  afterEach(async () => {
    unsubscribe?.();
    await t?.close();
    await gate?.close();
    await server?.close();
    t = server = gate = unsubscribe = undefined;
  });

  it('is live again within seconds of each return, its first connection never refused for a probe', async () => {
    // 1 s of H.264 + AAC per play, then quiet (well within the RTMP client's 15 s media timeout here).
    server = await startRtmpServer({ app: 'live', published: ['cam'], stream: readFlv(new Uint8Array(fs.readFileSync(FIXTURE))).tags });
    gate = await startOneClientGate(Number(new URL(server.url('live/cam')).port));
    t = await startTestApp({ overrides: { channelCheckInterval: 1 } });
    const token = await initialise(t);
    const add = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token }, payload: { DeviceName: 'One client', DeviceType: 'RTSP', RtspUrl: gate.url('rtmp', 'live/cam') } });
    expect(add.statusCode, add.body).toBe(200);
    const deviceId = add.json().EasyDarwin.Body.DeviceID as string;
    const device = await t.ctx.inventory.devices.require(deviceId);
    const channel = await t.ctx.inventory.channels.require(deviceId, '1');

    // A viewer, as a wall cell or the recorder is.
    const hub = t.ctx.streams.open(device, channel, 0)!;
    const states: HubState[] = [];
    let units = 0;
    unsubscribe = hub.subscribe({ tracks: () => {}, unit: () => void units++, state: (s) => void states.push(s) });
    await until(() => hub.state === 'live' && units > 0, 15_000, { what: () => `live at first (${states.join(' ')}; ${hub.reason}; gate refused ${gate!.refused})` });

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      await gate.down();
      await until(() => hub.state === 'retrying', 10_000, { what: `retrying once the source went (cycle ${cycle})` });
      // The checker still sees it gone (once the hub's quick retries are past: it waits 4 s by then).
      await until(async () => !(await t!.ctx.inventory.channels.require(deviceId, '1')).online, 10_000, { what: `offline (cycle ${cycle})` });

      const mark = states.length;
      units = 0;
      const back = Date.now();
      await gate.up();
      await until(() => hub.state === 'live' && units > 0, 10_000, { what: () => `live again (cycle ${cycle}; since the return: ${states.slice(mark).join(' ')}; gate refused ${gate!.refused})` });
      expect(Date.now() - back, `cycle ${cycle}`).toBeLessThan(5000);
      // One connection after the return, and it got the slot: connecting → live, no refusal.
      expect(states.slice(mark), `cycle ${cycle}`).toEqual(['connecting', 'live']);
      // Live: no probe beside it takes the slot (the viewer keeps receiving).
      await sleep(1500);
      expect(hub.state).toBe('live');
    }
    // The checker did probe the source: plays beyond the hub's own (one a cycle and the first).
    expect(server.plays.length - (CYCLES + 1)).toBeGreaterThanOrEqual(CYCLES);
  }, 120_000);
});
