/**
 * A camera that stops and comes back while someone watches it (a wall cell, a recorder) plays again
 * within seconds of its return: the stream checker's probe that finds it answering tells the waiting
 * hub to connect now. The hub alone waited out its back-off, which reaches 30 s after half a minute
 * down: on a real server a wall cell came back 30 s after its camera did, while the video tree had
 * shown it online within 2 s.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_HUB_OPTIONS, type HubOptions, type HubState } from '../../src/media/hub.js';
import { startTestApp, until, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { startCamera, type Camera } from '../fixtures/camera.js';

/** The hub's back-off from its first failure: far longer than the test waits for the return. */
const BACK_OFF_MS = 60_000;

describe('a watched camera that comes back', () => {
  let t: TestApp | undefined;
  let cam: Camera | undefined;
  let unsubscribe: (() => void) | undefined;
  afterEach(async () => {
    unsubscribe?.();
    await t?.close();
    await cam?.stop();
    t = cam = unsubscribe = undefined;
  });

  it('plays again within seconds of the stream checker seeing it, not after the hub’s back-off', async () => {
    cam = await startCamera();
    t = await startTestApp({ overrides: { channelCheckInterval: 1 } });
    (t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = {
      ...DEFAULT_HUB_OPTIONS,
      retryMinMs: BACK_OFF_MS,
      retryMaxMs: BACK_OFF_MS,
    };
    const token = await initialise(t);
    const add = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token }, payload: { DeviceName: 'Gate', DeviceType: 'RTSP', RtspUrl: cam.url } });
    expect(add.statusCode, add.body).toBe(200);
    const deviceId = add.json().EasyDarwin.Body.DeviceID as string;
    const device = await t.ctx.inventory.devices.require(deviceId);
    const channel = await t.ctx.inventory.channels.require(deviceId, '1');

    // A viewer on the channel's main stream, as a wall cell's socket is.
    const hub = t.ctx.streams.open(device, channel, 0)!;
    const states: HubState[] = [];
    let units = 0;
    unsubscribe = hub.subscribe({ tracks: () => {}, unit: () => void units++, state: (s) => void states.push(s) });
    await until(() => hub.state === 'live' && units > 0, 15_000, { what: 'live' });

    await cam.stop();
    await until(() => hub.state === 'retrying', 15_000, { what: 'retrying once the camera stopped' });
    const port = cam.port;
    cam = await startCamera({ port });
    const back = Date.now();
    units = 0;
    await until(() => hub.state === 'live' && units > 0, 12_000, { what: 'live again without waiting out the 60 s back-off' });
    expect(Date.now() - back).toBeLessThan(12_000);
    // One more connection, not a loop of them: retrying → connecting → live.
    expect(states.slice(states.lastIndexOf('retrying'))).toEqual(['retrying', 'connecting', 'live']);
  }, 60_000);
});
