import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server runs on 18000 in development; the console proxies its API, API docs and websockets there.
const SERVER = 'http://127.0.0.1:18000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: SERVER, changeOrigin: true, ws: true },
      '/apidoc': { target: SERVER, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        // Framework code changes rarely: keep it in its own long-cached chunks. Pages are split
        // by React.lazy in the route table, so /login only pulls the login page chunk.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 30 },
            { name: 'antd', test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+|@emotion|dayjs)[\\/]/, priority: 20 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
});
