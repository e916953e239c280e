/**
 * GB28181 registration whitelist and blacklist (issue 6, /config/white and /config/black): EasyCVR's
 * v1 calls (white, addwhite, editwhite, delwhite, delwhites, white/switch, black, addblack,
 * editblack, delblack) and the v2 config/device/access/{white,whites,white/switch,black,blacks}.
 * Admin only. POSTs accept form-encoded or JSON bodies.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GbListItem, GbListPage } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import type { GbListEntry } from '../../db/schema.js';
import type { ListKind } from '../../services/gb-lists/index.js';
import { v1, v2 } from '../../http/envelope.js';
import { flag, id, text } from '../../http/schemas.js';
import { invalidParam } from '../../http/errors.js';
import { schemaReason } from '../../http/zod-reason.js';

const admin = { access: 'admin' as const };
const tags = ['gb28181'];

export const toListItem = (e: GbListEntry): GbListItem => ({
  ID: e.id,
  DeviceID: e.device_id,
  IP: e.ip,
  Name: e.name,
  Description: e.description,
  CreateTime: e.created_at,
  UpdateTime: e.updated_at,
});

const pageQuery = z.object({
  start: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(20),
  q: text(64).optional(),
});

/** An entry's fields; the service checks that one of DeviceID and IP is given and that IP parses. */
const entryFields = {
  DeviceID: z.string().trim().max(64).regex(/^[A-Za-z0-9_.-]*$/, schemaReason('allowedChars', { chars: '_ . -' })).default(''),
  IP: z.string().trim().max(64).default(''),
  Name: text(255).default(''),
  Description: text(255).default(''),
};
const entryBody = z.object(entryFields);
/** The id of an entry: ID (EasyCVR's casing) or id. */
const withId = z
  .object({ ID: id.optional(), id: id.optional() })
  .transform((b, c) => {
    const v = b.ID ?? b.id;
    if (!v) {
      c.addIssue({ code: 'custom', message: schemaReason('required'), path: ['ID'] });
      return z.NEVER;
    }
    return v;
  });
const editBody = z.object({ ...entryFields, ID: id.optional(), id: id.optional() });

/** Ids as a JSON array, a comma list ("1,2,3") or repeated form keys. */
const idList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : typeof v === 'number' ? [v] : v),
  z.array(id).min(1).max(10000),
);
const idsBody = z.object({ ids: idList.optional(), IDs: idList.optional(), id: idList.optional(), ID: idList.optional() }).transform((b, c) => {
  const ids = b.ids ?? b.IDs ?? b.id ?? b.ID;
  if (!ids) {
    c.addIssue({ code: 'custom', message: schemaReason('required'), path: ['ids'] });
    return z.NEVER;
  }
  return ids;
});
const switchBody = z
  .object({ WhiteSwitch: flag.optional(), switch: flag.optional(), enable: flag.optional() })
  .transform((b, c) => {
    const on = b.WhiteSwitch ?? b.switch ?? b.enable;
    if (on === undefined) {
      c.addIssue({ code: 'custom', message: schemaReason('required'), path: ['WhiteSwitch'] });
      return z.NEVER;
    }
    return on;
  });

const input = (b: z.infer<typeof entryBody>) => ({ deviceId: b.DeviceID, ip: b.IP, name: b.Name, description: b.Description });

