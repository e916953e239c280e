/**
 * gb28181 benchmark (`npm run bench -- gb28181`), the figures of issue 6:
 *  - sip (sip.ts): REGISTER with digest and keepalive transactions per CPU-second, keepalive p99 and
 *    CPU with 2,000 devices keeping alive every 30 s, devices online at the end (sipp on loopback);
 *  - catalog (catalog.ts, when present): a 10,000-item catalog stored (time);
 *  - ps (ps.ts): PS demux throughput, MB/s per core.
 *
 * Options (after `--`): `--parts=sip,catalog,ps` (default: all present), `--devices=2000`,
 * `--hold=120` (seconds of the keepalive hold), `--register-rate=50`,
 * `--burst-rate=500`; GB_BENCH_PROF=DIR writes the server's CPU profile (node --cpu-prof) there.
 * Every part measures its own baseline in the same run; all figures go to bench/results/gb28181.json
 * (a `--parts=` run writes only the figures of its parts there).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFigures, type Figure } from '../lib/figures';
import { runBench } from '../lib/server';

const PARTS = ['sip', 'catalog', 'ps'] as const;
type Part = (typeof PARTS)[number];

function option(name: string): string | undefined {
  const a = process.argv.slice(2).find((x) => x.startsWith(`--${name}=`));
  return a?.slice(name.length + 3);
}
function numberOption(name: string): number | undefined {
  const v = option(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name}=${v}: a positive number expected`);
  return n;
}

/** A part's answer, whichever shape its module returns: Figure[] or { figures, detail }. */
type PartResult = Figure[] | { figures: Figure[]; detail?: string };

/** The measuring function of an optional part module: its first export named measure*. */
async function loadPart(file: string): Promise<(() => Promise<PartResult>) | undefined> {
  if (!fs.existsSync(path.join(import.meta.dirname, file))) return undefined;
  const mod = (await import(`./${file}`)) as Record<string, unknown>;
  const fn = Object.entries(mod).find(([k, v]) => /^measure/.test(k) && typeof v === 'function')?.[1];
  return fn as (() => Promise<PartResult>) | undefined;
}

await runBench('gb28181', async () => {
  const asked = option('parts')?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const p of asked ?? []) if (!PARTS.includes(p as Part)) throw new Error(`--parts: unknown part ${p} (${PARTS.join(', ')})`);
  const parts = (asked ?? PARTS) as Part[];

  const figures: Figure[] = [];
  for (const part of parts) {
    let measure: (() => Promise<PartResult>) | undefined;
    if (part === 'sip') {
      const { measureSip } = await import('./sip');
      measure = () =>
        measureSip({
          devices: numberOption('devices'),
          holdSeconds: numberOption('hold'),
          burstRate: numberOption('burst-rate'),
          registerRate: numberOption('register-rate'),
        });
    } else measure = await loadPart(`${part}.ts`);
    if (!measure) {
      console.log(`[gb28181] ${part}: bench/gb28181/${part}.ts not there yet, skipped`);
      continue;
    }
    console.log(`[gb28181] ${part} ...`);
    const r = await measure();
    if (Array.isArray(r)) figures.push(...r);
    else {
      figures.push(...r.figures);
      if (r.detail) console.log(`[gb28181] ${part}: ${r.detail}`);
    }
  }
  writeFigures('gb28181', figures);
  return 0;
});
