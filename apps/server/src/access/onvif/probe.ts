/**
 * Reads an ONVIF device through the `onvif` client: its information, media profiles and each
 * profile's stream and snapshot URIs. Failures become an OnvifError of one kind (timeout, auth,
 * not-onvif, unreachable) with the device's own words in `detail`.
 */
import onvif from 'onvif';
import { reason, type OnvifProbeBody, type OnvifProfile, type Reason, type ReasonKey } from '@opencvr/shared';

export type OnvifErrorKind = 'timeout' | 'auth' | 'not-onvif' | 'unreachable';

export class OnvifError extends Error {
  constructor(
    readonly kind: OnvifErrorKind,
    /** The device's own words, or the English of `why`. */
    readonly detail: string,
    /** Where the platform names the cause itself (a refused connection …): the catalogue reason, for an answer in the request's language. */
    readonly why?: Reason,
  ) {
    super(`${kind}: ${detail}`);
  }
}

/** A cause the platform names itself (not the device's words). */
export const onvifCause = (kind: OnvifErrorKind, key: ReasonKey) => new OnvifError(kind, reason(key, 'en-US'), { key });

export interface OnvifProbeOptions {
  hostname: string;
  port: number;
  username?: string;
  password?: string;
  /** For the whole exchange. Default 5000 ms. */
  timeoutMs?: number;
}

type Cam = InstanceType<typeof onvif.Cam>;
// The client's callbacks carry loosely typed SOAP data; these are the fields we read.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Loose = any;

function classify(err: unknown, timeoutMs: number): OnvifError {
  if (err instanceof OnvifError) return err;
  const e = err as NodeJS.ErrnoException & { message?: string; xml?: string };
  const msg = String(e?.message ?? err);
  // ONVIF Core 5.11.2.3: a refused WS-Security token is the Sender fault with subcode ter:NotAuthorized.
  if (/NotAuthorized/i.test(e?.xml ?? '')) return new OnvifError('auth', msg);
  if (e?.code === 'ECONNREFUSED') return onvifCause('unreachable', 'connectionRefused');
  if (e?.code === 'EHOSTUNREACH' || e?.code === 'ENETUNREACH') return onvifCause('unreachable', 'hostUnreachable');
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') return onvifCause('unreachable', 'hostNotFound');
  if (e?.code === 'ECONNRESET') return onvifCause('not-onvif', 'connectionReset');
  if (/timeout/i.test(msg) || e?.code === 'ETIMEDOUT') return new OnvifError('timeout', `no answer within ${timeoutMs} ms`);
  if (/NotAuthorized|not authorized|Unauthorized|authentication failed|401/i.test(msg)) return new OnvifError('auth', msg);
  const words = msg.replace(/^ONVIF SOAP Fault:\s*/, '');
  return words ? new OnvifError('not-onvif', words) : onvifCause('not-onvif', 'unexpectedAnswer');
}

/** Runs one callback-style client call; a failure keeps the SOAP answer (`xml`) for classify(). */
function call<T>(fn: (cb: (err: Error | null, data?: T, xml?: string) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    try {
      fn((err, data, xml) => (err ? reject(Object.assign(err, { xml: typeof xml === 'string' ? xml : '' })) : resolve(data as T)));
    } catch (err) {
      reject(err);
    }
  });
}

const num = (v: unknown) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

export async function probeOnvif(opts: OnvifProbeOptions): Promise<OnvifProbeBody> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const cam: Cam = new onvif.Cam({
    hostname: opts.hostname,
    port: opts.port,
    username: opts.username || undefined,
    password: opts.password || undefined,
    timeout: timeoutMs,
    autoconnect: false,
    // Service addresses from the device often name another address (NAT, a second interface):
    // talk to the one we were given.
    preserveAddress: true,
  });
  // The client emits warnings and errors as events too; an unheard 'error' event would throw.
  cam.on('error', () => {});
  cam.on('warning', () => {});

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OnvifError('timeout', `no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const work = (async (): Promise<OnvifProbeBody> => {
    await call((cb) => cam.connect(cb));
    const info: Loose = await call((cb) => cam.getDeviceInformation(cb as never));
    const profiles: Loose[] = (cam as Loose).profiles ?? [];
    const out: OnvifProfile[] = [];
    for (const p of profiles) {
      const token = str(p?.$?.token ?? p?.token);
      const enc: Loose = p?.videoEncoderConfiguration ?? p?.configurations?.videoEncoder ?? {};
      const stream: Loose = await call((cb) => cam.getStreamUri({ protocol: 'RTSP', profileToken: token }, cb as never)).catch(() => undefined);
      const snap: Loose = await call((cb) => cam.getSnapshotUri({ profileToken: token }, cb as never)).catch(() => undefined);
      out.push({
        Token: token,
        Name: str(p?.name),
        Encoding: str(enc?.encoding),
        Width: num(enc?.resolution?.width),
        Height: num(enc?.resolution?.height),
        FrameRate: num(enc?.rateControl?.frameRateLimit ?? enc?.rateControl?.$?.frameRateLimit),
        StreamUri: str(stream?.uri),
        SnapshotUri: str(snap?.uri),
      });
    }
    return {
      DeviceInfo: {
        Manufacturer: str(info?.manufacturer),
        Model: str(info?.model),
        FirmwareVersion: str(info?.firmwareVersion),
        SerialNumber: str(info?.serialNumber),
        HardwareId: str(info?.hardwareId),
      },
      Profiles: out,
    };
  })();
  work.catch(() => {}); // settled below; a late rejection after the deadline is not unhandled
  try {
    return await Promise.race([work, deadline]);
  } catch (err) {
    throw classify(err, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
}
