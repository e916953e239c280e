/**
 * The set-up the specs share, as Playwright fixtures, so a spec shows only its own steps:
 *
 *   import { expect, test, useCameraDevice } from '../support/fixtures';
 *   test.describe('live video', () => {
 *     const cam = useCameraDevice('E2E live …');        // a camera and its device for this block
 *     test('plays', async ({ page, admin }) => {
 *       await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
 *     });
 *   });
 *
 * `server` (support/server.ts), `api` (a request context on it) and `admin` (the admin's session,
 * initialising the fresh server) are worker-scoped: every worker starts its own server, and the files
 * it runs share it, its admin session and its request context. The workers run files side by side:
 * a spec may change server-wide settings (GB28181 media, users, recording plans) for as long as it
 * runs and put them back, without reaching the file beside it on the other worker. `baseURL` is the
 * worker's server, for `page`, `request` and the contexts a test opens with `browser.newContext()`.
 * Sharing the session is safe because no spec ends the admin's session or changes its password
 * (foundation.spec.ts runs on a server of its own, below), and a failed test gets a new worker (and server).
 *
 * `serverOf` names whose server it is: a file that needs the first-run state (foundation.spec.ts
 * walks the wizard) sets `test.use({ serverOf: 'its name' })`, a worker option, so Playwright runs
 * it in a worker, and on a fresh server, of its own, whatever ran before.
 *
 * Every spec takes `test` from here: Playwright runs the files of one fixture set together, so a file
 * on the bare `test` would have no server.
 *
 * The camera is not worker-scoped: it lives for its describe block, as each spec's camera did. Kept
 * for the whole run, every earlier spec's device would stay online on it and be probed every second
 * (CHANNEL_CHECK_INTERVAL=1), and a spec may stop it (live.spec.ts) or need other options.
 */
import { test as base, type APIRequestContext } from '@playwright/test';
import { addRtspDevice, adminSession, type Session } from './api';
import { startCamera, type Camera, type CameraOptions } from './camera';
import { startServer, type E2eServer } from './server';

export { expect } from '@playwright/test';

interface WorkerFixtures {
  serverOf: string;
  server: E2eServer;
  api: APIRequestContext;
  admin: Session;
}

export const test = base.extend<object, WorkerFixtures>({
  serverOf: ['shared', { scope: 'worker', option: true }],
  server: [
    async ({ serverOf }, use) => {
      const server = await startServer(serverOf);
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
  api: [
    async ({ playwright, server }, use) => {
      const api = await playwright.request.newContext({ baseURL: server.baseURL });
      await use(api);
      await api.dispose();
    },
    { scope: 'worker' },
  ],
  admin: [async ({ api }, use) => use(await adminSession(api)), { scope: 'worker' }],
});

export interface CameraDevice {
  /** The device's DeviceID (its channel 1 is the camera). */
  readonly dev: string;
  /** The device's name, as the console lists it. */
  readonly name: string;
  /** The camera running now. */
  readonly camera: Camera;
  /** Starts a camera with these options in its place, the one before stopped first (same port: the device's address still holds). */
  startCamera(opts: CameraOptions): Promise<void>;
}

/**
 * A GStreamer camera and an RTSP device for it, made before the first test of the describe block
 * (or file) it is called in, the camera stopped after its last. Playwright runs the hooks of a block
 * in the order they are declared: a beforeAll the spec registers after this call runs once the
 * device is added, an afterAll after the camera stopped (the device is still there).
 */
export function useCameraDevice(name: string, opts: CameraOptions = {}): CameraDevice {
  let camera: Camera | undefined;
  let dev = '';
  const now = () => {
    if (!camera) throw new Error('useCameraDevice: the camera runs inside the tests and the beforeAll hooks declared after the call');
    return camera;
  };
  test.beforeAll(async ({ api, admin }) => {
    camera = await startCamera(opts);
    dev = await addRtspDevice(api, admin.Token, name, camera.url);
  });
  test.afterAll(async () => {
    const ending = camera;
    camera = undefined;
    await ending?.stop();
  });
  return {
    get dev() {
      if (!dev) throw new Error('useCameraDevice: the device is added before the first test (its beforeAll)');
      return dev;
    },
    name,
    get camera() {
      return now();
    },
    async startCamera(options) {
      await now().stop();
      camera = await startCamera(options);
    },
  };
}
