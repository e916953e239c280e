/**
 * The console's files: hashed assets are cached for good, index.html is always revalidated, and an
 * asset that is not there is a 404 (not the index page served as a script).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('console static files', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>t</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'entry-abc123.js'), 'console.log(1)');
    t = await startTestApp({ overrides: { webDist: dist } });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves hashed assets as immutable', async () => {
    const r = await t.app.inject({ url: '/assets/entry-abc123.js' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates index.html, also when served for a console route', async () => {
    const root = await t.app.inject({ url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.headers['cache-control']).toBe('no-cache');
    const route = await t.app.inject({ url: '/video/square/0' });
    expect(route.statusCode).toBe(200);
    expect(route.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 for an asset that is not there', async () => {
    const r = await t.app.inject({ url: '/assets/chunk-of-an-older-build.js' });
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).not.toMatch(/text\/html/);
  });
});
