/**
 * The server's Node settings (scripts/server-node-args.mjs, used by npm start, dev, e2e and the
 * benches; the build they run is tested in server-build.test.ts): V8 takes them, and the young
 * generation stays within the cap under the kind of load that grows it to 2 × 16 MB by default (many
 * short-lived objects, some surviving a while).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_V8_ARGS, serverNodeArgs } from '../../../../scripts/server-node-args.mjs';

const LOAD = `
const v8 = require('v8');
const keep = new Array(200000);
let max = 0;
for (let i = 0; i < 3e6; i++) {
  keep[i % keep.length] = { i, a: [i, i + 1] };
  if (i % 10000 === 0) max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
}
console.log(max);
`;

function youngGenerationPeak(args: readonly string[]): number {
  const r = spawnSync(process.execPath, [...args, '-e', LOAD], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return Number(r.stdout.trim());
}

describe('server Node arguments', () => {
  it('cap the young generation at 2 x 4 MB where V8 would grow it to 2 x 16 MB', () => {
    expect(youngGenerationPeak([])).toBeGreaterThan(16 * 1024 * 1024);
    expect(youngGenerationPeak(SERVER_V8_ARGS)).toBeLessThanOrEqual(8 * 1024 * 1024 + 512 * 1024);
  });

  it('run the build with source-mapped stacks, the V8 settings first', () => {
    expect(serverNodeArgs()).toEqual([...SERVER_V8_ARGS, '--enable-source-maps', 'apps/server/dist/main.js']);
  });

  it('run the TypeScript entry point through tsx for npm run dev (watch) and when asked for the sources', () => {
    expect(serverNodeArgs({ watch: true })).toEqual([...SERVER_V8_ARGS, '--import', 'tsx', '--watch', 'apps/server/src/main.ts']);
    expect(serverNodeArgs({ source: true })).toEqual([...SERVER_V8_ARGS, '--import', 'tsx', 'apps/server/src/main.ts']);
  });
});
