import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { framePreload } from './build/framePreload.ts';

// The server runs on 18000 in development; the console proxies its API, API docs and websockets
// there. OPENCVR_SERVER points elsewhere (e.g. a second server started for a test run).
const SERVER = process.env.OPENCVR_SERVER ?? 'http://127.0.0.1:18000';
const proxy = {
  '/api': { target: SERVER, changeOrigin: true, ws: true },
  '/apidoc': { target: SERVER, changeOrigin: true, ws: true },
};

export default defineConfig({
  plugins: [react(), framePreload()],
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        // React and the router change rarely: keep them in one long-cached chunk. antd and the
        // rest stay with the lazy pages that use them (React.lazy per route), so /login pulls
        // only the components it renders. What the entry itself needs from node_modules ($initial:
        // the same modules either way) is one chunk instead of a dozen small ones: fewer requests
        // queue for the browser's six connections while the console starts.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 30 },
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 20 },
          ],
        },
      },
    },
  },
});
