/**
 * Recordings kept on GB28181 devices (issue 6), behind the playback pages' "device" source
 * (recordType=Device): querydaily/querymonthly delegate here (records.ts), devices/record/playback
 * opens a device session (playback.ts), and this plugin serves the device-only calls:
 *   devices/record/files   the device's record list of a range (RecordInfo, paged answer aggregated)
 *   devices/record/month   days of a month with device recordings (one RecordInfo for the month)
 *   downloaddevicerecord/{chnid}/{name}/{duration} (and _new)  starts a download (s=Download)
 *   downloadrecord/streaminfo  its progress; downloadrecord/file/{request_id}  the finished MP4
 *   downloadrecord/stop  cancels it (BYE to the device, files removed); one nobody follows is cancelled too
 * A user reaches only channels its role may see (a download too: its owner, or an administrator, while
 * the role still sees the channel); each call that asks a device names the cause when the device
 * cannot be reached (offline, no answer, refused). Why a download ended (Reason) is in the request's
 * language.
 */
import fs from 'node:fs';
import { channelFileName, reason, type Lang, type Reason } from '@opencvr/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import type { AppContext } from '../../context.js';
import type { Channel, Device } from '../../db/schema.js';
import { isAdmin } from '../../http/auth.js';
import { v1 } from '../../http/envelope.js';
import { ApiError, because, invalidParam, notFound } from '../../http/errors.js';
import { GB_DEVICE_TYPE } from '../../gb/device-store.js';
import { GbInviteError } from '../../gb/invite/client.js';
import { GbRecordsError } from '../../gb/records/errors.js';
import { DOWNLOAD_SPEEDS, gbRecordsOf, mergeDeviceRecords, type DeviceDownload, type RecordSearchResult } from '../../gb/records/index.js';
import { scopeOf, visibleChannelIds } from '../../services/inventory/scope.js';
import { dayRange, localStamp, monthRange, parseLocalStamp } from '../../services/recording/time.js';
import { gbFailure } from './gb-devices.js';
import { channelRef, refOf } from './records.js';
import { contentDisposition, parseRange } from './playback.js';

const tags = ['records'];

/** recordType=Device (any case) asks the device; anything else is the platform's own recordings. */
export const isDeviceSource = (recordType: string | undefined) => recordType?.trim().toLowerCase() === 'device';

/** The channel's device when it is a GB28181 one, else 400 (device recordings come with GB28181 only). */
export async function gbDeviceOf(ctx: AppContext, c: Channel): Promise<Device> {
  const d = await ctx.inventory.devices.get(c.parent_device_id);
  if (!d || d.device_type !== GB_DEVICE_TYPE) throw new ApiError(400, 'gbNotGbDevice', { device: c.parent_device_id });
  return d;
}

/** Where deviceFailure puts the words it does not show. */
export interface FailureLog {
  warn(obj: object, msg: string): void;
}

/**
 * A failure to ask a device (query, INVITE, INFO) as an answer that names the cause. The user reads
 * catalogue reasons only: a failure without one (ours, not the device's: a session closed meanwhile,
 * an error of the server) is logged with its words and answered with gbRequestFailed.
 */
export function deviceFailure(err: unknown, device: string, log: FailureLog): unknown {
  if (err instanceof GbInviteError) {
    if (err.code === 'not-registered') return new ApiError(409, 'gbNotRegistered', { device });
    const reason = err.why ?? unexplained(err, device, log);
    if (err.code === 'timeout') return new ApiError(504, 'gbNoAnswer', { device, reason });
    if (err.code === 'refused') return new ApiError(502, 'gbRefused', { device, reason });
    return new ApiError(502, 'gbNoAnswer', { device, reason });
  }
  const mapped = gbFailure(err, device);
  if (mapped !== err) return mapped;
  if (err instanceof GbRecordsError) return new ApiError(502, err.refused ? 'gbRefused' : 'gbNoAnswer', { device, reason: err.why });
  if (err instanceof Error && !(err instanceof ApiError)) return new ApiError(502, 'gbNoAnswer', { device, reason: unexplained(err, device, log) });
  return err;
}

