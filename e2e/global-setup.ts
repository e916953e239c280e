/**
 * Builds what the specs' servers run, once for the run: the console (apps/web/dist, when missing: `npm
 * test` builds it before this stage) and the server's bundle (when a source is newer, ~1 s: a run of
 * a spec or two by hand after a change must test the change). Each worker then starts its own server
 * on it (support/server.ts, the `server` fixture).
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildServer } from '../scripts/server-build.mjs';
import { ROOT, webDist } from './support/server';

export default async function globalSetup(): Promise<void> {
  if (!fs.existsSync(path.join(webDist(), 'index.html'))) {
    const { buildWeb } = await import(path.join(ROOT, 'scripts/web-build.mjs'));
    buildWeb();
  }
  await buildServer({ log: (m: string) => console.log(m) });
}
