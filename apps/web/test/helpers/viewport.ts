/**
 * The window's width as antd's breakpoints see it. jsdom's matchMedia (test/setup.ts) answers every
 * query false: a phone-wide window (usePhone() true). A test of a desktop layout asks for a wide one.
 */
import { vi } from 'vitest';

/** A MediaQueryList that always answers `matches` (jsdom has none; antd only reads and subscribes). */
export function fixedMediaQuery(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  };
}

/** Every min-width query matches, as on a wide desktop window, until vi.restoreAllMocks(). */
export function wideWindow(): void {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => fixedMediaQuery(query, true));
}