export async function gbListRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const lists = ctx.gbLists;

  async function page(kind: ListKind, q: z.infer<typeof pageQuery>): Promise<GbListPage> {
    const { total, items } = await lists.list(kind, q);
    const body: GbListPage = { Total: total, List: items.map(toListItem) };
    if (kind === 'white') body.WhiteSwitch = await lists.whiteSwitch();
    return body;
  }

  for (const kind of ['white', 'black'] as const) {
    const K = kind.toUpperCase();
    const add = async (b: z.infer<typeof entryBody>) => toListItem(await lists.add(kind, input(b)));
    const edit = async (b: z.infer<typeof editBody>) => {
      const entryId = b.ID ?? b.id;
      if (!entryId) throw invalidParam('ID', 'required');
      return toListItem(await lists.edit(kind, entryId, input(b)));
    };
    const remove = async (ids: number[]) => ({ Deleted: await lists.remove(kind, ids) });

    // v1
    r.get(`/api/v1/${kind}`, { config: admin, schema: { tags, querystring: pageQuery } }, async (req) =>
      v1(`MSG_SC_${K}_LIST_ACK`, await page(kind, req.query)),
    );
    r.post(`/api/v1/add${kind}`, { config: admin, schema: { tags, body: entryBody } }, async (req) =>
      v1(`MSG_SC_${K}_ADD_ACK`, await add(req.body)),
    );
    r.post(`/api/v1/edit${kind}`, { config: admin, schema: { tags, body: editBody } }, async (req) =>
      v1(`MSG_SC_${K}_EDIT_ACK`, await edit(req.body)),
    );
    // delwhite is a GET in the console (spec 7), delblack a POST: both methods are served for both.
    r.get(`/api/v1/del${kind}`, { config: admin, schema: { tags, querystring: withId } }, async (req) =>
      v1(`MSG_SC_${K}_DELETE_ACK`, await remove([req.query])),
    );
    r.post(`/api/v1/del${kind}`, { config: admin, schema: { tags, body: withId } }, async (req) =>
      v1(`MSG_SC_${K}_DELETE_ACK`, await remove([req.body])),
    );
    r.post(`/api/v1/del${kind}s`, { config: admin, schema: { tags, body: idsBody } }, async (req) =>
      v1(`MSG_SC_${K}_DELETE_ACK`, await remove(req.body)),
    );

    // v2: the collection path lists (GET), adds (POST), edits (PUT) and deletes one (DELETE ?ID= or /:id).
    const v2Path = `/api/v2/config/device/access/${kind}`;
    r.get(v2Path, { config: admin, schema: { tags, querystring: pageQuery } }, async (req) => v2(await page(kind, req.query)));
    r.post(v2Path, { config: admin, schema: { tags, body: entryBody } }, async (req) => v2(await add(req.body)));
    r.put(v2Path, { config: admin, schema: { tags, body: editBody } }, async (req) => v2(await edit(req.body)));
    r.delete(v2Path, { config: admin, schema: { tags, querystring: withId } }, async (req) => v2(await remove([req.query])));
    r.delete(`${v2Path}/:id`, { config: admin, schema: { tags, params: z.object({ id }) } }, async (req) =>
      v2(await remove([req.params.id])),
    );
    // Batch delete: DELETE or POST with ids in the body (or the query for DELETE without a body).
    r.post(`${v2Path}s`, { config: admin, schema: { tags, body: idsBody } }, async (req) => v2(await remove(req.body)));
    r.delete(`${v2Path}s`, { config: admin, schema: { tags, querystring: idsBody } }, async (req) => v2(await remove(req.query)));
  }

  // The whitelist switch: when on, only listed devices may register.
  r.get('/api/v1/white/switch', { config: admin, schema: { tags } }, async () =>
    v1('MSG_SC_WHITE_SWITCH_ACK', { WhiteSwitch: await lists.whiteSwitch() }),
  );
  r.post('/api/v1/white/switch', { config: admin, schema: { tags, body: switchBody } }, async (req) =>
    v1('MSG_SC_WHITE_SWITCH_ACK', { WhiteSwitch: await lists.setWhiteSwitch(req.body) }),
  );
  r.get('/api/v2/config/device/access/white/switch', { config: admin, schema: { tags } }, async () =>
    v2({ WhiteSwitch: await lists.whiteSwitch() }),
  );
  for (const method of ['POST', 'PUT'] as const) {
    r.route({
      method,
      url: '/api/v2/config/device/access/white/switch',
      config: admin,
      schema: { tags, body: switchBody },
      handler: async (req) => v2({ WhiteSwitch: await lists.setWhiteSwitch(req.body) }),
    });
  }
}
