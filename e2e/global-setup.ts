/**
 * Builds what the specs' servers run, once for the run: the console (apps/web/dist, when missing: `npm
 * test` builds it before this stage) and the server's bundle (when a source is newer, ~1 s: a run of
 * a spec or two by hand after a change must test the change). Each worker then starts its own server
 * on it (support/server.ts, the `server` fixture).
 *
 * The servers serve a copy of the console taken here (support/web-snapshot.ts; WEB_DIST, which the
 * workers inherit), removed when the run ends: a build of the checkout during the run no longer
 * takes pages and chunks away from the specs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildServer } from '../scripts/server-build.mjs';
import { ROOT, webDist } from './support/server';
import { snapshotWeb } from './support/web-snapshot';

export default async function globalSetup(): Promise<() => void> {
  // A console given in WEB_DIST is not built here (buildWeb builds apps/web/dist): the copy below
  // waits for it to be whole.
  if (!process.env.WEB_DIST && !fs.existsSync(path.join(webDist(), 'index.html'))) {
    const { buildWeb } = await import(path.join(ROOT, 'scripts/web-build.mjs'));
    buildWeb();
  }
  await buildServer({ log: (m: string) => console.log(m) });
  const copy = await snapshotWeb(webDist());
  process.env.WEB_DIST = copy;
  return () => fs.rmSync(copy, { recursive: true, force: true });
}