function unexplained(err: Error, device: string, log: FailureLog): Reason {
  log.warn({ err, device }, 'gb: asking the device failed');
  return because('gbRequestFailed');
}

async function search(ctx: AppContext, d: Device, c: Channel, from: Date, to: Date): Promise<RecordSearchResult> {
  try {
    return await gbRecordsOf(ctx).query.search({ deviceId: d.device_id, channelId: c.channel_id, from, to });
  } catch (err) {
    throw deviceFailure(err, d.device_id, ctx.gb.log);
  }
}

/** What a partial answer adds: how much came (the console says the list may miss some). */
const completeness = (r: RecordSearchResult) => ({ complete: r.complete ? 1 : 0, received: r.received, sumNum: r.sumNum, ...(r.complete ? {} : { reason: r.reason }) });

/** querydaily for recordType=Device: the device's recordings of the day, merged into ranges. */
export async function deviceDaily(ctx: AppContext, c: Channel, day: string, start: number, limit: number) {
  const d = await gbDeviceOf(ctx, c);
  const range = dayRange(day);
  if (!range) throw invalidParam('period', 'notDate');
  const [from, to] = range;
  const r = await search(ctx, d, c, from, to);
  const list = mergeDeviceRecords(r.records, from, to).map((m) => {
    const startAt = localStamp(m.start);
    const endAt = localStamp(m.end);
    return {
      name: `${startAt}-${endAt}`,
      startAt,
      endAt,
      duration: Math.round((m.end.getTime() - m.start.getTime()) / 1000),
      hls: '',
      snap: '',
      important: 0,
      recording: 0,
      recordType: 'Device',
      files: m.records.length,
    };
  });
  return { total: list.length, list: list.slice(start, start + limit), ...completeness(r) };
}

/** querymonthly for recordType=Device: one '0'/'1' per day of the month from one RecordInfo query. */
export async function deviceMonthly(ctx: AppContext, c: Channel, month: string): Promise<string> {
  const d = await gbDeviceOf(ctx, c);
  const m = monthRange(month);
  if (!m) throw invalidParam('period', 'notMonth');
  const r = await search(ctx, d, c, m.start, m.end);
  const flags = Array.from({ length: m.days }, (_, i) => {
    const a = new Date(m.start.getFullYear(), m.start.getMonth(), i + 1);
    const b = new Date(m.start.getFullYear(), m.start.getMonth(), i + 2);
    return r.records.some((x) => x.end > a && x.start < b) ? '1' : '0';
  });
  return flags.join('');
}

const stamp = z.string().trim().regex(/^\d{14}$/, schemaReason('format', { format: 'YYYYMMDDHHmmss' }));

function timeOf(field: string, s: string): number {
  const d = parseLocalStamp(s);
  if (!d) throw invalidParam(field, 'notLocalTime');
  return d.getTime();
}

/** The longest device range one call may ask for. */
const MAX_RANGE_MS = 24 * 3600_000;

/** A download as streaminfo (and the start and stop calls) answer it; Reason in `lang`. */
function downloadInfo(d: DeviceDownload, lang: Lang) {
  return {
    request_id: d.id,
    State: d.state,
    Progress: d.progress,
    Received: Math.round(d.received),
    Duration: Math.round(d.duration),
    Size: d.size,
    Reason: d.reason ? reason(d.reason.key, lang, d.reason.vars) : '',
    URL: d.state === 'done' ? `/api/v1/downloadrecord/file/${d.id}` : '',
    Name: d.name,
  };
}

