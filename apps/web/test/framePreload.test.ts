import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@opencvr/shared';
import { barePathPrefixes, preloadScript, SESSION_KEY } from '../build/framePreload';

const routes = fs.readFileSync(path.resolve(import.meta.dirname, '../src/app/routes.tsx'), 'utf8');
const FILES = ['/assets/Shell-abc.js', '/assets/tree-def.js'];

function runAt(pathname: string, session: unknown): string[] {
  window.history.pushState({}, '', pathname);
  if (session === undefined) localStorage.removeItem(SESSION_KEY);
  else localStorage.setItem(SESSION_KEY, typeof session === 'string' ? session : JSON.stringify(session));
  new Function(preloadScript(FILES, barePathPrefixes(routes), SESSION_KEY))();
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.getAttribute('href')!);
}

afterEach(() => {
  document.head.querySelectorAll('link[rel="modulepreload"]').forEach((l) => l.remove());
  localStorage.clear();
  window.history.pushState({}, '', '/');
});

describe('frame preload (build/framePreload.ts)', () => {
  it('reads the bare routes from the route table', () => {
    expect(barePathPrefixes(routes).sort()).toEqual(['/initial', '/login', '/players/', '/share/']);
  });

  it('looks for the session under the key the session store writes', () => {
    expect(SESSION_KEY).toBe(STORAGE_KEYS.userinfo);
  });

  it('preloads the frame on a console page when a session is stored', () => {
    expect(runAt('/video/square/0', { Token: 't' })).toEqual(FILES);
  });

  it('preloads nothing without a session, with a broken one, or on a bare page', () => {
    expect(runAt('/video/square/0', undefined)).toEqual([]);
    expect(runAt('/video/square/0', '{not json')).toEqual([]);
    expect(runAt('/video/square/0', { name: 'no token' })).toEqual([]);
    expect(runAt('/login', { Token: 't' })).toEqual([]);
    expect(runAt('/initial', { Token: 't' })).toEqual([]);
    expect(runAt('/players/1/2/3', { Token: 't' })).toEqual([]);
    expect(runAt('/share/1/2/3', { Token: 't' })).toEqual([]);
  });

  it('a path that only starts like a bare one is a console page', () => {
    expect(runAt('/loginhelp', { Token: 't' })).toEqual(FILES);
  });
});
