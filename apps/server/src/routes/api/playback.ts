/**
 * Playback and download of recordings (issue 5): devices/record/playback makes a session streamed
 * over /ws_m4s/playback/<id>.mp4 (routes/media/playback.ts) and steered by request_id
 * (devices/record/playback/control, playbackspeed, /api/v2/playState); download/{id}/{start} and
 * record/recordvideo/{play|download}/{mp4|m3u8}/{device:channel}/{start}/{end} answer one MP4 joined
 * from the segments without transcoding (Content-Length up front, byte ranges). A user reaches only
 * the channels its role may see (404 otherwise); files come only from the index.
 */
import { Readable } from 'node:stream';
import { channelFileName, reason, type Lang } from '@opencvr/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Channel } from '../../db/schema.js';
import { isAdmin } from '../../http/auth.js';
import { v1, v2 } from '../../http/envelope.js';
import { ApiError, invalidParam, notFound } from '../../http/errors.js';
import { MAX_ID } from '../../http/schemas.js';
import { schemaReason } from '../../http/zod-reason.js';
import { scopeOf, visibleChannelIds } from '../../services/inventory/scope.js';
import { PlaybackBusyError, playbackOf, SPEEDS } from '../../services/playback/index.js';
import { readJoined, type JoinedMp4 } from '../../services/playback/join.js';
import { localStamp, parseLocalStamp, shownTime } from '../../services/recording/time.js';
import { refIn, refOf } from './records.js';
import { deviceId } from './inventory-schemas.js';
import { DEVICE_SPEEDS, DevicePlaybackSession, gbRecordsOf } from '../../gb/records/index.js';
import { deviceFailure, gbDeviceOf, isDeviceSource } from './gb-records.js';

const tags = ['playback'];

const stamp = z.string().trim().regex(/^\d{14}$/, schemaReason('format', { format: 'YYYYMMDDHHmmss' }));
/** Longest range one playback or download may cover. */
const MAX_RANGE_MS = 7 * 86400_000;
/** How long a device playback's answer waits for the codec of the device's stream (live's variantUrls waits as long). */
const DEVICE_CODEC_WAIT_MS = 4000;

function timeOf(field: string, s: string): number {
  const d = parseLocalStamp(s);
  if (!d) throw invalidParam(field, 'notLocalTime');
  return d.getTime();
}

/** ASCII file name (unsafe characters → _), and the UTF-8 one for filename*. */
export function contentDisposition(kind: 'attachment' | 'inline', name: string, fallback: string): string {
  const safe = /^[A-Za-z0-9 ._()-]+$/.test(name) ? name : fallback.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${kind}; filename="${safe}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** A single bytes=a-b range of a `size`-byte body; undefined = the whole body; 'bad' = unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'bad' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return undefined; // several ranges or a form we do not serve: the whole body
  let start: number;
  let end: number;
  if (!m[1]) {
    const n = Number(m[2]);
    if (!n) return 'bad';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  }
  if (start >= size || start > end) return 'bad';
  return { start, end };
}

