#!/usr/bin/env node
/**
 * `npm run bench -- NAME` runs bench/NAME/run.ts; without a name, every bench/<name>/run.ts in turn.
 * Each writes bench/results/NAME.json (see bench/lib/figures.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bootstrap, ROOT } from './bootstrap.mjs';

const BENCH = path.join(ROOT, 'bench');
const all = fs
  .readdirSync(BENCH, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(BENCH, d.name, 'run.ts')))
  .map((d) => d.name)
  .sort();

const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const extra = process.argv.slice(2).filter((a) => a.startsWith('-'));
for (const n of names) {
  if (!all.includes(n)) {
    console.error(`[bench] no benchmark ${n} (bench/${n}/run.ts); available: ${all.join(', ') || 'none'}`);
    process.exit(2);
  }
}
const selected = names.length ? names : all;
if (!selected.length) {
  console.log('[bench] no benchmarks yet (bench/<name>/run.ts)');
  process.exit(0);
}

bootstrap('start');
let failed = 0;
for (const name of selected) {
  console.log(`\n=== bench ${name} ===`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(BENCH, name, 'run.ts'), ...extra], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const ok = r.status === 0;
  if (!ok) failed++;
  console.log(
    `=== bench ${name}: ${ok ? 'done' : `failed (exit ${r.status ?? r.signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s ===`,
  );
}
process.exit(failed ? 1 : 0);
