/**
 * Chunk loading (spec 9 CHUNK_LOAD_TIMEOUT_MS): a chunk that has not arrived after 120 s fails with
 * a ChunkLoadError; a stylesheet of a chunk that fails to load gives code CSS_CHUNK_LOAD_FAILED.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS } from '@opencvr/shared';
import { ChunkLoadError, isCssChunkFailure, withChunkTimeout } from '../src/lib/lazy';

afterEach(() => {
  vi.useRealTimers();
});

describe('withChunkTimeout', () => {
  it('waits 120 s for a chunk, then rejects with a ChunkLoadError', async () => {
    vi.useFakeTimers();
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    const outcome = vi.fn();
    const p = withChunkTimeout(() => new Promise<never>(() => {})).then(
      () => outcome('resolved'),
      (err: unknown) => outcome(err),
    );
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(outcome).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await p;
    const err = outcome.mock.calls[0]![0] as ChunkLoadError;
    expect(err).toBeInstanceOf(ChunkLoadError);
    expect(err.name).toBe('ChunkLoadError');
    expect(err.message).toContain('120000');
    expect(err.failure).toBe('timeout');
    expect(err.code).toBeUndefined();
  });

  it('resolves with the module when it arrives in time, and the timer is gone', async () => {
    vi.useFakeTimers();
    const mod = { default: 'page' };
    const p = withChunkTimeout(
      () => new Promise<typeof mod>((resolve) => setTimeout(() => resolve(mod), CHUNK_LOAD_TIMEOUT_MS - 10)),
    );
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 10);
    await expect(p).resolves.toBe(mod);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('turns a failed JS chunk into a ChunkLoadError without a code', async () => {
    const err = await withChunkTimeout(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/assets/cssTools-abc.js')),
    ).catch((e: unknown) => e as ChunkLoadError);
    expect(err).toBeInstanceOf(ChunkLoadError);
    expect(err.message).toContain('Failed to fetch dynamically imported module');
    expect(err.failure).toBe('script');
    expect(err.code).toBeUndefined();
  });

  it('gives CSS_CHUNK_LOAD_FAILED when the stylesheet of a chunk fails (vite preload helper)', async () => {
    // What vite's __vitePreload throws after dispatching vite:preloadError for a <link rel=stylesheet> error.
    const err = await withChunkTimeout(() => Promise.reject(new Error('Unable to preload CSS for /assets/DevicesPage-x1.css'))).catch(
      (e: unknown) => e as ChunkLoadError,
    );
    expect(err).toBeInstanceOf(ChunkLoadError);
    expect(err.failure).toBe('css');
    expect(err.code).toBe('CSS_CHUNK_LOAD_FAILED');
  });

  it('gives CSS_CHUNK_LOAD_FAILED through a real <link rel=stylesheet> error event', async () => {
    // The same path the browser takes: a stylesheet link fails, the loader rejects.
    const loadCss = (href: string) =>
      new Promise<void>((resolve, reject) => {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = href;
        link.addEventListener('load', () => resolve());
        link.addEventListener('error', () => reject(new Error(`Unable to preload CSS for ${href}`)));
        document.head.appendChild(link);
        link.dispatchEvent(new Event('error'));
      });
    const err = await withChunkTimeout(() => loadCss('/assets/x.css').then(() => ({ default: 1 }))).then(
      () => undefined,
      (e: unknown) => e as ChunkLoadError,
    );
    expect(err?.code).toBe('CSS_CHUNK_LOAD_FAILED');
  });

  it('tells CSS failures from JS ones by the text', () => {
    expect(isCssChunkFailure('Unable to preload CSS for /assets/a.css')).toBe(true);
    expect(isCssChunkFailure('Failed to load http://h/assets/a-1.css')).toBe(true);
    expect(isCssChunkFailure('Failed to load http://h/assets/a-1.css?v=2')).toBe(true);
    expect(isCssChunkFailure('Failed to fetch dynamically imported module: /assets/cssVars-1.js')).toBe(false);
  });
});
