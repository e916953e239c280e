/**
 * End-to-end tests in Debian's Chromium (never `playwright install`: it downloads a browser).
 * The global setup starts the server on a free port with a fresh data folder; tests use relative
 * URLs (baseURL). Run: `npm test -- --only e2e`, or `npx playwright test -c e2e/playwright.config.ts`.
 *
 * One worker runs the files in the order of their names, on one server: foundation.spec.ts walks the
 * first-run wizard, so it needs the server before anything initialises it, and no file may sort
 * before it (the others accept a fresh or an initialised server).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = process.env.E2E_OUTPUT_DIR ?? path.join(here, '..', 'test-results', 'e2e');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: path.join(here, 'tests'),
  outputDir: path.join(outDir, 'artifacts'),
  globalSetup: path.join(here, 'global-setup.ts'),
  workers: 1,
  // npm test sets one retry (E2E_RETRIES) and lists every test that needed it as flaky.
  retries: Number(process.env.E2E_RETRIES ?? 0),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: process.env.E2E_JSON_OUTPUT
    ? [['list'], ['json', { outputFile: process.env.E2E_JSON_OUTPUT }]]
    : [['list']],
  use: {
    // Set by global-setup.ts; the workers inherit it.
    baseURL: process.env.E2E_BASE_URL,
    headless: true,
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
