/**
 * Rendering a console page in jsdom: react-query, a memory router, antd in Chinese, notices
 * captured, and a fetch stub that answers by path and records every call.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { bindNotifiers } from '../../src/lib/notify';
import { setLang } from '../../src/i18n';

// antd's tables, selects and virtual lists observe their size; jsdom has no ResizeObserver.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  contentType: string;
  /** Form-encoded or JSON body as key/value strings. */
  body: Record<string, string>;
  headers: Record<string, string>;
}

/** The answer's body, or a promise of it (a test holds an answer back to see the page while it waits). */
type Handler = (call: Call) => unknown;

/** The /api/v1 envelope the server wraps bodies in. */
export const v1 = <T,>(Body: T) => ({ EasyDarwin: { Header: { ErrorNum: '200', ErrorString: 'OK' }, Body } });

/** Stubs fetch: `routes` maps "METHOD /path" or "/path" to a handler returning the JSON body. */
export function stubApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://console.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = (init.headers ?? {}) as Record<string, string>;
    const contentType = headers['Content-Type'] ?? '';
    let body: Record<string, string> = {};
    if (typeof init.body === 'string') {
      body = contentType.includes('json')
        ? Object.fromEntries(
            Object.entries(JSON.parse(init.body) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
          )
        : Object.fromEntries(new URLSearchParams(init.body));
    }
    const call: Call = { method, path: url.pathname, query: url.searchParams, contentType, body, headers };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`] ?? routes[url.pathname];
    if (!handler)
      return new Response(JSON.stringify({ code: 404, msg: `no stub for ${method} ${url.pathname}` }), { status: 404 });
    return new Response(JSON.stringify(await handler(call)), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (path: string, method?: string) =>
      calls.filter((c) => c.path === path && (!method || c.method === method)),
  };
}

export function captureNotices() {
  const notices: string[] = [];
  const push = (kind: string) => (o: { content?: string; description?: string }) =>
    notices.push(`${kind}:${o.content ?? o.description}`);
  bindNotifiers(
    { success: push('success'), warning: push('warning'), error: push('error') } as any,
    { error: push('notification') } as any,
  );
  return notices;
}

export function renderConsole(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  setLang('zh-CN');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ConfigProvider locale={zhCN}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </ConfigProvider>
    </QueryClientProvider>,
  );
}
