/**
 * Starts the download of the console frame (app/layout/Shell: top bar, menus, video sidebar and
 * tree) while the entry is still downloading, for a logged-in first load.
 *
 * Without it the frame's chunks are asked for only once the entry has been downloaded and
 * evaluated (app/boot.ts), hundreds of ms after navigation: the sidebar waited for that second
 * round trip on a cold load. index.html gets a tiny async classic script (`frame-preload-HASH.js`)
 * that, when a session is stored and the path is not a bare page (login, initial, public
 * players), adds `<link rel="modulepreload">` for the frame's chunks that the entry does not load
 * itself. /login never downloads them. The script is a file (not inline) because the server's
 * Content-Security-Policy allows scripts from 'self' only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

const SRC = path.resolve(import.meta.dirname, '../src');
const SHELL = path.join(SRC, 'app/layout/Shell.tsx');
const ROUTES = path.join(SRC, 'app/routes.tsx');
/** STORAGE_KEYS.userinfo of @opencvr/shared (the config cannot load TS packages; a test checks it). */
export const SESSION_KEY = 'userinfo';

/** The fixed leading part ('/login', '/players/') of every bare route of the route table. */
export function barePathPrefixes(routesSource: string): string[] {
  const prefixes = new Set<string>();
  for (const m of routesSource.matchAll(/\{\s*path: '([^']+)'[^}]*?layout: 'bare'/g)) {
    const p = m[1]!;
    const colon = p.indexOf(':');
    prefixes.add(colon < 0 ? p : p.slice(0, colon));
  }
  if (!prefixes.size) throw new Error('framePreload: no bare routes found in routes.tsx (format changed?)');
  return [...prefixes];
}

/** The classic script: modulepreload `files` when a session is stored and the path is not bare. */
export function preloadScript(files: string[], barePrefixes: string[], storageKey: string): string {
  return `(function () {
  try {
    var path = location.pathname;
    var bare = ${JSON.stringify(barePrefixes)};
    for (var i = 0; i < bare.length; i++) {
      var b = bare[i];
      if (path === b || path.indexOf(b.charAt(b.length - 1) === '/' ? b : b + '/') === 0) return;
    }
    var user = JSON.parse(localStorage.getItem(${JSON.stringify(storageKey)}) || 'null');
    if (!user || !user.Token) return;
    var files = ${JSON.stringify(files)};
    for (var j = 0; j < files.length; j++) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = files[j];
      document.head.appendChild(link);
    }
  } catch (e) {}
})();
`;
}

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  imports: string[];
  isEntry: boolean;
  facadeModuleId: string | null;
}

/** The chunks `roots` import statically, breadth first (nearest first: they are asked for first). */
function closure(bundle: Record<string, { type: string }>, roots: string[]): Set<string> {
  const seen = new Set<string>(roots);
  const queue = [...roots];
  for (let i = 0; i < queue.length; i++) {
    const c = bundle[queue[i]!] as ChunkLike | undefined;
    for (const f of c?.type === 'chunk' ? c.imports : []) {
      if (!seen.has(f)) {
        seen.add(f);
        queue.push(f);
      }
    }
  }
  return seen;
}

export function framePreload(): Plugin {
  return {
    name: 'opencvr:frame-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((o): o is typeof o & ChunkLike => o.type === 'chunk');
        const entry = chunks.find((c) => c.isEntry);
        const shell = chunks.find((c) => c.facadeModuleId === SHELL);
        if (!entry || !shell) throw new Error('framePreload: entry or Shell chunk not found in the bundle');
        const loadedByEntry = closure(bundle, [entry.fileName]);
        // The console is served from the root (the server's static files, vite preview).
        const files = [...closure(bundle, [shell.fileName])].filter((f) => !loadedByEntry.has(f)).map((f) => `/${f}`);
        const source = preloadScript(files, barePathPrefixes(fs.readFileSync(ROUTES, 'utf8')), SESSION_KEY);
        // Called by vite:build-html from its generateBundle hook, whose context can emit files.
        const build = this as unknown as Rollup.PluginContext;
        const ref = build.emitFile({ type: 'asset', name: 'frame-preload.js', source });
        return [{ tag: 'script', attrs: { async: true, src: `/${build.getFileName(ref)}` }, injectTo: 'head' }];
      },
    },
  };
}
