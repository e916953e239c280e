/**
 * React.lazy with the spec's chunk-load timeout: a chunk that has not arrived after 120 s fails
 * with a ChunkLoadError (CSS chunks with CSS_CHUNK_LOAD_FAILED) so the route error screen can offer a reload.
 */
import { lazy, type ComponentType } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '@opencvr/shared';

export class ChunkLoadError extends Error {
  code?: string;
  constructor(message: string, code?: string) {
    super(message);
    this.name = 'ChunkLoadError';
    this.code = code;
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
    const timer = setTimeout(() => reject(new ChunkLoadError(`Loading chunk timed out after ${ms} ms`)), ms);
    load().then(
      (m) => {
        clearTimeout(timer);
        resolve(m);
      },
      (err: unknown) => {
        clearTimeout(timer);
        const text = err instanceof Error ? err.message : String(err);
        reject(new ChunkLoadError(text, isCssChunkFailure(text) ? 'CSS_CHUNK_LOAD_FAILED' : undefined));
      },
    );
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<P extends ComponentType<any>>(load: () => Promise<{ default: P }>) {
  return lazy(() => withChunkTimeout(load));
}
