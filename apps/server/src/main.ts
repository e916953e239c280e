/** Starts the platform: configuration, database, HTTP API and console on one port. */
import { loadConfig } from './config/index.js';
import { buildApp } from './app.js';
import { DEFAULT_ADMIN_PASSWORD, DEFAULT_ADMIN_USERNAME } from '@opencvr/shared';

const settings = loadConfig();
const { app, ctx } = await buildApp(settings);
// A promise rejected with nobody listening is a bug to fix, but it must not take every camera, viewer
// and recorder down with it (Node's default is to exit): it is logged with its stack instead.
process.on('unhandledRejection', (err) => app.log.error({ err }, 'unhandled promise rejection (bug): logged, server kept running'));
await app.listen({ host: settings.host, port: settings.port });

const addr = app.server.address();
const port = typeof addr === 'object' && addr ? addr.port : settings.port;
const shown = settings.host === '0.0.0.0' || settings.host === '::' ? 'localhost' : settings.host;
console.log(`\nOpenCVR console: http://${shown}:${port}/`);
console.log(`Database: ${ctx.engine}${ctx.engine === 'sqlite' ? ` (${settings.dataDir})` : ''}`);
if ((await ctx.config.get('other')).Initial) {
  console.log(`First run: log in as ${DEFAULT_ADMIN_USERNAME} / ${DEFAULT_ADMIN_PASSWORD}, then set your passwords.\n`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
