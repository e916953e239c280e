#!/usr/bin/env node
/**
 * Builds the server into one JavaScript file, apps/server/dist/main.js (+ main.js.map), when it is
 * missing or older than any of its sources: what `npm start`, the end-to-end tests and the benches run.
 *
 *   node scripts/server-build.mjs [--force]
 *
 * esbuild bundles apps/server/src/main.ts with the workspace packages (packages/*, which export their
 * TypeScript sources) into one ES module for Node; every other package stays an import, resolved from
 * node_modules at run time as before (native modules, CommonJS packages, their own files). The bundle
 * sits at the same depth as apps/server/src, so paths the server finds from its own place
 * (`import.meta.dirname`/../../web/dist) are the same from the build as from the sources. The source
 * map (without the sources' text: the stack needs only the positions) lets `--enable-source-maps`
 * (scripts/server-node-args.mjs) print stack traces at the TypeScript lines.
 *
 * Also importable: buildServer({ force, log }), serverNeedsBuild(), newestSource(), SERVER_DIST, SERVER_MAIN.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const SERVER_DIST = path.join(ROOT, 'apps/server/dist');
export const SERVER_MAIN = path.join(SERVER_DIST, 'main.js');

/** What the bundle is made of: a change to any of these (or a file added or removed in them) rebuilds it. */
export const SERVER_SOURCES = [
  'apps/server/src',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'packages',
  'tsconfig.base.json',
  'scripts/server-build.mjs',
];

/** Folders that hold no sources of a build (the server's, and the console's in web-build.mjs). */
const SKIP = new Set(['node_modules', 'test', 'dist']);

/** The newest modification time (ms) under `p`; a folder counts too (a deleted file changes its time). */
export function newestMtime(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const e of fs.readdirSync(p)) if (!SKIP.has(e)) m = Math.max(m, newestMtime(path.join(p, e)));
  return m;
}

/** The newest modification time of the server's sources under `root`. */
export function newestSource(root = ROOT) {
  return Math.max(...SERVER_SOURCES.map((s) => newestMtime(path.join(root, s))));
}

/** True when `built` is missing or older than the newest of `sources` (modification times). */
export function isStale(built, sources) {
  let t;
  try {
    t = fs.statSync(built).mtimeMs;
  } catch {
    return true;
  }
  return sources.some((s) => newestMtime(s) > t);
}

/** True when the server has to be (re)built. */
export function serverNeedsBuild() {
  return isStale(
    SERVER_MAIN,
    SERVER_SOURCES.map((s) => path.join(ROOT, s)),
  );
}

/**
 * esbuild's options for the server. `outdir`: where main.js goes (SERVER_DIST; a test builds
 * elsewhere). Bare imports other than @opencvr/* stay imports: the server's dependencies are resolved
 * by Node from node_modules, as when it ran from its sources.
 */
export function serverBuildOptions({ outdir = SERVER_DIST } = {}) {
  return {
    absWorkingDir: ROOT,
    entryPoints: { main: path.join(ROOT, 'apps/server/src/main.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'silent',
    write: false,
    plugins: [
      {
        name: 'dependencies-external',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@opencvr/') ? undefined : { path: a.path, external: true }));
        },
      },
    ],
  };
}

/**
 * Builds when needed (or always with force); throws with esbuild's messages when the build fails.
 * Returns whether it built. Several processes may build at once (helpers running tests side by side):
 * each writes its files under a temporary name and renames them into place, so a server starting
 * meanwhile reads one whole bundle. The bundle takes the time the build started as its modification
 * time, so a source saved while it was being built is newer and builds it again next time.
 */
export async function buildServer({ force = false, log = console.log, outdir = SERVER_DIST } = {}) {
  if (!force && outdir === SERVER_DIST && !serverNeedsBuild()) return false;
  const started = new Date();
  const t0 = performance.now();
  const esbuild = await import('esbuild');
  let result;
  try {
    result = await esbuild.build(serverBuildOptions({ outdir }));
  } catch (err) {
    const lines = (err.errors ?? []).map((e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`);
    throw new Error(`server build failed${lines.length ? `:\n  ${lines.join('\n  ')}` : `: ${err.message}`}`);
  } finally {
    // esbuild's API keeps its service process (the one tsx keeps beside a server) until told to stop:
    // npm start's own process lives as long as the server it started.
    await esbuild.stop();
  }
  fs.mkdirSync(outdir, { recursive: true });
  // The map first: a server started between the two renames finds the new map beside the old bundle at worst.
  const files = [...result.outputFiles].sort((a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')));
  for (const f of files) {
    const tmp = `${f.path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, f.contents);
    fs.utimesSync(tmp, started, started);
    fs.renameSync(tmp, f.path);
  }
  log(`[build] server built in ${((performance.now() - t0) / 1000).toFixed(1)} s (${path.relative(ROOT, outdir)}/main.js)`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (!(await buildServer({ force: process.argv.includes('--force') }))) {
      console.log(`[build] server is up to date (${path.relative(ROOT, SERVER_MAIN)})`);
    }
  } catch (err) {
    console.error(`[build] ${err.message}`);
    process.exit(1);
  }
}
