/**
 * The console's files: hashed assets are cached for good, index.html is always revalidated, and an
 * asset that is not there is a 404 (not the index page served as a script). A console rebuilt under
 * the running server (an upgrade in place: index.html and assets/ replaced) is served at once: the
 * files were routed one by one at start-up, so the new build's assets were 404s until a restart.
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

  it('serves a console rebuilt under the running server: the new index.html and its new asset', async () => {
    const before = await t.app.inject({ url: '/video/square/0' });
    expect(before.body).toContain('<title>t</title>');
    // The build empties dist/ and writes new hashed names (vite's emptyOutDir).
    fs.rmSync(path.join(dist, 'assets', 'entry-abc123.js'));
    fs.writeFileSync(path.join(dist, 'assets', 'entry-def456.js'), 'console.log(2)');
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>t2</title><script src="/assets/entry-def456.js"></script>');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
    for (const url of ['/', '/index.html', '/video/square/0']) {
      const r = await t.app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.body, url).toContain('entry-def456.js');
      expect(r.headers['cache-control'], url).toBe('no-cache');
    }
    const asset = await t.app.inject({ url: '/assets/entry-def456.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(2)');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
    // The old build's chunk is gone: a 404 the console's chunk-error page handles, not HTML.
    const old = await t.app.inject({ url: '/assets/entry-abc123.js' });
    expect(old.statusCode).toBe(404);
    expect(old.headers['content-type']).not.toMatch(/text\/html/);
  });

  it('an unknown API path is still answered by the API (refused without a login), not with the index page', async () => {
    const r = await t.app.inject({ url: '/api/v1/no-such-call' });
    expect(r.statusCode).toBe(401);
    expect(r.headers['content-type']).not.toMatch(/text\/html/);
  });
});
