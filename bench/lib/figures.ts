/**
 * Benchmark results: each benchmark writes bench/results/NAME.json as
 *   {"figures":[{"name","value","unit","baseline","ratio","goal"}]}
 * and prints a table. `ratio` = value / baseline (null without a baseline); `goal` describes the
 * target, e.g. "<= 50 ms p95" or ">= 2000 req/s".
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: number | null;
  ratio?: number | null;
  goal?: string | null;
}

export const RESULTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');

function fmt(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '-';
  if (Number.isInteger(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(1) : n.toPrecision(4);
}

/** Writes bench/results/NAME.json and prints the figures as a table; returns the file path. */
export function writeFigures(name: string, figures: Figure[]): string {
  const rows = figures.map((f) => {
    const baseline = f.baseline ?? null;
    const ratio = f.ratio ?? (baseline ? f.value / baseline : null);
    return { name: f.name, value: f.value, unit: f.unit, baseline, ratio, goal: f.goal ?? null };
  });
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.json`);
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify({ figures: rows }, null, 2)}\n`);
  fs.renameSync(tmp, file);

  const head = ['figure', 'value', 'unit', 'baseline', 'ratio', 'goal'];
  const cells = rows.map((r) => [r.name, fmt(r.value), r.unit, fmt(r.baseline), fmt(r.ratio), r.goal ?? '-']);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c.map((v, i) => (i === 0 || i >= 5 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  console.log(`\n${name}`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
  console.log(`-> ${path.relative(process.cwd(), file)}\n`);
  return file;
}

/**
 * A run of some parts only keeps the other figures of the last bench/results/NAME.json: figures of
 * the same name are replaced in place, new ones appended, those `stale` says are gone (a part that
 * ran replaces all of its old figures, also those it now names differently).
 */
export function mergeFigures(name: string, figures: Figure[], stale: (f: Figure) => boolean = () => false): Figure[] {
  let previous: Figure[] = [];
  try {
    previous = (JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, `${name}.json`), 'utf8')) as { figures: Figure[] }).figures;
  } catch {
    return figures;
  }
  const fresh = new Map(figures.map((f) => [f.name, f]));
  previous = previous.filter((f) => fresh.has(f.name) || !stale(f));
  const merged = previous.map((f) => fresh.get(f.name) ?? f);
  const kept = new Set(previous.map((f) => f.name));
  return [...merged, ...figures.filter((f) => !kept.has(f.name))];
}
