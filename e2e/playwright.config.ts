/**
 * End-to-end tests in Debian's Chromium (never `playwright install`: it downloads a browser).
 * The global setup builds the server; each worker starts its own on a free port with a fresh data
 * folder (support/server.ts, the `server` fixture) and tests use relative URLs (baseURL, that
 * server). Run: `npm test -- --only e2e`, or `npx playwright test -c e2e/playwright.config.ts`.
 *
 * Two workers (E2E_WORKERS) take the files in the order of their names, a file at a time each
 * (fullyParallel off: a file's tests build on each other and share its cameras): most of a spec's
 * time is waiting on cameras, reconnects and recordings in real time, which the other worker fills.
 * A file keeps its worker's server to itself as far as state goes: what it changes server-wide
 * (GB settings, users, plans) it puts back before the next file; foundation.spec.ts, which needs the
 * first-run state, gets a worker and a server of its own (`serverOf`).
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
  workers: Number(process.env.E2E_WORKERS ?? 2),
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
    // baseURL: the worker's own server (the `baseURL` fixture, support/fixtures.ts).
    headless: true,
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
