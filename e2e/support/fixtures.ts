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
 * `api` (a request context on the run's server) and `admin` (the admin's session, initialising a
 * fresh server) are worker-scoped: made once and kept by every file the worker runs. That is safe
 * because no spec ends the admin's session or changes its password (foundation.spec.ts logs out
 * only the session of its own page and uses neither fixture), and a failed test gets a new worker.
 *
 * Every spec takes `test` from here, foundation.spec.ts too: Playwright runs the files of one fixture
 * set together, so a file on the bare `test` would run apart from the others, out of name order, in a
 * worker of its own.
 *
 * The camera is not worker-scoped: it lives for its describe block, as each spec's camera did. Kept
 * for the whole run, every earlier spec's device would stay online on it and be probed every second
 * (CHANNEL_CHECK_INTERVAL=1), and a spec may stop it (live.spec.ts) or need other options.
 */
import { test as base, type APIRequestContext } from '@playwright/test';
import { addRtspDevice, adminSession, type Session } from './api';
import { startCamera, type Camera, type CameraOptions } from './camera';

export { expect } from '@playwright/test';

export const test = base.extend<object, { api: APIRequestContext; admin: Session }>({
  api: [
    async ({ playwright }, use) => {
      // The config's baseURL is a test option, out of a worker fixture's reach: the same address.
      const api = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
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
