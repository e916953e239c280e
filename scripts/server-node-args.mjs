/**
 * How Node runs the server, wherever it is started: npm start, npm run dev, the end-to-end tests and
 * the benches.
 *
 * --max-semi-space-size=4 (MB): V8 grows its young generation up to 2 × 16 MB under a high rate of
 * short-lived allocations, which a media server has (a few objects per packet and per frame, all
 * dead within milliseconds). That space is resident: at 64 live streams it was 33.6 MB of the hub's
 * memory, 0.5 MB per stream. Capped at 4 MB per semi-space it is 8.4 MB; a scavenge costs in
 * proportion to what survives it, not to the space, and the hub's CPU did not change (bench live,
 * 64 streams, two A/B pairs: 0.052 and 0.055 CPU-s per stream-minute capped, 0.051 and 0.058 not;
 * memory 2.55 and 2.57 MB per stream capped, 2.82 and 2.81 not).
 */
export const SERVER_V8_ARGS = ['--max-semi-space-size=4'];

/** The server's build (scripts/server-build.mjs), relative to the checkout: what npm start, e2e and the benches run. */
export const SERVER_BUILD_MAIN = 'apps/server/dist/main.js';
/** The server's TypeScript entry point, relative to the checkout (npm run dev, through tsx). */
export const SERVER_SOURCE_MAIN = 'apps/server/src/main.ts';

/**
 * The arguments after `node`: V8 settings, then the built server with its stack traces mapped back
 * to the TypeScript (--enable-source-maps), or with `source` (implied by `watch`: npm run dev) the
 * TypeScript entry point through tsx, which compiles each file as it is loaded and keeps an esbuild
 * service process beside the server for its whole life (docs/architecture.md, "Session 24").
 * Run from the checkout's root; the build is made by scripts/server-build.mjs's buildServer().
 */
export function serverNodeArgs({ watch = false, source = false } = {}) {
  if (watch || source) return [...SERVER_V8_ARGS, '--import', 'tsx', ...(watch ? ['--watch'] : []), SERVER_SOURCE_MAIN];
  return [...SERVER_V8_ARGS, '--enable-source-maps', SERVER_BUILD_MAIN];
}
