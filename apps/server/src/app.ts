/**
 * Builds the Fastify app from its plugins. No side effects on import: tests build one per test.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { message, VERSION } from '@opencvr/shared';
import type { Config } from './config/index.js';
import { openDatabase, type Db } from './db/index.js';
import { seed } from './db/seed.js';
import type { AppContext } from './context.js';
import { registerAuth } from './http/auth.js';
import { registerErrorHandler } from './http/error-handler.js';
import { errorAnswer } from './http/envelope.js';
import { TokenService } from './services/auth/tokens.js';
import { LockoutService } from './services/auth/lockout.js';
import { ConfigStore } from './services/config/store.js';
import { EventBus } from './services/events.js';
import { NewsService } from './services/news/news.js';
import { SystemSampler } from './services/system/sampler.js';
import { Inventory } from './services/inventory/index.js';
import { AlwaysOnChannels } from './services/media/always-on.js';
import { CdnPushes } from './services/media/cdn.js';
import { StreamService, streamKey, type Flow } from './services/media/streams.js';
import { ChannelThumbnails } from './services/media/thumbnails.js';
import { stopStreamsOfRemovedChannels } from './services/media/removed-channels.js';
import { DEFAULT_HUB_OPTIONS } from './media/hub.js';
import { pulledSourceFactory } from './media/ingest/sources.js';
import { H264_VARIANT, LIVE_TRANSCODE, TranscodeSource } from './media/transcode.js';
import { settleDisabledDevices } from './services/inventory/device-enable.js';
import { settleDisabledChannels } from './services/inventory/channel-enable.js';
import { listCheckTargets, StreamChecker } from './services/inventory/stream-checker.js';
import { probeStream } from './access/stream-probe.js';
import { setRtmpsTrust } from './access/rtmp/tls-connect.js';
import { setRtspsTrust } from './access/tls/rtsps-trust.js';
import { setHttpsTrust } from './access/tls/https-trust.js';
import { channelTlsPins } from './services/inventory/tls-pins.js';
import { routes } from './routes/index.js';
import { RecordingService } from './services/recording/service.js';
import { GbLists } from './services/gb-lists/index.js';
import { GbService } from './gb/index.js';
import { GbMediaService } from './gb/media/index.js';
import { Alarms } from './services/alarms/index.js';
import { forwardGb, GbDeviceFeatures } from './gb/device-features.js';
import { attachGbAlarms } from './services/alarms/gb-alarm.js';
import { GbInviteClient, liveInviter } from './gb/invite/index.js';

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
}

export async function buildApp(settings: Config): Promise<BuiltApp> {
  const logRefEarly: { log?: FastifyBaseLogger } = {};
  const poolErrors: Error[] = [];
  const db = await openDatabase({
    dataDir: settings.dataDir,
    databaseUrl: settings.databaseUrl,
    onPoolError: (err) => (logRefEarly.log ? logRefEarly.log.warn({ err }, 'database connection lost') : poolErrors.push(err)),
  });
  await seed(db.kysely, db.engine);

  const events = new EventBus();
  const news = new NewsService(db.kysely, events);
  const inventory = new Inventory(db.kysely, db.engine, news);
  const configStore = new ConfigStore(db.kysely);
  const logRef: { log?: FastifyBaseLogger } = {};
  const lazyLog = { info: (o: object, m: string) => logRef.log?.info(o, m), warn: (o: object, m: string) => logRef.log?.warn(o, m) };
  const streams = new StreamService(configStore, DEFAULT_HUB_OPTIONS);
  const ctx: AppContext = {
    settings,
    db: db.kysely,
    engine: db.engine,
    config: configStore,
    streams,
    thumbnails: new ChannelThumbnails({
      dataDir: settings.dataDir,
      hubs: () => streams.hubs.list(),
      channelIds: async () => (await db.kysely.selectFrom('channels').select('id').execute()).map((r) => r.id),
      log: lazyLog,
    }),
    cdn: new CdnPushes({
      db: db.kysely,
      open: (d, c) => streams.open(d, c, 0),
      h264Of: (hub) => streams.get(hub.key + H264_VARIANT),
      hevc: settings.cdnHevc,
      log: lazyLog,
      changed: (c) => events.publish({ topic: 'cdn', payload: c }),
    }),
    alwaysOn: new AlwaysOnChannels({
      db: db.kysely,
      open: (d, c) => streams.open(d, c, 0),
      hubs: () => streams.hubs.list(),
      gbOnline: (deviceId) => ctx.gb.session(deviceId)?.online === true,
      log: lazyLog,
    }),
    recording: new RecordingService(
      { db: db.kysely, dataDir: settings.dataDir, config: configStore, streams, log: lazyLog },
      { fragmentSeconds: settings.recordFragmentSeconds },
    ),
    tokens: new TokenService(db.kysely, settings.tokenTtlSeconds),
    lockout: new LockoutService(db.kysely),
    events,
    news,
    inventory,
    gbLists: new GbLists(db.kysely, configStore),
    gb: new GbService({
      settings,
      config: configStore,
      db: db.kysely,
      news,
      lists: { admits: (deviceId, ip) => ctx.gbLists.admits(deviceId, ip) },
      log: { debug: (o, m) => logRef.log?.debug(o, m), info: (o, m) => logRef.log?.info(o, m), warn: (o, m) => logRef.log?.warn(o, m) },
    }),
    gbMedia: new GbMediaService({ config: configStore, log: lazyLog }),
    alarms: new Alarms({ db: db.kysely, events, streams, dataDir: settings.dataDir, log: lazyLog }),
    gbDevices: new GbDeviceFeatures({
      gb: forwardGb(() => ctx.gb),
      db: db.kysely,
      news,
      events,
      inventory,
      log: { debug: (o, m) => logRef.log?.debug(o, m), info: (o, m) => logRef.log?.info(o, m), warn: (o, m) => logRef.log?.warn(o, m) },
    }),
    gbInvite: new GbInviteClient(
      {
        sendRequest: (...a) => ctx.gb.sendRequest(...a),
        onRequest: (...a) => ctx.gb.onRequest(...a),
        onMessage: (...a) => ctx.gb.onMessage(...a),
        onDeviceStatus: (...a) => ctx.gb.onDeviceStatus(...a),
        gbConfig: () => ctx.gb.gbConfig(),
      },
      { debug: (o, m) => logRef.log?.debug(o, m), info: (o, m) => logRef.log?.info(o, m), warn: (o, m) => logRef.log?.warn(o, m) },
    ),
    streamChecker: new StreamChecker(
      {
        listTargets: () => listCheckTargets(db.kysely),
        setOnline: (pk, online, why) => inventory.channels.setOnline(pk, online, why),
        subscribe: (fn) => inventory.subscribe(fn),
        probe: probeStream,
        // Either flow of a pulled channel reads its one stream address (media/ingest/sources.ts); a
        // hub whose retry comes within `withinMs` counts as connecting (the probe would meet it).
        streamState: (pk, withinMs) => {
          const hubs = ([0, 1] as Flow[]).map((flow) => ctx.streams.get(streamKey(pk, flow)));
          if (hubs.some((h) => h?.state === 'live')) return 'live';
          const soon = Date.now() + withinMs;
          return hubs.some((h) => h?.state === 'connecting' || (h?.retryAt !== undefined && h.retryAt <= soon)) ? 'connecting' : undefined;
        },
        // A probe found the source answering again: a hub waiting out its back-off (up to 30 s) connects now.
        sourceBack: (pk) => {
          for (const flow of [0, 1] as Flow[]) ctx.streams.hubs.get(streamKey(pk, flow))?.retryNow();
        },
        // The app's logger, once the app exists (below).
        log: { info: (o, m) => logRef.log?.info(o, m), warn: (o, m) => logRef.log?.warn(o, m) },
      },
      { intervalSeconds: settings.channelCheckInterval },
    ),
    sampler: new SystemSampler(),
    startedAt: new Date(),
  };

  // Pulled channels (RTSP natively; RTMP, HTTP-FLV, HLS, RTSPS through ffmpeg).
  ctx.streams.registerSource(pulledSourceFactory);
  // GB28181 channels: PS over RTP, once the SIP side has plugged its INVITE in (ctx.gbMedia.setInviter).
  ctx.streams.registerSource(ctx.gbMedia.sourceFactory);
  ctx.gbMedia.setInviter(liveInviter(ctx.gbInvite));
  ctx.streams.registerVariant(H264_VARIANT, (original) => new TranscodeSource(() => ctx.streams.get(original), LIVE_TRANSCODE));
  // An always-on channel an administrator stopped opens on-demand for its viewers until released.
  ctx.streams.alwaysOnHeld = (pk) => ctx.alwaysOn.isHeld(pk);

  const app = Fastify({
    logger: settings.logLevel === 'silent' ? false : { level: settings.logLevel },
    bodyLimit: settings.bodyLimit,
    trustProxy: false,
    // Query strings like ?a=1&a=2 stay predictable; unknown keys are simply ignored by the schemas.
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  logRef.log = app.log;
  logRefEarly.log = app.log;
  // Before any push or check dials out; a bad RTMPS_CA_FILE stops the server here, saying why.
  setRtmpsTrust({ caFile: settings.rtmpsCaFile, insecure: settings.rtmpsInsecure }, app.log);
  // rtsps:// cameras: RTSPS_CA_FILE's and the system's authorities, else the channel's pin (tls_pin).
  setRtspsTrust({ caFile: settings.rtspsCaFile }, channelTlsPins(db.kysely), app.log);
  // https:// stream servers (probe and ffmpeg's fetches): HTTPS_CA_FILE's and the system's authorities, else the same pin.
  setHttpsTrust({ caFile: settings.httpsCaFile }, channelTlsPins(db.kysely), app.log);
  for (const err of poolErrors.splice(0)) app.log.warn({ err }, 'database connection lost');
  // A source's own words (the user reads the catalogue's reason instead: stream-reasons.ts).
  streams.hubs.onFailure = (hub, reason, why) => app.log.info({ stream: hub.key, reason, why: why?.key }, 'stream: the source failed; retrying');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // antd injects its CSS at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'mediastream:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        workerSrc: ["'self'", 'blob:'],
        scriptSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(formbody);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'OpenCVR API', version: VERSION, description: 'EasyCVR-compatible HTTP API of OpenCVR' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } } },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/apidoc', uiConfig: { docExpansion: 'list' } });

  registerAuth(app, ctx);
  registerErrorHandler(app);
  await app.register(routes, { ctx });

  const webDist = settings.webDist ?? path.resolve(import.meta.dirname, '../../web/dist');
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      // Each request looks at the disk (a stat, as a file's own route did): a console rebuilt under the
      // running server (an upgrade in place) is served at once. With wildcard false the files found at
      // start-up got a route each, and the new build's assets were 404s until a restart while its
      // index.html (read at each request) already named them. A path that is no file falls through
      // to the not-found handler below (the index page, or a 404 under assets/).
      wildcard: true,
      index: 'index.html',
      // Files under assets/ carry a content hash in their name: a browser may keep them for good and
      // skip the ~50 revalidations a warm load of the console would otherwise make. index.html (which
      // names them) is always revalidated so a new build is picked up at once.
      setHeaders(res, filePath) {
        const rel = path.relative(webDist, filePath).split(path.sep);
        if (rel[0] === 'assets') res.header('Cache-Control', 'public, max-age=31536000, immutable');
        else res.header('Cache-Control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    // The console is a single-page app: any GET outside the API gets its index page. Not a missing
    // file under assets/ (a chunk of an older build, asked for by a console open across an upgrade):
    // that is a 404, which the console's chunk-error page handles, not HTML in place of a script.
    if (hasWeb && req.method === 'GET' && !req.url.startsWith('/api/') && !req.url.startsWith('/apidoc') && !req.url.startsWith('/assets/')) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(errorAnswer(req.url, 404, message('routeNotFound', req.lang ?? 'zh-CN')));
  });

  // Expired tokens are refused on use; this only keeps the table small.
  const purge = setInterval(() => void ctx.tokens.purgeExpired().catch((err) => app.log.warn({ err }, 'token purge failed')), 3600_000);
  purge.unref();

  // A channel edit (EnableRecord, Enable) is picked up at once by the recording engine.
  const unwatch = inventory.subscribe(() => {
    void ctx.recording.engine.kick();
    void ctx.cdn.reconcile();
    void ctx.alwaysOn.reconcile();
    void stopStreamsOfRemovedChannels(ctx).catch((err) => app.log.warn({ err }, 'streams of removed channels not stopped'));
  });
  // An always-on GB channel is opened when its device comes online and let go when it goes offline.
  const unwatchGbStatus = ctx.gb.onDeviceStatus(() => void ctx.alwaysOn.reconcile());
  // GB28181 Alarm NOTIFY/MESSAGE are stored (and pushed) as protocol alarms.
  const unwatchAlarms = attachGbAlarms(ctx.gb, ctx.alarms, lazyLog);
  // Catalog, device info, subscriptions: hooked on before the SIP server starts so no registration is missed.
  ctx.gbDevices.start();
  // INVITE sessions: the device's BYE, MediaStatus 121 and offline events end them.
  ctx.gbInvite.start();
  app.addHook('onReady', async () => {
    // Channels of disabled devices read offline in every list and count (a database from before that rule).
    await settleDisabledDevices(ctx.db);
    // And disabled channels (channel-enable.ts).
    await settleDisabledChannels(ctx.db);
    await ctx.streamChecker.start();
    // GB28181 SIP (UDP + TCP). A taken port is logged, not fatal: the console stays reachable to change it.
    await ctx.gb.start().catch((err) => app.log.error({ err }, 'gb: SIP server could not start'));
    // Reconciliation may walk many files: it runs in the background; recording starts after it.
    void ctx.recording.start().catch((err) => app.log.error({ err }, 'recording: start failed'));
    void ctx.cdn.start();
    // Always-on channels start with no viewer (paced, in the background; GB ones once their device registers).
    void ctx.alwaysOn.start();
    void ctx.thumbnails.start();
  });
  app.addHook('onClose', async () => {
    unwatch();
    unwatchAlarms();
    unwatchGbStatus();
    await ctx.alwaysOn.stop();
    await ctx.recording.stop();
    await ctx.cdn.stop();
    await ctx.thumbnails.stop();
    await ctx.streamChecker.stop();
    // BYE to the devices still sending (while the SIP server can still send it).
    await ctx.gbInvite.stop();
    await ctx.gb.stop();
    await ctx.gbDevices.stop();
    ctx.streams.stopAll();
    clearInterval(purge);
    ctx.sampler.stop();
    // A snapshot being written for an alarm finishes before the database closes.
    await ctx.alarms.idle();
    await db.close();
  });
  return { app, ctx, db };
}
