/**
 * Record calls (issue 5): which days and times a channel has recordings, removing segments, marking
 * them important, and manual recording. A user sees only the channels its role may see; EasyCVR's
 * querydaily and querymonthly answer without the envelope (see the API notes), the rest with it.
 * Playback and download of the files are another plugin's, through RecordingService.segmentsBetween.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import type { AppContext } from '../../context.js';
import { v1 } from '../../http/envelope.js';
import { ApiError, invalidParam, notFound } from '../../http/errors.js';
import { flag, id, MAX_ID } from '../../http/schemas.js';
import { scopeOf, visibleChannelIds } from '../../services/inventory/scope.js';
import { UnsafePathError } from '../../services/recording/paths.js';
import { dayBounds, mergeRanges } from '../../services/recording/query.js';
import { dayRange, localStamp, monthRange, parseLocalStamp, shownTime } from '../../services/recording/time.js';
import { channelId, deviceId } from './inventory-schemas.js';
import { deviceDaily, deviceMonthly, isDeviceSource } from './gb-records.js';

const tags = ['records'];

/** A channel as `id=device:channel` (EasyCVR's id) or as `device` + `channel`. */
export const channelRef = z.object({
  id: z.string().trim().max(140).optional(),
  device: deviceId.optional(),
  channel: channelId.optional(),
});
export type ChannelRef = z.infer<typeof channelRef>;

const DEVICE_CHANNEL = /^([A-Za-z0-9_.-]{1,64}):([A-Za-z0-9_.-]{1,64})$/;

export function refOf(q: ChannelRef): { device: string; channel: string } {
  if (q.device && q.channel) return { device: q.device, channel: q.channel };
  const m = q.id ? DEVICE_CHANNEL.exec(q.id) : null;
  if (!m) throw invalidParam('id', 'giveOneOf', { first: 'id=device:channel', second: 'device + channel' });
  return { device: m[1], channel: m[2] };
}

/** A channel written "device:channel" in the field `field` (a path part, a list's item): a bad one is refused under that field's name. */
export function refIn(field: string, text: string): { device: string; channel: string } {
  const m = DEVICE_CHANNEL.exec(text);
  if (!m) throw invalidParam(field, 'format', { format: 'device:channel' });
  return { device: m[1], channel: m[2] };
}

const day = z.string().regex(/^\d{8}$/, schemaReason('format', { format: 'YYYYMMDD' }));
const stamp = z.string().regex(/^\d{14}$/, schemaReason('format', { format: 'YYYYMMDDHHmmss' }));
const month = z.string().regex(/^\d{6}$/, schemaReason('format', { format: 'YYYYMM' }));

