// ESLint 9 flat config: TypeScript recommended rules (not type-checked, to stay fast), React hooks
// rules for the console, and import boundaries between the parts of the monorepo.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const WEB_SRC = path.join(ROOT, 'apps/web/src');

const rel = (p) => path.relative(ROOT, p).split(path.sep).join('/');

/**
 * Where an import specifier points: a repo-relative path for relative imports and the `@/` alias
 * (apps/web/src), the package name for bare ones.
 */
function target(fromFile, spec) {
  if (spec.startsWith('.')) return { path: rel(path.resolve(path.dirname(fromFile), spec)) };
  if (spec.startsWith('@/')) return { path: rel(path.join(WEB_SRC, spec.slice(2))) };
  return { pkg: spec };
}

const under = (p, dir) => p === dir || p.startsWith(`${dir}/`);
const featureOf = (p) => (under(p, 'apps/web/src/features') ? p.split('/')[4] : undefined);

/**
 * Boundaries, each a reason when `spec` imported from `file` crosses one:
 * - packages/** may not import apps/** (@opencvr/server, @opencvr/web);
 * - apps/web may not import apps/server, nor apps/server import apps/web;
 * - apps/web/src/features/X may not import another feature apps/web/src/features/Y.
 */
function violation(file, spec) {
  const from = rel(file);
  const to = target(file, spec);
  const pkgIs = (name) => to.pkg === name || to.pkg?.startsWith(`${name}/`);
  if (under(from, 'packages')) {
    if ((to.path && under(to.path, 'apps')) || pkgIs('@opencvr/server') || pkgIs('@opencvr/web')) {
      return 'shared packages may not import from apps/**';
    }
  }
  if (under(from, 'apps/web')) {
    if ((to.path && under(to.path, 'apps/server')) || pkgIs('@opencvr/server')) {
      return 'the web console may not import the server (share code through packages/shared)';
    }
  }
  if (under(from, 'apps/server')) {
    if ((to.path && under(to.path, 'apps/web')) || pkgIs('@opencvr/web')) {
      return 'the server may not import the web console';
    }
  }
  const fromFeature = featureOf(from);
  const toFeature = to.path && featureOf(to.path);
  if (fromFeature && toFeature && toFeature !== fromFeature) {
    return `feature "${fromFeature}" may not import from feature "${toFeature}" (move shared code to apps/web/src/components or lib)`;
  }
  return undefined;
}

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Import boundaries between packages, apps and console features' },
    schema: [],
    messages: { crossed: "'{{spec}}': {{reason}}" },
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const check = (node) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const reason = violation(file, node.value);
      if (reason) context.report({ node, messageId: 'crossed', data: { spec: node.value, reason } });
    };
    return {
      ImportDeclaration: (n) => check(n.source),
      ExportNamedDeclaration: (n) => check(n.source),
      ExportAllDeclaration: (n) => check(n.source),
      ImportExpression: (n) => check(n.source),
      CallExpression: (n) => {
        if (n.callee.type === 'Identifier' && n.callee.name === 'require') check(n.arguments[0]);
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'data/**',
      '**/data/**',
      'bench/results/**',
      '.tmp/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.d.ts.map',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'warn' },
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    plugins: { opencvr: { rules: { boundaries } } },
    rules: {
      'opencvr/boundaries': 'error',
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Warn only: `(a(), b())` statements are style, not bugs; a bare `x.y;` still shows up.
      '@typescript-eslint/no-unused-expressions': ['warn', { allowShortCircuit: true, allowTernary: true }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx,js,jsx}'],
    ignores: ['apps/web/vite.config.ts', 'apps/web/vitest.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Every list goes through the console's ListTable (apps/web/src/components/ListTable.tsx): it is
    // what keeps a table usable on a phone (cells on one line, scrolling in its card, the row's
    // actions pinned); a page on antd's Table directly came back squeezed. Types stay importable.
    // Exceptions, each with its reason, go in `ignores`: none yet besides ListTable itself.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/components/ListTable.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'antd',
              importNames: ['Table'],
              allowTypeImports: true,
              message: "list pages use ListTable from 'components/ListTable' (phone layout), not antd's Table",
            },
          ],
          patterns: [
            {
              group: ['antd/es/table', 'antd/es/table/*', 'antd/lib/table', 'antd/lib/table/*', 'rc-table', '@rc-component/table'],
              allowTypeImports: true,
              message: "list pages use ListTable from 'components/ListTable' (phone layout), not antd's Table",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/test/**', '**/*.test.{ts,tsx}', 'e2e/**', 'bench/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
