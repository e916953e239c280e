import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** Registers every domain's routes. */
export async function routes(app: FastifyInstance, opts: { ctx: AppContext }) {
  void app;
  void opts;
}
