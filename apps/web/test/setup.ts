import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { cacheComputedStyle } from './helpers/computedStyleCache';
import { fixedMediaQuery } from './helpers/viewport';

// findBy*/waitFor give up after 1 s by default. The full suite runs the console's tests beside the
// server's on two cores, where one re-render after a mocked response has taken longer than that
// (RoleChannelsModalReopen, a save button's loading state, failed once and passed on the retry). A
// wait only lasts as long as the page needs; the limit is for a page that never gets there.
configure({ asyncUtilTimeout: 5000 });

// Queries by role and visibility checks ask jsdom for computed styles over antd's runtime CSS again and
// again; the answer is kept while the page does not change (most of the dialog tests' time went there).
cacheComputedStyle();

// antd's responsive helpers call matchMedia, which jsdom does not implement.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => fixedMediaQuery(query, false),
  });
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});
