/**
 * One vitest run for the whole monorepo, split into projects:
 *   npx vitest run --project <package folder> | server | web
 * The web project uses apps/web/vitest.config.ts when the console has one, else the inline jsdom setup below.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import react from '@vitejs/plugin-react';

const root = path.dirname(fileURLToPath(import.meta.url));
const at = (p: string) => path.join(root, p);

const webConfig = ['apps/web/vitest.config.ts', 'apps/web/vitest.config.mts'].find((f) => fs.existsSync(at(f)));
const webSetup = at('apps/web/test/setup.ts');

const web: TestProjectConfiguration = webConfig
  ? `./${webConfig}`
  : {
      plugins: [react()],
      root: at('apps/web'),
      test: {
        name: 'web',
        environment: 'jsdom',
        include: ['test/**/*.test.{ts,tsx}'],
        setupFiles: fs.existsSync(webSetup) ? [webSetup] : [],
        css: false,
        testTimeout: 15000,
      },
    };

/** One project per package under packages/ (shared, codec, rtp, rtsp, fmp4, ...), named after its folder. */
const packageProjects: TestProjectConfiguration[] = fs
  .readdirSync(at('packages'))
  .filter((name) => fs.existsSync(at(`packages/${name}/package.json`)))
  .map((name) => ({
    test: {
      name,
      root: at(`packages/${name}`),
      environment: 'node',
      include: ['test/**/*.test.ts'],
      testTimeout: 30000,
      // Pure parsers and encoders: no module state, mocks or globals a test file could leave behind (a
      // package test that mocks or changes globals must undo it itself),
      // so the files of a worker share one module cache instead of importing the package again each
      // (import time of the packages' 63 files about 35 s -> 19 s).
      isolate: false,
    },
  }));

/**
 * The server's files start longest first, by the seconds in apps/server/test/durations.json (a file not
 * listed yet first of all); the other projects keep vitest's order. A worker takes the next file when
 * it is free, so the long files overlap and the last ones to start are short. Without this, a fresh
 * clone (CI: no cache of the last run's times) started the larger files first, and a 30 s file of 76
 * lines started last and held one worker alone for its 30 s. `node scripts/test-durations.mjs`
 * refreshes the figures from the last `npm test`.
 */
class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const testDir = at('apps/server/test');
    let seconds: Record<string, number> = {};
    try {
      seconds = JSON.parse(fs.readFileSync(path.join(testDir, 'durations.json'), 'utf8'));
    } catch {
      return sorted;
    }
    const slots = sorted.flatMap((s, i) => (s.project.name === 'server' ? [i] : []));
    const estimate = (s: TestSpecification) => seconds[path.relative(testDir, s.moduleId).split(path.sep).join('/')] ?? Infinity;
    const server = slots.map((i) => sorted[i]!).sort((a, b) => estimate(b) - estimate(a));
    slots.forEach((slot, k) => (sorted[slot] = server[k]!));
    return sorted;
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    // A stage with no tests yet is not a failure.
    passWithNoTests: true,
    // Vitest's default (cores − 1) runs one file at a time on a 2-core machine, while most server files
    // spend their time waiting on sockets, timers and child processes (camera, ffmpeg): two at once
    // at least. VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, os.availableParallelism()),
    projects: [
      ...packageProjects,
      {
        test: {
          name: 'server',
          root: at('apps/server'),
          environment: 'node',
          include: ['test/**/*.test.ts'],
          pool: 'forks',
          // Each file built its own copy of the server's modules (Fastify, werift, kysely, ...):
          // 3-4 s of CPU per file, most of the project's CPU and half its wall time on two cores
          // (106 files: 699 s → 289 s, CPU 301 s → 121 s). The files of a worker now share one module
          // cache; every file starts its own app on fresh storage, tests that fake timers, spy or
          // change process.env undo it, and the module-level caches (ffmpeg version probe, ONVIF
          // clients, UDP port cursor) are keyed by program, address or port, not by test.
          isolate: false,
          testTimeout: 30000,
          hookTimeout: 30000,
        },
      },
      web,
    ],
  },
});
