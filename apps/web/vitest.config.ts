import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  plugins: [react()],
  root,
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup.ts'],
    css: false,
    testTimeout: 15000,
    // The files of a worker share one jsdom and one module cache: a fresh process, jsdom and the
    // console's module graph (antd, React Query, i18n) for every file were most of the project's CPU.
    // test/setup.ts puts back what one file could leave to the next.
    isolate: false,
  },
});
