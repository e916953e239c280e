/**
 * The console build a run's servers serve, copied once at the start of the run (the global setup)
 * into a folder of the run's own, so that a build of the checkout during the run changes nothing
 * under it. The servers read the build from disk at each request (apps/server/src/app.ts): served
 * from apps/web/dist, a page opened before another helper's `npm run build -w @opencvr/web` asked
 * for chunks the new build no longer had (session 26: foundation's bell, NewsModal-*.js 404 on its
 * first click, 2 s before that build ended; gb28181's tree, /video/square/0 404 while it ran).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What the copy at `dir` names and lacks: the files under assets/ that index.html names (entry,
 * preloads, styles) and those the chunks name (imports `./x.js`, the preload lists' `assets/x.js`).
 */
function missingIn(dir: string): string[] {
  const named = new Set<string>();
  const add = (text: string, re: RegExp) => {
    for (const m of text.matchAll(re)) named.add(m[1]);
  };
  add(fs.readFileSync(path.join(dir, 'index.html'), 'utf8'), /(?:src|href)="\/assets\/([^"]+)"/g);
  for (const f of fs.readdirSync(path.join(dir, 'assets')).filter((n) => n.endsWith('.js'))) {
    add(fs.readFileSync(path.join(dir, 'assets', f), 'utf8'), /["'](?:assets\/|\.\/)([\w.-]+\.(?:js|css))["']/g);
  }
  return [...named].filter((n) => !fs.existsSync(path.join(dir, 'assets', n)));
}

/**
 * Copies the build at `from` into a new temporary folder and returns it. A build being written there
 * meanwhile (vite's own, file by file) or put in place (apps/web/build/build.mjs swaps the folder)
 * leaves a copy that fails or mixes two builds: the copy is checked (every file index.html and the chunks name is there)
 * and made again, from the start, until it is whole or `timeoutMs` has passed.
 */
export async function snapshotWeb(from: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let problem = '';
  for (let attempt = 1; ; attempt++) {
    const to = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-e2e-web-'));
    try {
      fs.cpSync(from, to, { recursive: true });
      const missing = missingIn(to);
      if (missing.length === 0) return to;
      problem = `${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''} named, not in the copy`;
    } catch (err) {
      problem = (err as Error).message;
    }
    fs.rmSync(to, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`the console build at ${from} could not be copied whole in ${attempt} tries (last: ${problem})`);
    // A build under way there: vite writes a build in a few seconds.
    await new Promise((r) => setTimeout(r, 250));
  }
}