export async function recordRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { channels } = ctx.inventory;
  const rec = ctx.recording;

  async function visibleChannel(req: FastifyRequest, q: ChannelRef) {
    const { device, channel } = refOf(q);
    return channels.requireVisible(await scopeOf(ctx.db, req.user!), device, channel);
  }
  const dayOf = (s: string) => {
    const range = dayRange(s);
    if (!range) throw invalidParam('period', 'notDate');
    return range;
  };
  const monthOf = (s: string) => {
    const m = monthRange(s);
    if (!m) throw invalidParam('period', 'notMonth');
    return m;
  };
  /** A segment the user may see (its channel visible), else 404. */
  async function visibleSegment(req: FastifyRequest, segId: number) {
    const seg = await rec.index.get(segId);
    if (!seg) throw notFound('recording', { id: segId });
    const scope = await scopeOf(ctx.db, req.user!);
    const c = await ctx.db
      .selectFrom('channels')
      .select('id')
      .where('id', '=', seg.channelPk)
      .where((eb) => visibleChannelIds(eb, scope) ?? eb.lit(true))
      .executeTakeFirst();
    if (!c && !scope.all) throw notFound('recording', { id: segId });
    return seg;
  }

  /** GET and POST (query or form/JSON body) with the same schema and handler. */
  function both<S extends z.ZodObject>(url: string, schema: S, access: 'user' | 'admin', handler: (req: FastifyRequest, q: z.infer<S>) => Promise<unknown>) {
    r.get(url, { config: { access }, schema: { tags, querystring: schema } }, (req) => handler(req, req.query as z.infer<S>));
    r.post(url, { config: { access }, schema: { tags, body: schema } }, (req) => handler(req, req.body as z.infer<S>));
  }

  r.get(
    '/api/v1/record/querydaily',
    {
      schema: {
        tags,
        querystring: channelRef.extend({
          period: day,
          recordType: z.string().max(16).optional(),
          start: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(9999).default(9999),
        }),
      },
    },
    async (req) => {
      const q = req.query;
      const c = await visibleChannel(req, q);
      // recordType=Device: what the GB device keeps on its own disk (RecordInfo), same shape.
      if (isDeviceSource(q.recordType)) return deviceDaily(ctx, c, q.period, q.start, q.limit);
      const [from, to] = dayOf(q.period);
      const ranges = mergeRanges(await rec.index.spans(c.id, from, to));
      const idText = `${c.parent_device_id}:${c.channel_id}`;
      const list = ranges.map((m) => {
        // Clipped to the day asked for.
        const s = m.start < from ? from : m.start;
        const e = m.end > to ? to : m.end;
        const startAt = localStamp(s);
        const endAt = localStamp(e);
        return {
          name: `${startAt}-${endAt}`,
          startAt,
          endAt,
          duration: Math.round((e.getTime() - s.getTime()) / 1000),
          size: m.bytes,
          hls: `/api/v1/record/recordvideo/play/m3u8/${idText}/${startAt}/${endAt}`,
          snap: '',
          important: m.important ? 1 : 0,
          recording: m.recording ? 1 : 0,
          ids: m.ids,
        };
      });
      return { total: list.length, list: list.slice(q.start, q.start + q.limit) };
    },
  );

  r.get(
    '/api/v1/record/querymonthly',
    { schema: { tags, querystring: channelRef.extend({ period: month, recordType: z.string().max(16).optional() }) } },
    async (req, reply) => {
      const c = await visibleChannel(req, req.query);
      if (isDeviceSource(req.query.recordType)) return reply.type('text/plain; charset=utf-8').send(await deviceMonthly(ctx, c, req.query.period));
      const m = monthOf(req.query.period);
      const days = await rec.index.overlaps(c.id, dayBounds(m.start, m.days));
      return reply.type('text/plain; charset=utf-8').send(days.map((d) => (d ? '1' : '0')).join(''));
    },
  );

  /** Month flags of several channels: ids=dev:chn,dev:chn or every visible channel of a device. */
  r.get(
    '/api/v1/record/queryflags',
    { schema: { tags, querystring: z.object({ period: month, ids: z.string().max(20000).optional(), device: deviceId.optional() }) } },
    async (req) => {
      const q = req.query;
      const m = monthOf(q.period);
      const scope = await scopeOf(ctx.db, req.user!);
      let list = ctx.db
        .selectFrom('channels')
        .select(['id', 'parent_device_id', 'channel_id', 'name'])
        .where((eb) => visibleChannelIds(eb, scope) ?? eb.lit(true));
      if (q.ids) {
        const refs = q.ids
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) => refIn('ids', s));
        if (!refs.length || refs.length > 500) throw invalidParam('ids', 'channelCountBetween', { min: 1, max: 500 });
        list = list.where((eb) => eb.or(refs.map((x) => eb.and([eb('parent_device_id', '=', x.device), eb('channel_id', '=', x.channel)]))));
      } else if (q.device) list = list.where('parent_device_id', '=', q.device);
      else throw invalidParam('ids', 'giveOneOf', { first: 'ids', second: 'device' });
      const chans = await list.orderBy('id').execute();
      const Flags = [];
      for (const c of chans) {
        const days = await rec.index.overlaps(c.id, dayBounds(m.start, m.days));
        Flags.push({ id: `${c.parent_device_id}:${c.channel_id}`, DeviceID: c.parent_device_id, ChannelID: c.channel_id, Name: c.name, flags: days.map((d) => (d ? '1' : '0')).join('') });
      }
      return v1('MSG_SC_RECORD_QUERY_FLAGS_ACK', { Flags });
    },
  );

  /**
   * Which visible channels (optionally of one device) have recordings on a day. `start`/`limit`
   * (optional) answer a page of them, Total still counting all: a site recording every camera
   * answered 1,500 for the playback list's 50 tags.
   */
  r.get(
    '/api/v1/record/querydevices',
    {
      schema: {
        tags,
        querystring: z.object({
          period: day,
          device: deviceId.optional(),
          start: z.coerce.number().int().min(0).optional(),
          limit: z.coerce.number().int().min(1).max(99999).optional(),
        }),
      },
    },
    async (req) => {
      const [from, to] = dayOf(req.query.period);
      const scope = await scopeOf(ctx.db, req.user!);
      let q = ctx.db
        .selectFrom('channels')
        .select(['id', 'parent_device_id', 'channel_id', 'name'])
        .where((eb) => visibleChannelIds(eb, scope) ?? eb.lit(true));
      if (req.query.device) q = q.where('parent_device_id', '=', req.query.device);
      const chans = await q.orderBy('id').execute();
      const have = new Set(await rec.index.channelsWithin(from, to, chans.map((c) => c.id)));
      const recorded = chans.filter((c) => have.has(c.id));
      const start = req.query.start ?? 0;
      const Channels = recorded
        .slice(start, req.query.limit === undefined ? undefined : start + req.query.limit)
        .map((c) => ({ id: `${c.parent_device_id}:${c.channel_id}`, DeviceID: c.parent_device_id, ChannelID: c.channel_id, Name: c.name }));
      return v1('MSG_SC_RECORD_QUERY_DEVICES_ACK', { Channels, Total: recorded.length });
    },
  );

  /** Deletes one segment (by its id from querydaily's `ids`); an important one must be unmarked first. */
  both('/api/v1/record/remove', z.object({ id }), 'admin', async (req, q) => {
    const seg = await visibleSegment(req, q.id);
    if (seg.important) throw invalidParam('id', 'recordingImportant');
    if (seg.status !== 'complete') throw invalidParam('id', 'recordingBeingWritten');
    let removed: boolean;
    try {
      removed = await rec.removeSegment(seg);
    } catch (err) {
      if (err instanceof UnsafePathError) throw invalidParam('id', 'recordingOutsideFolder');
      throw err;
    }
    if (!removed) {
      // Marked important, or removed, since it was read above.
      if ((await rec.index.get(q.id))?.important) throw invalidParam('id', 'recordingImportant');
      throw notFound('recording', { id: q.id });
    }
    return v1('MSG_SC_RECORD_REMOVE_ACK', {});
  });

  /** Deletes a channel's complete, non-important segments of a day. */
  both('/api/v1/record/removedaily', channelRef.extend({ period: day }), 'admin', async (req, q) => {
    const c = await visibleChannel(req, q);
    const [from, to] = dayOf(q.period);
    const { removed, kept } = await rec.removeBetween(c.id, from, to);
    return v1('MSG_SC_RECORD_REMOVE_DAILY_ACK', { Removed: removed, Kept: kept });
  });

  /**
   * Marks segments important, or not: by id (one, or a querydaily range's ids=1,2,3), or those of a
   * channel (device, channel) overlapping starttime..endtime (local YYYYMMDDHHmmss): the part of a
   * recording the user selected, or the segment under the playhead, not hours of it.
   */
  both(
    '/api/v1/record/setimportant',
    z.object({
      // One id, a JSON array of them, or "1,2,3" (the console's form).
      id: z
        .union([
          z.array(id).min(1).max(1000),
          id,
          z
            .string()
            .regex(/^\d{1,10}(,\d{1,10}){0,999}$/)
            .refine((s) => s.split(',').every((x) => Number(x) >= 1 && Number(x) <= MAX_ID), schemaReason('recordingId')),
        ])
        .optional(),
      device: deviceId.optional(),
      channel: channelId.optional(),
      starttime: stamp.optional(),
      endtime: stamp.optional(),
      important: flag.default(true),
    }),
    'user',
    async (req, q) => {
      let ids: number[];
      if (q.starttime !== undefined || q.endtime !== undefined) {
        const from = q.starttime ? parseLocalStamp(q.starttime) : undefined;
        const to = q.endtime ? parseLocalStamp(q.endtime) : undefined;
        if (!from || !to || to <= from || to.getTime() - from.getTime() > 31 * 86400_000)
          throw invalidParam('endtime', 'afterStartWithinDays', { start: 'starttime', days: 31 });
        const c = await visibleChannel(req, { device: q.device, channel: q.channel });
        ids = (await rec.index.spans(c.id, from, to)).map((sp) => sp.id);
        if (!ids.length) throw notFound('recordingsRange', { id: `${c.parent_device_id}:${c.channel_id}`, from: shownTime(q.starttime!), to: shownTime(q.endtime!) });
      } else {
        if (q.id === undefined) throw invalidParam('id', 'giveOneOf', { first: 'id', second: 'device + channel + starttime + endtime' });
        ids = Array.isArray(q.id) ? q.id : String(q.id).split(',').map(Number);
        for (const segId of ids) await visibleSegment(req, segId);
      }
      for (const segId of ids) await rec.index.setImportant(segId, q.important);
      return v1('MSG_SC_RECORD_SET_IMPORTANT_ACK', { Count: ids.length, Important: q.important ? 1 : 0 });
    },
  );

  /** Manual recording of a channel now, until stop (kept across restarts). */
  both('/api/v1/realtimerecord/start', channelRef, 'user', async (req, q) => {
    const c = await visibleChannel(req, q);
    if (!c.enable) throw new ApiError(400, 'channelDisabled');
    await rec.setManual(c.id, true);
    return v1('MSG_SC_REALTIME_RECORD_START_ACK', { Recording: rec.engine.isRecording(c.id) ? 1 : 0, Manual: rec.engine.isManual(c.id) ? 1 : 0 });
  });
  both('/api/v1/realtimerecord/stop', channelRef, 'user', async (req, q) => {
    const c = await visibleChannel(req, q);
    await rec.setManual(c.id, false);
    return v1('MSG_SC_REALTIME_RECORD_STOP_ACK', { Recording: rec.engine.isRecording(c.id) ? 1 : 0, Manual: rec.engine.isManual(c.id) ? 1 : 0 });
  });
}
