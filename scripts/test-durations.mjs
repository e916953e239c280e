#!/usr/bin/env node
/**
 * Writes apps/server/test/durations.json, the seconds each server test file took, from a vitest JSON
 * report (default: the unit stage's, .tmp/test-results/unit.json; or the path given).
 *
 *   node scripts/test-durations.mjs [report.json]
 *
 * vitest.config.ts starts the server's files longest first by these figures when vitest's own cache
 * of the last run's times is missing (a fresh clone, CI): otherwise it starts the larger files first,
 * and a 30 s file of a few lines came last and held one worker alone at the end. The figures only
 * order the files; a stale or missing one changes no result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const report = process.argv[2] ?? path.join(ROOT, '.tmp', 'test-results', 'unit.json');
const testDir = path.join(ROOT, 'apps', 'server', 'test');
/** A report's file names, from any checkout: the part after apps/server/test/. */
const MARK = '/apps/server/test/';
const r = JSON.parse(fs.readFileSync(report, 'utf8'));
const seconds = {};
for (const f of r.testResults ?? []) {
  const name = String(f.name).split(path.sep).join('/');
  const at = name.lastIndexOf(MARK);
  if (at < 0 || !f.endTime || !f.startTime) continue;
  const rel = name.slice(at + MARK.length);
  seconds[rel] = Math.round((f.endTime - f.startTime) / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
const out = path.join(testDir, 'durations.json');
fs.writeFileSync(out, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`${path.relative(ROOT, out)}: ${Object.keys(sorted).length} files from ${path.relative(ROOT, report)}`);
