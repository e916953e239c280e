/**
 * PTZ of ONVIF devices through the `onvif` client: continuous moves and stop, presets (list, set, go
 * to, remove). Connected clients are kept for a minute per address and user, so a burst of moves
 * (a held arrow button) costs one connection handshake. Values that go into SOAP text are escaped
 * here: the client concatenates them into its XML as given.
 */
import onvif from 'onvif';
import { OnvifError, onvifCause } from './probe.js';

export interface PtzTarget {
  hostname: string;
  port: number;
  /** The device service path (from an Onvif service URL), default /onvif/device_service. */
  path?: string;
  username?: string;
  password?: string;
  timeoutMs?: number;
}

export const PTZ_DIRECTIONS = ['up', 'down', 'left', 'right', 'upleft', 'upright', 'downleft', 'downright', 'zoomin', 'zoomout'] as const;
export type PtzDirection = (typeof PTZ_DIRECTIONS)[number];

/** ONVIF generic velocity (-1..1) of a direction at speed 1-100: pan right +x, tilt up +y, zoom in +zoom. */
export function velocity(direction: PtzDirection, speed: number): { x: number; y: number; zoom: number } {
  const s = Math.round(Math.max(1, Math.min(100, speed))) / 100;
  const x = direction.endsWith('left') ? -s : direction.endsWith('right') ? s : 0;
  const y = direction.startsWith('up') ? s : direction.startsWith('down') ? -s : 0;
  const zoom = direction === 'zoomin' ? s : direction === 'zoomout' ? -s : 0;
  return { x, y, zoom };
}

export const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

type Cam = InstanceType<typeof onvif.Cam>;
/* eslint-disable @typescript-eslint/no-explicit-any */
type Loose = any;

const cache = new Map<string, { cam: Promise<Cam>; until: number }>();
const KEEP_MS = 60_000;

function classify(err: unknown): OnvifError {
  if (err instanceof OnvifError) return err;
  const e = err as NodeJS.ErrnoException & { xml?: string };
  const msg = String(e?.message ?? err);
  if (/NotAuthorized/i.test(e?.xml ?? '') || /NotAuthorized|Unauthorized|401/i.test(msg)) return new OnvifError('auth', msg);
  if (e?.code === 'ECONNREFUSED') return onvifCause('unreachable', 'connectionRefused');
  if (e?.code === 'EHOSTUNREACH' || e?.code === 'ENETUNREACH') return onvifCause('unreachable', 'hostUnreachable');
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') return onvifCause('unreachable', 'hostNotFound');
  if (/timeout/i.test(msg) || e?.code === 'ETIMEDOUT') return new OnvifError('timeout', msg);
  const words = msg.replace(/^ONVIF SOAP Fault:\s*/, '');
  return words ? new OnvifError('not-onvif', words) : onvifCause('not-onvif', 'unexpectedAnswer');
}

function connect(t: PtzTarget): Promise<Cam> {
  const key = `${t.hostname}:${t.port}${t.path ?? ''}|${t.username ?? ''}|${t.password ?? ''}`;
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.cam;
  const cam: Cam = new onvif.Cam({
    hostname: t.hostname,
    port: t.port,
    path: t.path || undefined,
    username: t.username || undefined,
    password: t.password || undefined,
    timeout: t.timeoutMs ?? 5000,
    autoconnect: false,
    preserveAddress: true,
  } as Loose);
  cam.on('error', () => {});
  const p = new Promise<Cam>((resolve, reject) => {
    cam.connect((err: Error | null, _d: unknown, xml?: string) => {
      if (err) reject(classify(Object.assign(err, { xml })));
      else if (!(cam as Loose).uri?.ptz) reject(onvifCause('not-onvif', 'noPtzService'));
      else resolve(cam);
    });
  });
  cache.set(key, { cam: p, until: Date.now() + KEEP_MS });
  p.catch(() => cache.delete(key));
  return p;
}

async function run<T>(t: PtzTarget, fn: (cam: Cam, cb: (err: Error | null, data?: T, xml?: string) => void) => void): Promise<T> {
  const cam = await connect(t);
  try {
    return await new Promise<T>((resolve, reject) => {
      fn(cam, (err, data, xml) => (err ? reject(Object.assign(err, { xml })) : resolve(data as T)));
    });
  } catch (err) {
    throw classify(err);
  }
}

/** Forgets the connected clients (tests, a changed password). */
export function resetPtzClients() {
  cache.clear();
}

export const ptz = {
  move: (t: PtzTarget, direction: PtzDirection, speed: number) => run<void>(t, (cam, cb) => (cam as Loose).continuousMove(velocity(direction, speed), cb)),
  stop: (t: PtzTarget) => run<void>(t, (cam, cb) => (cam as Loose).stop({ panTilt: true, zoom: true }, cb)),
  /** Presets as token and name. */
  presets: async (t: PtzTarget) => {
    const got = await run<Record<string, Loose>>(t, (cam, cb) => (cam as Loose).getPresets({}, cb));
    return Object.values(got).map((p: Loose) => ({ Token: String(p.$?.token ?? ''), Name: String(p.name ?? '') }));
  },
  setPreset: async (t: PtzTarget, name: string, token?: string) => {
    const data = await run<Loose>(t, (cam, cb) => (cam as Loose).setPreset({ presetName: xmlText(name), presetToken: token ? xmlText(token) : undefined }, cb));
    const body = data?.[0]?.setPresetResponse?.[0] ?? data?.setPresetResponse;
    const tok = body?.presetToken?.[0] ?? body?.presetToken;
    return { Token: tok === undefined ? '' : String(tok) };
  },
  gotoPreset: (t: PtzTarget, token: string, speed?: number) =>
    run<void>(t, (cam, cb) => (cam as Loose).gotoPreset({ preset: xmlText(token), speed: speed ? { x: speed / 100, y: speed / 100, zoom: speed / 100 } : undefined }, cb)),
  removePreset: (t: PtzTarget, token: string) => run<void>(t, (cam, cb) => (cam as Loose).removePreset({ presetToken: xmlText(token) }, cb)),
};
