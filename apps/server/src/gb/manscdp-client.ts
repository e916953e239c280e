/**
 * Queries and controls the platform sends to a device as MANSCDP MESSAGEs, and the wait for the
 * device's Response of the same CmdType and SN. A device answers a MESSAGE with 200 first and sends
 * its Response later in a MESSAGE of its own (GB/T 28181-2016 9.5), so the two are matched here by
 * (sender, CmdType, SN). SNs come from one counter, so concurrent queries never share one.
 */
import type { Reason } from '@opencvr/shared';
import { replyEncoding, type BodyEncoding, type ManscdpBody, type ManscdpMessage } from '@opencvr/manscdp';
import type { GbService } from './service.js';
import type { InboundMessage } from './messages.js';
import { GbRequestError } from './requests.js';
import type { GbLog } from './core.js';

export type GbApi = Pick<GbService, 'sendRequest' | 'onMessage' | 'onRegistered' | 'onDeviceStatus' | 'session' | 'gbConfig'>;

/** The device answered the MESSAGE with a non-2xx status. */
export class GbRefusedError extends Error {
  override readonly name = 'GbRefusedError';
  constructor(
    readonly deviceId: string,
    readonly status: number,
    /** The device's reason phrase, as it wrote it. */
    readonly phrase: string,
  ) {
    super(`device ${deviceId} answered ${status} ${phrase}`);
  }
}

/** The device took the MESSAGE (2xx) but sent no Response of the CmdType in time. */
export class GbNoResponseError extends GbRequestError {
  constructor(message: string, why?: Reason) {
    super('timeout', message, why);
  }
}

interface Waiter {
  resolve: (m: InboundMessage) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class ManscdpClient {
  // Starts somewhere in a wide range so a restarted server does not reuse the SNs a device just saw.
  private sn = 1 + Math.floor(Math.random() * 1_000_000);
  private readonly waiters = new Map<string, Waiter>();
  private readonly encodings = new Map<string, BodyEncoding>();
  private readonly unhooks: (() => void)[] = [];

  constructor(
    private readonly gb: GbApi,
    private readonly log: GbLog,
  ) {}

  nextSn(): number {
    this.sn = this.sn >= 2_000_000_000 ? 1 : this.sn + 1;
    return this.sn;
  }

  /** The charset to write to a device in: the one its last body was read as (GB2312 until heard from). */
  encodingOf(deviceId: string): BodyEncoding {
    return this.encodings.get(deviceId) ?? 'GB2312';
  }

  /** Remembers a device's charset; feature handlers call it with every inbound body. */
  heard(m: InboundMessage) {
    this.encodings.set(m.deviceId, replyEncoding(m.charset));
  }

  /** Listens for Responses of these CmdTypes to settle waiting asks. */
  answersOf(...cmdTypes: string[]) {
    for (const t of cmdTypes) {
      this.unhooks.push(
        this.gb.onMessage(t, (m) => {
          this.heard(m);
          const w = this.waiters.get(key(m.deviceId, m.cmdType, m.message.sn));
          if (w) w.resolve(m);
        }),
      );
    }
  }

  /** Sends a MESSAGE and resolves when the device answered 2xx; GbRequestError/GbRefusedError otherwise. */
  async send(deviceId: string, body: ManscdpBody, timeoutMs?: number): Promise<void> {
    const { response } = await this.gb.sendRequest(deviceId, { method: 'MESSAGE', body: body.bytes, contentType: body.contentType, timeoutMs });
    if (response.status >= 300) throw new GbRefusedError(deviceId, response.status, response.reason);
  }

  /**
   * Sends a query built for a fresh SN and waits for the device's Response of `cmdType` with that SN.
   * Rejects with GbRequestError('timeout') when no Response arrives within `timeoutMs`.
   */
  async ask(
    deviceId: string,
    cmdType: string,
    build: (sn: number, encoding: BodyEncoding) => ManscdpBody,
    timeoutMs: number,
  ): Promise<ManscdpMessage> {
    const sn = this.nextSn();
    const k = key(deviceId, cmdType, sn);
    const answer = new Promise<InboundMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(k);
        reject(new GbNoResponseError(`no ${cmdType} response from ${deviceId} within ${timeoutMs} ms`, { key: 'gbNoResponseWithin', vars: { cmdType, ms: timeoutMs } }));
      }, timeoutMs);
      timer.unref();
      this.waiters.set(k, {
        timer,
        reject,
        resolve: (m) => {
          clearTimeout(timer);
          this.waiters.delete(k);
          resolve(m);
        },
      });
    });
    // Handled here too: a stop() while the MESSAGE is in flight must not surface as an unhandled rejection.
    answer.catch(() => {});
    try {
      await this.send(deviceId, build(sn, this.encodingOf(deviceId)), timeoutMs);
    } catch (err) {
      const w = this.waiters.get(k);
      if (w) {
        clearTimeout(w.timer);
        this.waiters.delete(k);
      }
      throw err;
    }
    return (await answer).message;
  }

  stop() {
    for (const u of this.unhooks.splice(0)) u();
    for (const w of this.waiters.values()) {
      clearTimeout(w.timer);
      w.reject(new GbRequestError('not-registered', 'the GB service is stopping', { key: 'gbServiceStopping' }));
    }
    this.waiters.clear();
    this.log.debug({}, 'gb: MANSCDP client stopped');
  }
}

const key = (deviceId: string, cmdType: string, sn: number) => `${deviceId}|${cmdType.toLowerCase()}|${sn}`;
