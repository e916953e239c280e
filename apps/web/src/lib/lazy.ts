/**
 * React.lazy with the spec's chunk-load timeout: a chunk that has not arrived after 120 s fails
 * with a ChunkLoadError (CSS chunks with CSS_CHUNK_LOAD_FAILED) so the route error screen can offer a reload.
 */
import { createElement, lazy, useState, type ComponentProps, type ComponentType, type LazyExoticComponent } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '@opencvr/shared';

/** Why a chunk did not load: it took longer than the timeout, its stylesheet failed, or its script did. */
export type ChunkFailure = 'timeout' | 'css' | 'script';

export class ChunkLoadError extends Error {
  /** CSS_CHUNK_LOAD_FAILED for a stylesheet (spec 8); none otherwise. */
  code?: string;
  failure: ChunkFailure;
  constructor(message: string, failure: ChunkFailure) {
    super(message);
    this.name = 'ChunkLoadError';
    this.failure = failure;
    if (failure === 'css') this.code = 'CSS_CHUNK_LOAD_FAILED';
  }
}

/**
 * A failed <link rel=stylesheet> of a chunk: vite's preload helper rejects with "Unable to preload
 * CSS for <href>" (after its vite:preloadError event); a bare .css URL in the text counts too. A JS
 * chunk whose name merely contains "css" does not.
 */
export function isCssChunkFailure(text: string): boolean {
  return /Unable to preload CSS|\.css(\?|\s|$)/i.test(text);
}

export function withChunkTimeout<T>(load: () => Promise<T>, ms = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`Loading chunk timed out after ${ms} ms`, 'timeout')), ms);
    load().then(
      (m) => {
        clearTimeout(timer);
        resolve(m);
      },
      (err: unknown) => {
        clearTimeout(timer);
        const text = err instanceof Error ? err.message : String(err);
        reject(new ChunkLoadError(text, isCssChunkFailure(text) ? 'css' : 'script'));
      },
    );
  });
}

/** A lazy page whose chunk can be asked for before it renders (start-up fetches the current route's). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PreloadableLazy<P extends ComponentType<any>> = LazyExoticComponent<P> & {
  /** Starts loading the chunk (once); the page renders without suspending when it is already in. */
  preload: () => Promise<{ default: P }>;
};

/**
 * React.lazy with the chunk timeout and `preload()`. Once the module is in, new instances render it
 * directly instead of suspending for a tick (a suspended frame would show the fallback spinner and
 * hold back the commit). An instance keeps the way it started, so it never remounts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<P extends ComponentType<any>>(load: () => Promise<{ default: P }>): PreloadableLazy<P> {
  let loaded: { default: P } | undefined;
  let pending: Promise<{ default: P }> | undefined;
  const preload = () =>
    (pending ??= withChunkTimeout(load).then((m) => {
      loaded = m;
      return m;
    }));
  const Lazy = lazy(preload);
  function Page(props: ComponentProps<P>) {
    const [direct] = useState(() => loaded !== undefined);
    return direct ? createElement(loaded!.default, props) : createElement(Lazy, props);
  }
  return Object.assign(Page, { preload }) as unknown as PreloadableLazy<P>;
}
