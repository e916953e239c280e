/**
 * The set-up most API tests repeat: a fresh app per test (fresh storage), first-run initialisation
 * done, the admin's token, and calls bound to both. Call it at the top of a file or a describe block:
 * it registers that scope's beforeEach/afterEach itself.
 *
 *   const api = useAdminApp();
 *   it('...', async () => {
 *     expect((await api.get('/api/v1/getotherconfig')).statusCode).toBe(200);
 *     const op = await makeOperator(api.t, api.admin);
 *   });
 *
 * Hooks run as a stack: a beforeEach registered before useAdminApp() (a camera) runs before the app
 * starts, and its afterEach runs after the app has closed.
 */
import { afterEach, beforeEach } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Config } from '../../src/config/index.js';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { form, initialise } from './support.js';

export interface AdminApp {
  /** This test's app: read it inside a test or a hook registered after useAdminApp(). */
  readonly t: TestApp;
  /** The admin's token, logged in with the password set at initialisation. */
  readonly admin: string;
  /** GET with the token (the admin's unless given). */
  get(url: string, token?: string): Promise<LightMyRequestResponse>;
  /** GET with the token; the answer's EasyDarwin.Body. */
  body(url: string, token?: string): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each test reads its own shape
  /** POST of a JSON body with the token. */
  post(url: string, payload: object, token?: string): Promise<LightMyRequestResponse>;
  /** POST of a form-encoded body (as the console sends users, roles, config) with the token. */
  postForm(url: string, payload: Record<string, string | number | boolean>, token?: string): Promise<LightMyRequestResponse>;
}

export function useAdminApp(opts: { listen?: boolean; overrides?: Partial<Config> } = {}): AdminApp {
  let current: { t: TestApp; admin: string } | undefined;
  const now = () => {
    if (!current) throw new Error('useAdminApp: there is an app only inside a test and the hooks registered after useAdminApp()');
    return current;
  };
  beforeEach(async () => {
    const t = await startTestApp(opts);
    try {
      current = { t, admin: await initialise(t) };
    } catch (err) {
      await t.close();
      throw err;
    }
  });
  afterEach(async () => {
    const ending = current;
    current = undefined;
    await ending?.t.close();
  });
  const get = (url: string, token = now().admin) => now().t.app.inject({ url, headers: { token } });
  return {
    get t() {
      return now().t;
    },
    get admin() {
      return now().admin;
    },
    get,
    body: async (url, token) => (await get(url, token)).json().EasyDarwin.Body,
    post: (url, payload, token = now().admin) => now().t.app.inject({ method: 'POST', url, payload, headers: { token } }),
    postForm: (url, payload, token = now().admin) => now().t.app.inject({ method: 'POST', url, ...form(payload, token) }),
  };
}
