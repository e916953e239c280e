/**
 * The page's lang attribute follows the language the console starts in: index.html says zh-CN, and a
 * console reloaded in English kept it (Chromium then drew the English text with the CJK font, and a
 * screen reader read it as Chinese) until the language was switched again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@opencvr/shared';

afterEach(() => {
  localStorage.clear();
  vi.resetModules();
});

describe('document language at start', () => {
  it('is the stored language', async () => {
    document.documentElement.lang = 'zh-CN';
    localStorage.setItem(STORAGE_KEYS.language, 'en-US');
    vi.resetModules();
    await import('../src/i18n');
    expect(document.documentElement.lang).toBe('en-US');
  });

  it('is zh-CN without a stored language', async () => {
    document.documentElement.lang = 'en-US';
    vi.resetModules();
    await import('../src/i18n');
    expect(document.documentElement.lang).toBe('zh-CN');
  });
});
