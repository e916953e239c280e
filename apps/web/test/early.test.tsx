/**
 * Start-up work in parallel (app/boot.ts): calls started before React renders are handed over
 * once to the code that would have made them; lazy pages can be preloaded and then render at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { clearEarly, forgetEarly, peekSettled, startEarly, takeEarly, takeSettled } from '../src/lib/early';
import { lazyPage } from '../src/lib/lazy';
import { landingPath } from '../src/app/boot';

afterEach(() => {
  clearEarly();
  vi.useRealTimers();
});

describe('early calls', () => {
  it('hands a started call over once; the next take makes its own call', async () => {
    const first = vi.fn(async () => 'early');
    startEarly('k', first);
    startEarly('k', first); // already waiting: not started twice
    expect(first).toHaveBeenCalledTimes(1);
    const own = vi.fn(async () => 'own');
    await expect(takeEarly('k', own)).resolves.toBe('early');
    expect(own).not.toHaveBeenCalled();
    await expect(takeEarly('k', own)).resolves.toBe('own');
    expect(own).toHaveBeenCalledTimes(1);
  });

  it('a call nobody took for 15 s is not used', async () => {
    vi.useFakeTimers();
    startEarly('k', async () => 'stale');
    vi.advanceTimersByTime(15_000);
    await expect(takeEarly('k', async () => 'fresh')).resolves.toBe('fresh');
  });

  it('a failed early call fails for the taker, without an unhandled rejection before', async () => {
    startEarly('k', () => Promise.reject(new Error('boom')));
    await new Promise((r) => setTimeout(r, 0));
    await expect(takeEarly('k', async () => 'own')).rejects.toThrow('boom');
  });

  it('takeSettled hands over an answer that has arrived, once; before that it leaves the call to takeEarly', async () => {
    let answer!: (v: string) => void;
    startEarly('k', () => new Promise<string>((r) => (answer = r)));
    expect(takeSettled('k')).toBeUndefined();
    answer('early');
    await new Promise((r) => setTimeout(r, 0));
    expect(takeSettled('k')).toBe('early');
    expect(takeSettled('k')).toBeUndefined();
    await expect(takeEarly('k', async () => 'own')).resolves.toBe('own');
  });

  it('peekSettled shows an arrived answer to every render until forgetEarly hands it out', async () => {
    let answer!: (v: string) => void;
    startEarly('k', () => new Promise<string>((r) => (answer = r)));
    expect(peekSettled('k')).toBeUndefined();
    answer('early');
    await new Promise((r) => setTimeout(r, 0));
    // A first render React throws away, then the one it commits: both see the answer.
    expect(peekSettled('k')).toBe('early');
    expect(peekSettled('k')).toBe('early');
    forgetEarly('k');
    expect(peekSettled('k')).toBeUndefined();
    await expect(takeEarly('k', async () => 'own')).resolves.toBe('own');
  });

  it('takeSettled never hands over a failed call', async () => {
    startEarly('k', () => Promise.reject(new Error('boom')));
    await new Promise((r) => setTimeout(r, 0));
    expect(takeSettled('k')).toBeUndefined();
    await expect(takeEarly('k', async () => 'own')).rejects.toThrow('boom');
  });

  it('clearEarly (logout) forgets waiting calls', async () => {
    startEarly('k', async () => 'old session');
    clearEarly();
    await expect(takeEarly('k', async () => 'new')).resolves.toBe('new');
  });
});

describe('lazy pages', () => {
  it('preload loads the chunk once, and a preloaded page renders without the fallback', async () => {
    const load = vi.fn(async () => ({ default: ({ n }: { n: number }) => <p>page {n}</p> }));
    const Page = lazyPage(load);
    await Page.preload();
    await Page.preload();
    expect(load).toHaveBeenCalledTimes(1);
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page n={1} />
      </Suspense>,
    );
    expect(screen.getByText('page 1')).toBeInTheDocument();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('a page not preloaded suspends, then renders', async () => {
    const Page = lazyPage(async () => ({ default: () => <p>later</p> }));
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('later')).toBeInTheDocument();
  });
});

describe('landing path', () => {
  it('follows the guard: no token goes to /login, aliases resolve, allowed paths stay', () => {
    expect(landingPath('/video/square/0', '', undefined)).toBe('/login');
    expect(landingPath('/video', 'tok', 'admin')).toBe('/video/square/0');
    expect(landingPath('/video/square/0', 'tok', 'admin')).toBe('/video/square/0');
    expect(landingPath('/user/index', 'tok', 'operator')).toBe('/video/square/0');
  });
});
