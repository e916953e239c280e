import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { authRoutes } from './api/auth.js';
import { userRoutes } from './api/users.js';
import { roleRoutes } from './api/roles.js';
import { configRoutes } from './api/config.js';
import { initialRoutes } from './api/initial.js';
import { networkRoutes } from './api/network.js';
import { systemRoutes } from './api/system.js';
import { newsRoutes } from './api/news.js';

/** Registers every domain's routes. */
export async function routes(app: FastifyInstance, opts: { ctx: AppContext }) {
  for (const plugin of [authRoutes, userRoutes, roleRoutes, configRoutes, initialRoutes, networkRoutes, systemRoutes, newsRoutes]) {
    await app.register(plugin, opts);
  }
}