export async function playbackRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const playback = playbackOf(ctx, app.log);
  app.addHook('onClose', async () => playback.closeAll());
  const { channels } = ctx.inventory;

  async function visibleChannel(req: FastifyRequest, ref: { device: string; channel: string }): Promise<Channel> {
    return channels.requireVisible(await scopeOf(ctx.db, req.user!), ref.device, ref.channel);
  }

  /** A session of this user (an administrator may steer any), else 404; the platform's or a GB device's. */
  function sessionOf(req: FastifyRequest, requestId: string) {
    const s = playback.get(requestId) ?? gbRecordsOf(ctx).get(requestId);
    if (!s || (s.userId !== req.user!.id && !isAdmin(req.user!))) throw notFound('playback', { id: requestId });
    return s;
  }

  const mp4Path = (c: Channel, from: number, to: number, mode: 'play' | 'download', fmt: 'mp4' | 'm3u8' = 'mp4') =>
    `/api/v1/record/recordvideo/${mode}/${fmt}/${encodeURIComponent(`${c.parent_device_id}:${c.channel_id}`)}/${localStamp(new Date(from))}/${localStamp(new Date(to))}`;

  const playbackQuery = z.object({
    channel: z.string().trim().max(140).optional(),
    device: deviceId.optional(),
    id: z.string().trim().max(140).optional(),
    /** Required, except on a keep-alive (`url`). */
    stime: stamp.optional(),
    etime: stamp.optional(),
    duration: z.coerce.number().int().min(1).max(MAX_RANGE_MS / 1000).optional(),
    protocol: z.string().trim().max(16).default('ws_m4s'),
    file: z.string().max(256).optional(),
    url: z.string().max(2048).optional(),
    /** Device: the recording kept on the GB28181 device (INVITE s=Playback); else the platform's own. */
    recordType: z.string().max(16).optional(),
  });

  r.get('/api/v1/devices/record/playback', { schema: { tags, querystring: playbackQuery } }, async (req) => {
    const q = req.query;
    // EasyCVR's keep-alive: the same call every 25 s with `url`, the URL it answered. The session that
    // URL names (this user's) is answered again; no new one is made (a session lives as long as its
    // socket, so nothing needs extending).
    const kept = q.url ? /\/ws_m4s\/playback\/([0-9a-f]{32})(_h264)?\.mp4/.exec(q.url) : null;
    if (kept) {
      const s = sessionOf(req, kept[1]);
      const { token } = await ctx.streams.signShare(`playback:${s.id}`, 24 * 3600);
      return v1('MSG_SC_RECORD_PLAYBACK_ACK', {
        URL: `/ws_m4s/playback/${s.id}${kept[2] ?? ''}.mp4?play_token=${token}`,
        request_id: s.id,
        EndAt: localStamp(new Date(s.to)),
        State: s.state,
      });
    }
    if (!q.stime) throw invalidParam('stime', 'required');
    let ref: { device: string; channel: string };
    if (q.channel?.includes(':')) ref = refIn('channel', q.channel);
    else if (q.device && q.channel) ref = refOf({ device: q.device, channel: q.channel });
    else ref = refOf({ id: q.id });
    const c = await visibleChannel(req, ref);
    const from = timeOf('stime', q.stime);
    let to: number;
    if (q.etime) to = timeOf('etime', q.etime);
    else if (q.duration) to = from + q.duration * 1000;
    else {
      const d = new Date(from);
      to = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
    }
    if (to <= from || to - from > MAX_RANGE_MS) throw invalidParam('etime', 'afterStartWithinDays', { start: 'stime', days: 7 });
    if (isDeviceSource(q.recordType)) return openDevicePlayback(req, c, from, to);
    const protocol = q.protocol.toUpperCase();
    if (!['WS_M4S', 'WS_FMP4', 'FMP4', 'MP4', 'HLS'].includes(protocol)) throw invalidParam('protocol', 'oneOf', { values: 'ws_m4s, mp4, hls' });
    const found = await playback.startOf(c.id, from, to);
    if (!found) throw notFound('recordingsFrom', { id: `${ref.device}:${ref.channel}`, from: shownTime(q.stime) });
    let session;
    try {
      session = playback.create(c.id, req.user!.id, from, to, req.lang);
    } catch (err) {
      // Every session has its viewer: a clear 503, not an internal error.
      if (err instanceof PlaybackBusyError) throw new ApiError(503, 'playbackSessionsBusy', { max: err.max });
      throw err;
    }
    const { token } = await ctx.streams.signShare(`playback:${session.id}`, 24 * 3600);
    const ws = `/ws_m4s/playback/${session.id}.mp4?play_token=${token}`;
    // An H.265 recording also offers its H.264 leg, named as live's variants (WS_FMP4_H264): the same
    // session and token, transcoded by the server for browsers that cannot decode H.265.
    const h264 = found.hevc ? { WS_FMP4_H264: ws.replace('.mp4?', '_h264.mp4?') } : {};
    const URLs = { WS_FMP4: ws, ...h264, MP4: mp4Path(c, from, to, 'play'), HLS: mp4Path(c, from, to, 'play', 'm3u8') };
    return v1('MSG_SC_RECORD_PLAYBACK_ACK', {
      URL: protocol === 'MP4' ? URLs.MP4 : protocol === 'HLS' ? URLs.HLS : ws,
      URLs,
      request_id: session.id,
      StartAt: localStamp(new Date(found.startAt)),
      EndAt: localStamp(new Date(found.endAt)),
    });
  });

  /** A playback of the recording kept on the channel's GB device: the same socket and controls. */
  async function openDevicePlayback(req: FastifyRequest, c: Channel, from: number, to: number) {
    const d = await gbDeviceOf(ctx, c);
    if (to - from > 24 * 3600_000) throw invalidParam('etime', 'afterStartWithinHours', { start: 'stime', hours: 24 });
    let session: DevicePlaybackSession;
    try {
      session = await gbRecordsOf(ctx).playback({ device: d, channel: c, userId: req.user!.id, from, to, lang: req.lang });
    } catch (err) {
      throw deviceFailure(err, d.device_id, ctx.gb.log);
    }
    const { token } = await ctx.streams.signShare(`playback:${session.id}`, 24 * 3600);
    const ws = `/ws_m4s/playback/${session.id}.mp4?play_token=${token}`;
    // An H.265 recording gets the H.264 leg as the platform's own do. Its codec shows only in the
    // device's stream (PS names it; the SDP answer does not), which may start seconds after the
    // INVITE: waited for a little. Unknown still gets the leg (not the live stream's codec: the
    // recording may predate a change): its socket decides once the stream shows the codec, an
    // H.264 one passing through, so a slow device's H.265 reaches a browser without H.265 too.
    const codec = await session.videoCodec(DEVICE_CODEC_WAIT_MS);
    const h264 = codec !== 'h264' ? { WS_FMP4_H264: ws.replace('.mp4?', '_h264.mp4?') } : {};
    return v1('MSG_SC_RECORD_PLAYBACK_ACK', {
      URL: ws,
      URLs: { WS_FMP4: ws, ...h264 },
      request_id: session.id,
      StartAt: localStamp(new Date(from)),
      EndAt: localStamp(new Date(to)),
      // The device sends at the chosen speed and the timestamps carry it: players keep playbackRate 1.
      Source: 'Device',
      SpeedInStream: 1,
    });
  }

  const speedValue = z.coerce
    .number()
    .refine((n) => (SPEEDS as readonly number[]).includes(n), schemaReason('oneOf', { values: SPEEDS.join(', ') }));

  r.get(
    '/api/v1/devices/record/playback/control',
    {
      schema: {
        tags,
        querystring: z.object({
          request_id: z.string().regex(/^[0-9a-f]{32}$/),
          command: z.enum(['pause', 'resume', 'play', 'seek', 'scale', 'speed', 'stop', 'teardown']),
          time: stamp.optional(),
          speed: speedValue.optional(),
          scale: speedValue.optional(),
        }),
      },
    },
    async (req) => {
      const q = req.query;
      const s = sessionOf(req, q.request_id);
      try {
        await steer(s, q);
      } catch (err) {
        if (err instanceof ApiError || !(s instanceof DevicePlaybackSession)) throw err;
        throw deviceFailure(err, s.deviceId, ctx.gb.log);
      }
      return v1('MSG_SC_RECORD_PLAYBACK_CONTROL_ACK', { request_id: s.id, State: s.state, Speed: s.speed, ...endReason(s, req.lang, 'Reason') });
    },
  );

  /** One control command on a session (a device session's are INFO requests: awaited, they may fail). */
  async function steer(s: ReturnType<typeof sessionOf>, q: { command: string; time?: string; speed?: number; scale?: number }) {
      switch (q.command) {
        case 'pause':
          await s.pause();
          break;
        case 'resume':
        case 'play':
          await s.resume();
          break;
        case 'seek': {
          if (!q.time) throw invalidParam('time', 'seekTimeRequired');
          const at = timeOf('time', q.time);
          if (at < s.from || at >= s.to) throw invalidParam('time', 'insidePlaybackRange');
          await s.seek(at);
          break;
        }
        case 'scale':
        case 'speed': {
          const v = q.speed ?? q.scale;
          if (v === undefined) throw invalidParam('speed', 'oneOf', { values: SPEEDS.join(', ') });
          await setSpeedOf(s, v);
          break;
        }
        default:
          s.close();
      }
  }

  /** A device plays at 0.5-8× (MANSRTSP Scale); the platform's own playback up to 16×. */
  async function setSpeedOf(s: ReturnType<typeof sessionOf>, v: number) {
    if (s instanceof DevicePlaybackSession) {
      if (!(DEVICE_SPEEDS as readonly number[]).includes(v)) throw invalidParam('speed', 'deviceSpeeds', { values: DEVICE_SPEEDS.join(', ') });
      await s.setSpeed(v);
    } else s.setSpeed(v);
  }

  r.get(
    '/api/v1/playbackspeed',
    { schema: { tags, querystring: z.object({ request_id: z.string().regex(/^[0-9a-f]{32}$/), speed: speedValue.optional(), scale: speedValue.optional() }) } },
    async (req) => {
      const v = req.query.speed ?? req.query.scale;
      if (v === undefined) throw invalidParam('speed', 'oneOf', { values: SPEEDS.join(', ') });
      const s = sessionOf(req, req.query.request_id);
      try {
        await setSpeedOf(s, v);
      } catch (err) {
        if (err instanceof ApiError || !(s instanceof DevicePlaybackSession)) throw err;
        throw deviceFailure(err, s.deviceId, ctx.gb.log);
      }
      return v1('MSG_SC_PLAYBACK_SPEED_ACK', { request_id: s.id, Speed: s.speed });
    },
  );

  r.get('/api/v2/playState', { schema: { tags, querystring: z.object({ request_id: z.string().max(64) }) } }, async (req) => {
    const s = sessionOf(req, req.query.request_id);
    return v2({
      request_id: s.id,
      state: s.state,
      speed: s.speed,
      position: localStamp(new Date(s.position)),
      startAt: localStamp(new Date(s.from)),
      endAt: localStamp(new Date(s.to)),
      ...endReason(s, req.lang, 'reason'),
    });
  });

  /** Why a playback (the platform's or a device's) ended or stopped, in the request's language (a field only when there is one). */
  function endReason<K extends string>(s: ReturnType<typeof sessionOf>, lang: Lang, field: K): Partial<Record<K, string>> {
    if (!s.reason) return {};
    return { [field]: reason(s.reason.key, lang, s.reason.vars) } as Partial<Record<K, string>>;
  }

  /** Sends a joined MP4: Content-Length, byte ranges, a file name; lets go of its files (j.release) when done. */
  async function sendJoined(req: FastifyRequest, reply: FastifyReply, j: JoinedMp4, name: string, fallback: string, mode: 'inline' | 'attachment') {
    reply.header('Content-Type', 'video/mp4');
    reply.header('Accept-Ranges', 'bytes');
    reply.header('Content-Disposition', contentDisposition(mode, name, fallback));
    reply.header('Cache-Control', 'private, no-store');
    reply.header('X-Record-Start', localStamp(new Date(j.startAt)));
    reply.header('X-Record-End', localStamp(new Date(j.endAt)));
    if (j.cutAt !== undefined) reply.header('X-Record-Cut', localStamp(new Date(j.cutAt)));
    const range = parseRange(req.headers.range, j.size);
    if (range === 'bad') {
      j.release?.();
      reply.header('Content-Range', `bytes */${j.size}`);
      return reply.code(416).send();
    }
    const [start, end] = range ? [range.start, range.end] : [0, j.size - 1];
    if (range) {
      reply.code(206);
      reply.header('Content-Range', `bytes ${start}-${end}/${j.size}`);
    }
    reply.header('Content-Length', String(end - start + 1));
    const body = Readable.from(readJoined(j, start, end), { objectMode: false });
    body.on('error', (err) => app.log.warn({ err }, 'download: stream failed'));
    // Sent, failed or cut off by the client: the body closes in every case.
    body.on('close', () => j.release?.());
    return reply.send(body);
  }

  /** The HLS form of a joined file: byte ranges of its play/mp4 URL. */
  function playlist(j: JoinedMp4, mp4Url: string): string {
    const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-INDEPENDENT-SEGMENTS'];
    const durations = j.pieces.slice(1).map((p) => (p.kind === 'raw' ? 0 : (p.seconds ?? 0)));
    lines.push(`#EXT-X-TARGETDURATION:${Math.max(1, Math.ceil(Math.max(0, ...durations)))}`);
    lines.push('#EXT-X-MEDIA-SEQUENCE:0');
    let pos = 0;
    j.pieces.forEach((p, i) => {
      const len = p.kind === 'bytes' ? p.data.length : p.length;
      if (i === 0) lines.push(`#EXT-X-MAP:URI="${mp4Url}",BYTERANGE="${len}@0"`);
      else lines.push(`#EXTINF:${(p.kind === 'raw' ? 0 : (p.seconds ?? 0)).toFixed(3)},`, `#EXT-X-BYTERANGE:${len}@${pos}`, mp4Url);
      pos += len;
    });
    lines.push('#EXT-X-ENDLIST');
    return `${lines.join('\n')}\n`;
  }

  /** The download's name, the rule the console's snapshot follows too (shared channelFileName). */
  const fileName = (c: Channel, from: number, to: number) =>
    channelFileName(c.name || `${c.parent_device_id}_${c.channel_id}`, [localStamp(new Date(from)), localStamp(new Date(to))], 'mp4');
  const fallbackName = (c: Channel, from: number, to: number) => `${c.parent_device_id}_${c.channel_id}_${localStamp(new Date(from))}_${localStamp(new Date(to))}.mp4`;

  r.get(
    '/api/v1/download/:id/:start',
    { schema: { tags, params: z.object({ id: z.string().regex(/^\d{1,10}$/, schemaReason('recordingId')).refine((s) => Number(s) >= 1 && Number(s) <= MAX_ID, schemaReason('recordingId')), start: z.string().regex(/^(0|\d{14})$/, schemaReason('zeroOrLocalTime')) }) } },
    async (req, reply) => {
      const segId = Number(req.params.id);
      const seg = await ctx.recording.index.get(segId);
      if (!seg) throw notFound('recording', { id: segId });
      const scope = await scopeOf(ctx.db, req.user!);
      const c = await ctx.db
        .selectFrom('channels')
        .selectAll()
        .where('id', '=', seg.channelPk)
        .where((eb) => (scope.all ? eb.lit(true) : visibleChannelIds(eb, scope)!))
        .executeTakeFirst();
      if (!c) throw notFound('recording', { id: segId });
      let from = seg.startAt.getTime();
      const to = Math.max(seg.endAt.getTime(), from + 1);
      if (req.params.start !== '0') {
        from = timeOf('start', req.params.start);
        if (from < seg.startAt.getTime() - 1000 || from >= to) throw invalidParam('start', 'insideRecording');
      }
      // Only this row's file, and only through the index (a path outside the record folder is dropped there).
      const j = await playback.download(c.id, from, to, (s) => s.id === segId);
      if (!j) throw notFound('recording', { id: segId });
      return sendJoined(req, reply, j, fileName(c, from, to), fallbackName(c, from, to), 'attachment');
    },
  );

  r.get(
    '/api/v1/record/recordvideo/:mode/:fmt/:channel/:start/:end',
    {
      schema: {
        tags,
        params: z.object({ mode: z.enum(['play', 'download']), fmt: z.enum(['mp4', 'm3u8']), channel: z.string().max(140), start: stamp, end: stamp }),
        querystring: z.object({ token: z.string().max(256).optional() }),
      },
    },
    async (req, reply) => {
      const p = req.params;
      const ref = refIn('channel', p.channel);
      const c = await visibleChannel(req, ref);
      const from = timeOf('start', p.start);
      const to = timeOf('end', p.end);
      if (to <= from || to - from > MAX_RANGE_MS) throw invalidParam('end', 'afterStartWithinDays', { start: 'start', days: 7 });
      // download: one progressive MP4 of exactly the range (edit list); play and m3u8: the fragmented join (byte-range HLS).
      const j = p.mode === 'download' && p.fmt === 'mp4' ? await playback.download(c.id, from, to) : await playback.join(c.id, from, to);
      if (!j) throw notFound('recordingsRange', { id: `${ref.device}:${ref.channel}`, from: shownTime(p.start), to: shownTime(p.end) });
      if (p.fmt === 'm3u8') {
        j.release?.();
        const token = req.query.token ? `?token=${encodeURIComponent(req.query.token)}` : '';
        return reply
          .type('application/vnd.apple.mpegurl')
          .header('Cache-Control', 'private, no-store')
          .send(playlist(j, `${mp4Path(c, from, to, 'play')}${token}`));
      }
      return sendJoined(req, reply, j, fileName(c, from, to), fallbackName(c, from, to), p.mode === 'play' ? 'inline' : 'attachment');
    },
  );

  // Recordings kept on GB devices (downloaddevicerecord, downloadrecord/*): routes/api/gb-records.ts.
}
