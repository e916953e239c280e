/**
 * Protocol alarms (issue 6, /alarm/list): alarmlist with filters and paging, POST deletealarm,
 * POST clearalarm, and the snapshot taken at alarm time. Admin only (spec 6: /alarm is closed to
 * other roles). Times in queries are local YYYYMMDDHHmmss (spec 9) or ISO-8601.
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import { ALARM_TYPE_MAX } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import type { AlarmFilter } from '../../services/alarms/index.js';
import { v1 } from '../../http/envelope.js';
import { id } from '../../http/schemas.js';
import { notFound } from '../../http/errors.js';
import { parseLocalStamp } from '../../services/recording/time.js';
import { deviceId } from './inventory-schemas.js';

const admin = { access: 'admin' as const };
const tags = ['alarms'];

/** A time bound: local YYYYMMDDHHmmss (or a prefix YYYYMMDD), ISO-8601, or epoch milliseconds. */
const timeBound = z
  .string()
  .trim()
  .max(40)
  .transform((s, c) => {
    if (!s) return undefined;
    let d: Date | undefined;
    if (/^\d{8}(\d{2}){0,3}$/.test(s)) d = parseLocalStamp(s);
    else if (/^\d{13}$/.test(s)) d = new Date(Number(s));
    else if (/^\d{4}-\d{2}-\d{2}/.test(s)) d = new Date(s);
    if (!d || Number.isNaN(d.getTime())) {
      c.addIssue({ code: 'custom', message: schemaReason('alarmTime') });
      return z.NEVER;
    }
    return d.toISOString();
  });

const filterFields = {
  /** Spec 3 alarm type; 0 = all types. */
  type: z.coerce.number().int().min(0).max(ALARM_TYPE_MAX).default(0),
  starttime: timeBound.optional(),
  endtime: timeBound.optional(),
  device: z.union([z.literal(''), deviceId]).optional(),
  channel: z.union([z.literal(''), deviceId]).optional(),
  priority: z.coerce.number().int().min(0).max(4).optional(),
  method: z.coerce.number().int().min(0).max(7).optional(),
};
const listQuery = z.object({
  ...filterFields,
  start: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(20),
});

type FilterIn = { [K in keyof typeof filterFields]?: z.output<(typeof filterFields)[K]> };
const toFilter = (q: FilterIn): AlarmFilter => ({
  type: q.type || undefined,
  from: q.starttime,
  // An end given as a whole second includes that second.
  to: q.endtime ? new Date(new Date(q.endtime).getTime() + 999).toISOString() : undefined,
  device: q.device || undefined,
  channel: q.channel || undefined,
  priority: q.priority || undefined,
  method: q.method || undefined,
});

/** Ids as a JSON array, a comma list ("1,2,3") or repeated form keys. */
const idList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : typeof v === 'number' ? [v] : v),
  z.array(id).min(1).max(10000),
);

export async function alarmRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/alarmlist', { config: admin, schema: { tags, querystring: listQuery } }, async (req) => {
    const { start, limit, ...f } = req.query;
    return v1('MSG_SC_ALARM_LIST_ACK', await ctx.alarms.list(toFilter(f), start, limit));
  });

  r.post(
    '/api/v1/deletealarm',
    {
      config: admin,
      schema: {
        tags,
        body: z.object({ id: idList.optional(), ids: idList.optional(), ID: idList.optional() }).refine((b) => b.id ?? b.ids ?? b.ID, {
          message: schemaReason('required'),
          path: ['id'],
        }),
      },
    },
    async (req) => {
      const ids = (req.body.id ?? req.body.ids ?? req.body.ID)!;
      return v1('MSG_SC_ALARM_DELETE_ACK', { Deleted: await ctx.alarms.remove(ids) });
    },
  );

  // Without filters every alarm is deleted (the console asks for confirmation first).
  r.post('/api/v1/clearalarm', { config: admin, schema: { tags, body: z.object(filterFields).partial().optional() } }, async (req) =>
    v1('MSG_SC_ALARM_CLEAR_ACK', { Deleted: await ctx.alarms.clear(toFilter(req.body ?? {})) }),
  );

  r.get('/api/v1/alarm/snapshot/:id', { config: admin, schema: { tags, params: z.object({ id }) } }, async (req, reply) => {
    const file = await ctx.alarms.snapshotFile(req.params.id);
    if (!file || !fs.existsSync(file)) throw notFound('snapshot');
    return reply.header('Cache-Control', 'private, max-age=86400').type('image/jpeg').send(fs.createReadStream(file));
  });
}