export async function gbRecordRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onClose', async () => gbRecordsOf(ctx).stop());

  async function visibleChannel(req: FastifyRequest, ref: { device: string; channel: string }): Promise<Channel> {
    return ctx.inventory.channels.requireVisible(await scopeOf(ctx.db, req.user!), ref.device, ref.channel);
  }

  /** A channel as device:channel, or a bare 20-digit GB channel ID (looked up among GB devices). */
  async function channelOfChnid(req: FastifyRequest, chnid: string): Promise<Channel> {
    if (chnid.includes(':')) return visibleChannel(req, refOf({ id: chnid }));
    if (!/^\d{20}$/.test(chnid)) throw invalidParam('chnid', 'gbChannelRef');
    const row = await ctx.db
      .selectFrom('channels')
      .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
      .select(['channels.parent_device_id as device'])
      .where('channels.channel_id', '=', chnid)
      .where('devices.device_type', '=', GB_DEVICE_TYPE)
      .executeTakeFirst();
    if (!row) throw notFound('channel', { id: chnid });
    return visibleChannel(req, { device: row.device, channel: chnid });
  }

  r.get(
    '/api/v1/devices/record/files',
    {
      schema: {
        tags,
        querystring: channelRef.extend({
          period: z.string().regex(/^\d{8}$/, schemaReason('format', { format: 'YYYYMMDD' })).optional(),
          starttime: stamp.optional(),
          endtime: stamp.optional(),
          start: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(9999).default(9999),
        }),
      },
    },
    async (req) => {
      const q = req.query;
      const c = await visibleChannel(req, refOf(q));
      const d = await gbDeviceOf(ctx, c);
      let from: Date;
      let to: Date;
      if (q.starttime && q.endtime) {
        from = new Date(timeOf('starttime', q.starttime));
        to = new Date(timeOf('endtime', q.endtime));
      } else if (q.period) {
        const range = dayRange(q.period);
        if (!range) throw invalidParam('period', 'notDate');
        [from, to] = range;
      } else throw invalidParam('period', 'giveOneOf', { first: 'period (YYYYMMDD)', second: 'starttime + endtime' });
      if (to <= from || to.getTime() - from.getTime() > 31 * 86400_000) throw invalidParam('endtime', 'afterStartWithinDays', { start: 'starttime', days: 31 });
      const res = await search(ctx, d, c, from, to);
      const list = res.records.map((x) => ({
        name: x.name ?? '',
        startAt: localStamp(x.start),
        endAt: localStamp(x.end),
        duration: Math.round((x.end.getTime() - x.start.getTime()) / 1000),
        FilePath: x.filePath ?? '',
        Type: x.type ?? '',
        FileSize: x.fileSize ?? 0,
        ChannelID: x.channelId,
      }));
      return v1('MSG_SC_DEVICE_RECORD_FILES_ACK', {
        Total: list.length,
        RecordList: list.slice(q.start, q.start + q.limit),
        Complete: res.complete ? 1 : 0,
        Received: res.received,
        SumNum: res.sumNum,
        ...(res.complete ? {} : { Reason: res.reason }),
      });
    },
  );

  r.get(
    '/api/v1/devices/record/month',
    { schema: { tags, querystring: channelRef.extend({ period: z.string().regex(/^\d{6}$/, schemaReason('format', { format: 'YYYYMM' })) }) } },
    async (req) => {
      const c = await visibleChannel(req, refOf(req.query));
      return v1('MSG_SC_DEVICE_RECORD_MONTH_ACK', { Flags: await deviceMonthly(ctx, c, req.query.period) });
    },
  );

  const downloadSchema = {
    tags,
    params: z.object({
      chnid: z.string().trim().max(140),
      /** The recording's start (YYYYMMDDHHmmss), or a querydaily name "start-end". */
      name: z.string().trim().regex(/^\d{14}(-\d{14})?$/, schemaReason('timeOrTimeRange')),
      duration: z.coerce.number().int().min(1).max(MAX_RANGE_MS / 1000),
    }),
    querystring: z.object({ speed: z.coerce.number().refine((n) => (DOWNLOAD_SPEEDS as readonly number[]).includes(n), schemaReason('oneOf', { values: DOWNLOAD_SPEEDS.join(', ') })).default(4) }),
  };
  for (const url of ['/api/v1/downloaddevicerecord/:chnid/:name/:duration', '/api/v1/downloaddevicerecord_new/:chnid/:name/:duration']) {
    r.get(url, { schema: downloadSchema }, async (req) => {
      const p = req.params;
      const c = await channelOfChnid(req, p.chnid);
      const d = await gbDeviceOf(ctx, c);
      const from = timeOf('name', p.name.slice(0, 14));
      const to = from + p.duration * 1000;
      // named as the platform's own downloads and the console's snapshots are (shared channelFileName)
      const name = channelFileName(c.name || `${c.parent_device_id}_${c.channel_id}`, [localStamp(new Date(from)), localStamp(new Date(to))], 'mp4');
      let task: DeviceDownload;
      try {
        task = await gbRecordsOf(ctx).download({ device: d, channel: c, userId: req.user!.id, from, to, speed: req.query.speed, name });
      } catch (err) {
        throw deviceFailure(err, d.device_id, ctx.gb.log);
      }
      return v1('MSG_SC_DOWNLOAD_DEVICE_RECORD_ACK', downloadInfo(task, req.lang));
    });
  }

  /**
   * A download of this user (an administrator may reach any) whose channel the user's role still
   * sees, else 404 (the same answer as an unknown id); asking about it counts as following it.
   */
  async function taskOf(req: FastifyRequest, id: string): Promise<DeviceDownload> {
    const t = gbRecordsOf(ctx).getDownload(id);
    if (!t || (t.userId !== req.user!.id && !isAdmin(req.user!))) throw notFound('download', { id });
    const scope = await scopeOf(ctx.db, req.user!);
    if (!scope.all) {
      const seen = await ctx.db.selectFrom('channels').select('id').where('id', '=', t.channelPk).where((eb) => visibleChannelIds(eb, scope)!).executeTakeFirst();
      if (!seen) throw notFound('download', { id });
    }
    t.watched();
    return t;
  }

  const requestId = z.object({ request_id: z.string().regex(/^[0-9a-f]{32}$/) });

  r.get('/api/v1/downloadrecord/streaminfo', { schema: { tags, querystring: requestId } }, async (req) =>
    v1('MSG_SC_DOWNLOAD_RECORD_STREAMINFO_ACK', downloadInfo(await taskOf(req, req.query.request_id), req.lang)),
  );

  /**
   * Cancels a download (the console's cancel): a running one gets our BYE, ffmpeg is stopped and the
   * part file, or the finished file, removed. Answers the download as streaminfo does (State cancelled);
   * one already failed or cancelled is answered as it is. GET like the other calls of the family; POST
   * (form or JSON) too.
   */
  const stop = async (req: FastifyRequest, id: string) => {
    const t = await taskOf(req, id);
    t.cancel();
    return v1('MSG_SC_DOWNLOAD_RECORD_STOP_ACK', downloadInfo(t, req.lang));
  };
  r.get('/api/v1/downloadrecord/stop', { schema: { tags, querystring: requestId } }, (req) => stop(req, req.query.request_id));
  r.post('/api/v1/downloadrecord/stop', { schema: { tags, body: requestId } }, (req) => stop(req, req.body.request_id));

  r.get(
    '/api/v1/downloadrecord/file/:id',
    { schema: { tags, params: z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) }) } },
    async (req, reply) => {
      const t = await taskOf(req, req.params.id);
      if (t.state !== 'done') {
        if (t.state === 'downloading' || t.state === 'remuxing') throw invalidParam('id', 'downloadNotReady');
        throw invalidParam('id', 'downloadFailed', { detail: t.reason ? reason(t.reason.key, req.lang, t.reason.vars) : t.state });
      }
      // The path is the task's own (DATA_DIR/gb-downloads/<32 hex>.mp4), never from the request.
      const size = t.size;
      reply.header('Content-Type', 'video/mp4');
      reply.header('Accept-Ranges', 'bytes');
      reply.header('Content-Disposition', contentDisposition('attachment', t.name, `${t.id}.mp4`));
      reply.header('Cache-Control', 'private, no-store');
      const range = parseRange(req.headers.range, size);
      if (range === 'bad') {
        reply.header('Content-Range', `bytes */${size}`);
        return reply.code(416).send();
      }
      const [start, end] = range ? [range.start, range.end] : [0, size - 1];
      if (range) reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`);
      reply.header('Content-Length', String(end - start + 1));
      return reply.send(fs.createReadStream(t.file, { start, end }));
    },
  );
}
