import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { warmUpAntd } from './helpers/antdWarmUp';
import { cacheComputedStyle } from './helpers/computedStyleCache';
import { fixedMediaQuery } from './helpers/viewport';

// findBy*/waitFor give up after 1 s by default. The full suite runs the console's tests beside the
// server's on two cores, where one re-render after a mocked response has taken longer than that
// (RoleChannelsModalReopen, a save button's loading state, failed once and passed on the retry). A
// wait only lasts as long as the page needs; the limit is for a page that never gets there.
configure({ asyncUtilTimeout: 5000 });

// The files of a worker share one jsdom window and one module cache (vitest.config.ts isolate: false;
// jsdom and antd, React, React Query built again for every file were most of the project's CPU).
// This file runs before each test file, so what a file could leave behind is put back here:
// - the console's own modules are evaluated afresh (stores, query caches, notifiers, i18n set-up) and
//   a file's vi.mock reaches every console module that imports the mocked one (packages under
//   node_modules are loaded by Node once per worker and not reset: a mock of one of them, hls.js say,
//   reaches the console modules importing it, not other packages);
// - globals stubbed, fake timers, the URL, storage, the document's title, language and body, and what
//   a test put on the window or the document itself (ResizeObserver, fullscreenElement).
vi.resetModules();
vi.useRealTimers();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
// What jsdom itself had, seen by the worker's first file (helpers/console.tsx adds a ResizeObserver).
type SharedWindow = typeof window & { __testWindow?: { resizeObserver: boolean; styleCached: boolean; antdWarm: boolean } };
const shared = ((window as SharedWindow).__testWindow ??= { resizeObserver: 'ResizeObserver' in window, styleCached: false, antdWarm: false });
if (!shared.resizeObserver) delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
delete (document as { fullscreenElement?: unknown }).fullscreenElement;
window.history.replaceState(null, '', '/');
localStorage.clear();
sessionStorage.clear();
document.title = '';
document.documentElement.removeAttribute('lang');
document.body.innerHTML = '';

// Queries by role and visibility checks ask jsdom for computed styles over antd's runtime CSS again and
// again; the answer is kept while the page does not change (most of the dialog tests' time went there).
// Once per window: the files after the first share it.
if (!shared.styleCached) {
  cacheComputedStyle();
  shared.styleCached = true;
}

// antd's responsive helpers call matchMedia, which jsdom does not implement.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => fixedMediaQuery(query, false),
  });
}

// antd's common components once per worker, here rather than in the worker's first test
// (helpers/antdWarmUp.tsx: 0.4-0.6 CPU-s more in that test, which a loaded machine stretched past 15 s).
if (!shared.antdWarm) {
  warmUpAntd();
  shared.antdWarm = true;
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});
