/**
 * One typed configuration: defaults, then environment variables, validated at boot so a bad value
 * stops the server with a clear message instead of failing later.
 */
import path from 'node:path';
import { z } from 'zod';
import { TOKEN_TTL_SECONDS } from '@opencvr/shared';
import { MAX_FRAGMENT_SECONDS } from '../media/outputs/recorder.js';

const schema = z.object({
  host: z.string().min(1),
  port: z.coerce.number().int().min(0).max(65535),
  dataDir: z.string().min(1),
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  tokenTtlSeconds: z.coerce.number().int().min(1),
  webDist: z.string().optional(),
  /** Largest accepted request body in bytes. */
  bodyLimit: z.coerce.number().int().min(1024),
  /** Seconds between two reachability checks of an RTSP/ONVIF channel (CHANNEL_CHECK_INTERVAL); 0 turns checks off. */
  channelCheckInterval: z.coerce.number().int().min(0).max(86400),
  /** GB28181 SIP port (SIP_PORT) for UDP and TCP; unset = the Port of the gb config section (15060); 0 = any free port (tests). */
  sipPort: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * How an H.265 channel's CDN push goes out (CDN_HEVC): as it is, enhanced RTMP 'hvc1' (default) or
   * the legacy FLV codec id 12 ('codec-id-12', many Chinese CDNs, older SRS/nginx-rtmp forks), or as
   * its H.264 variant for CDNs that take only H.264.
   */
  cdnHevc: z.enum(['hvc1', 'codec-id-12', 'h264']),
  /** Certificates trusted for rtmps:// besides the system's (RTMPS_CA_FILE, PEM): a site's private CA or a self-signed ingest's certificate. */
  rtmpsCaFile: z.string().min(1).optional(),
  /** rtmps:// certificates not checked (RTMPS_INSECURE=1): the last way out, logged (access/rtmp/tls-connect.ts). */
  rtmpsInsecure: z.union([z.boolean(), z.enum(['0', '1']).transform((v) => v === '1')], { message: 'RTMPS_INSECURE must be 0 or 1' }),
  /**
   * Certificates trusted for rtsps:// cameras besides the system's (RTSPS_CA_FILE, PEM): a site's
   * private CA. A camera's certificate no authority vouches for is pinned at first use instead.
   */
  rtspsCaFile: z.string().min(1).optional(),
  /**
   * Certificates trusted for https:// stream servers besides the system's (HTTPS_CA_FILE, PEM): a
   * site's private CA. The address's own server with no authority's certificate is pinned at first use.
   */
  httpsCaFile: z.string().min(1).optional(),
  /**
   * Longest fragment of a recording in seconds (RECORD_FRAGMENT_SECONDS, default 1, at most
   * MAX_FRAGMENT_SECONDS): the kill -9 bound of issue 5 holds at every value (recorder.ts, HANDOFF_MS).
   */
  recordFragmentSeconds: z.coerce.number().min(0.1).max(MAX_FRAGMENT_SECONDS),
});
export type Config = z.infer<typeof schema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw = {
    host: env.HOST ?? '0.0.0.0',
    port: env.PORT ?? 18000,
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    tokenTtlSeconds: env.TOKEN_TTL ?? TOKEN_TTL_SECONDS,
    webDist: env.WEB_DIST,
    bodyLimit: env.BODY_LIMIT ?? 1024 * 1024,
    channelCheckInterval: env.CHANNEL_CHECK_INTERVAL ?? 30,
    sipPort: env.SIP_PORT || undefined,
    cdnHevc: env.CDN_HEVC || 'hvc1',
    rtmpsCaFile: env.RTMPS_CA_FILE || undefined,
    rtmpsInsecure: env.RTMPS_INSECURE || '0',
    rtspsCaFile: env.RTSPS_CA_FILE || undefined,
    httpsCaFile: env.HTTPS_CA_FILE || undefined,
    recordFragmentSeconds: env.RECORD_FRAGMENT_SECONDS || 1,
    ...overrides,
  };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${issues}`);
  }
  return parsed.data;
}
