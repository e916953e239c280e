/**
 * The server of the sidebar tree tests (video tree, group tree): fetch answered by URL in the /api/v1
 * envelope, every URL asked kept in order; and ResizeObserver stubbed (antd's Input measures itself,
 * jsdom has none). vi.unstubAllGlobals() undoes both.
 */
import { vi } from 'vitest';

/** The /api/v1 envelope the server wraps bodies in. */
export const envelope = (Body: unknown) => ({ EasyDarwin: { Header: { ErrorNum: '200', ErrorString: 'OK' }, Body } });

class NoResize {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/** Stubs fetch with `answer` (the Body for a URL) and returns the URLs asked, as they come. */
export function stubTreeServer(answer: (url: URL) => unknown): URL[] {
  const asked: URL[] = [];
  vi.stubGlobal('ResizeObserver', NoResize);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      asked.push(url);
      return new Response(JSON.stringify(envelope(answer(url))), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return asked;
}
