/**
 * INVITE sessions with GB28181 devices (GB/T 28181-2016 9.2): the SDP offer with an SSRC from the
 * pool and the Subject header, the INVITE through ctx.gb (a client transaction: retransmitted over
 * UDP until the device's 100 Trying, its 2xx ACKed by the SIP service), the device's SDP answer read,
 * and the dialog kept for the BYE. One table of dialogs for live, playback and download, so the
 * device's BYE (one handler for the whole server) and MediaStatus 121 find their session.
 *
 * Failures carry what an operator can act on: no answer within AckTimeout, the status the device
 * refused with, an answer that cannot be used (the dialog is then closed with a BYE at once).
 *
 * Every INVITE (live, playback, download) waits for its turn in the device's queue (queue.ts: a few
 * open at once per device, a cool-down after 486/503, one at a time after an INVITE got no answer), so a burst of streams does not make the
 * device refuse them; one whose owner stops while it waits is never sent.
 */
import {
  buildGbOffer,
  gbSubject,
  ManscdpError,
  parseGbAnswer,
  type GbAnswer,
  type GbSessionName,
} from '@opencvr/manscdp';
import { header, responseTo, tagOf, type ServerTransaction, type SipRequest } from '@opencvr/sip';
import type { Reason } from '@opencvr/shared';
import type { GbLog } from '../core.js';
import type { InboundMessage } from '../messages.js';
import { GbRequestError, type GbRequestResult } from '../requests.js';
import type { GbService } from '../service.js';
import type { GbMediaAnswer, GbMediaOffer } from '../media/ps-source.js';
import { GbDialog } from './dialog.js';
import { SsrcPool, type HeldSsrc } from './ssrc-pool.js';
import { DEFAULT_INVITE_QUEUE, InviteCancelledError, InviteQueue, isBusyStatus, type InviteQueueOptions, type InviteSlot } from './queue.js';

export type InviteGbApi = Pick<GbService, 'sendRequest' | 'onRequest' | 'onMessage' | 'onDeviceStatus' | 'gbConfig'>;

export type GbInviteErrorCode = 'timeout' | 'refused' | 'bad-answer' | 'bad-offer' | 'not-registered' | 'transport' | 'cancelled';

export class GbInviteError extends Error {
  override readonly name = 'GbInviteError';
  constructor(
    readonly code: GbInviteErrorCode,
    message: string,
    /** The same in the catalogue, for an answer in the request's language (the message is for the log and the stream status). */
    readonly why?: Reason,
    /** The device's status for 'refused'. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface InviteParams {
  deviceId: string;
  /** The channel asked for (Request-URI, To, Subject, o=/u=). */
  channelId: string;
  session: GbSessionName;
  /** Where the device must send (our receiver), and how. */
  offer: GbMediaOffer;
  /** Playback/Download: Unix seconds. */
  startTime?: number;
  endTime?: number;
  /** Download: 1, 2, 4 or 8. */
  downloadSpeed?: number;
  /** -2022 a=streamnumber (0 main, 1 sub). */
  streamNumber?: number;
  /** The hub stream fed by the session (live), for the stream status. */
  streamKey?: string;
  /** Aborted when the session's owner stops: an INVITE still waiting for its turn is dropped (GbInviteError 'cancelled'). */
  signal?: AbortSignal;
  /** Called once when the device ends the session (its BYE, MediaStatus 121, offline); `why` is the catalogue's reason (for answers in the user's language). */
  onEnded(reason: string, why?: Reason): void;
}

/** An answered INVITE. */
export interface GbInviteSession {
  readonly dialog: GbDialog;
  /** The device's SDP answer as parsed. */
  readonly answer: GbAnswer;
  /** What the receiver needs: the SSRC to play (the device's y=, else ours), where to connect (TCP active). */
  readonly media: GbMediaAnswer;
  /** BYE (once; a no-op when the device ended it). */
  close(): Promise<void>;
}

/** Longer than any AckTimeout: our own timer gives up first, the transaction keeps listening for a late 2xx. */
const TRANSACTION_MS = 40_000;

export class GbInviteClient {
  readonly ssrcs = new SsrcPool();
  /** Each device's INVITEs in flight and waiting. */
  readonly queue: InviteQueue;
  private readonly dialogs = new Map<string, GbDialog>();
  private readonly unhooks: (() => void)[] = [];

  constructor(
    private readonly gb: InviteGbApi,
    private readonly log: GbLog,
    queue: InviteQueueOptions = DEFAULT_INVITE_QUEUE,
  ) {
    this.queue = new InviteQueue(queue);
  }

  /** Hooks the device's BYE, MediaStatus and offline events. */
  start() {
    if (this.unhooks.length) return;
    this.unhooks.push(
      this.gb.onRequest('BYE', (req, tx) => this.onBye(req, tx)),
      this.gb.onMessage('MediaStatus', (m) => this.onMediaStatus(m)),
      this.gb.onDeviceStatus((e) => {
        if (!e.online) {
          const why = offlineReason(e.reason);
          // Words without a catalogue text of their own: the user reads gbDeviceWentOffline, the log has them.
          if (why.key === 'gbDeviceWentOffline' && this.of(e.deviceId).length)
            this.log.info({ device: e.deviceId, reason: e.reason }, 'gb invite: device offline, its sessions end');
          for (const d of this.of(e.deviceId)) d.endedByDevice(`the device went offline (${e.reason})`, why);
        }
      }),
    );
  }

  /** BYE to every running session (shutdown: a short wait for answers), then unhooks. */
  async stop() {
    await Promise.allSettled([...this.dialogs.values()].map((d) => d.bye('platform shutting down', 1000)));
    for (const u of this.unhooks.splice(0)) u();
  }

  /** Running sessions (stats, tests). */
  sessions(): GbDialog[] {
    return [...this.dialogs.values()];
  }

  /** The running session feeding a hub stream. */
  byStream(key: string): GbDialog | undefined {
    for (const d of this.dialogs.values()) if (d.ids.streamKey === key) return d;
    return undefined;
  }

  async invite(p: InviteParams): Promise<GbInviteSession> {
    const cfg = await this.gb.gbConfig();
    // The turn first: a waiting INVITE holds no SSRC.
    const slot = await this.turn(p);
    const ssrc = this.ssrcs.allocate(p.session === 'Play' ? 'live' : 'history', cfg.Realm);
    let sdp: string;
    let subject: string;
    try {
      sdp = buildGbOffer({
        session: p.session,
        platformId: cfg.Serial,
        channelId: p.channelId,
        mediaIp: p.offer.ip,
        mediaPort: p.offer.port,
        transport: p.offer.transport,
        ssrc: ssrc.text,
        startTime: p.startTime,
        endTime: p.endTime,
        downloadSpeed: p.downloadSpeed,
        streamNumber: p.streamNumber,
      });
      subject = gbSubject({ channelId: p.channelId, ssrc: ssrc.text, platformId: cfg.Serial });
    } catch (err) {
      ssrc.release();
      slot.done({ kind: 'other' });
      if (err instanceof ManscdpError) {
        // The encoder's words are the log's; the reason tells the user in their language.
        this.log.warn({ device: p.deviceId, channel: p.channelId, err: err.message }, 'gb invite: cannot make the INVITE');
        throw new GbInviteError('bad-offer', `cannot make the INVITE for channel ${p.channelId}: ${err.message}`, {
          key: 'gbCannotMakeInvite',
          vars: { channel: p.channelId },
        });
      }
      throw err;
    }

    let result: GbRequestResult;
    try {
      result = await this.send(p, sdp, subject, cfg.AckTimeout);
    } catch (err) {
      ssrc.release();
      // Given up (AckTimeout, not registered, transport): the turn goes back, so a device silent for
      // AckTimeout does not hold its queue for the whole 40 s transaction. Silence makes the device
      // suspect (one INVITE at a time after a short pause: queue.ts), or its whole queue followed at once.
      const silent = err instanceof GbInviteError && err.code === 'timeout';
      slot.done({ kind: silent ? 'silent' : 'other' });
      if (silent) this.log.warn({ device: p.deviceId, channel: p.channelId }, 'gb invite: no answer; the device gets one INVITE at a time until it answers');
      throw err;
    }
    const { request, response } = result;
    if (response.status >= 300) {
      ssrc.release();
      if (isBusyStatus(response.status)) throw this.busy(p, slot, response);
      slot.done({ kind: 'refused' });
      throw new GbInviteError(
        'refused',
        `device ${p.deviceId} refused the ${what(p.session)} of channel ${p.channelId}: ${response.status} ${response.reason}`,
        { key: 'gbInviteRefused', vars: { channel: p.channelId, status: response.status, phrase: response.reason } },
        response.status,
      );
    }
    slot.done({ kind: 'answered' });
    const dialog = this.track(request, response, p, ssrc);
    let answer: GbAnswer;
    try {
      answer = parseGbAnswer(new TextDecoder().decode(response.body));
      if (p.offer.transport === 'tcp-active' && answer.transport !== 'tcp')
        throw new ManscdpError('bad-sdp', `TCP active was asked but the device answered ${answer.transport.toUpperCase()}`);
    } catch (err) {
      await dialog.bye('unusable SDP answer');
      const reason = err instanceof Error ? err.message : String(err);
      // The parser's words are the log's (and the stream status'); the reason tells the user in their language.
      this.log.warn({ device: p.deviceId, channel: p.channelId, err: reason }, 'gb invite: the SDP answer cannot be used');
      throw new GbInviteError(
        'bad-answer',
        `device ${p.deviceId} answered the INVITE for channel ${p.channelId} with an SDP that cannot be used: ${reason}`,
        { key: 'gbUnusableSdp', vars: { channel: p.channelId } },
      );
    }
    dialog.media = { transport: p.offer.transport, ssrc: ssrc.text, answerSsrc: answer.ssrc, remote: `${answer.connectionIp}:${answer.port}` };
    this.log.info(
      { device: p.deviceId, channel: p.channelId, session: p.session, ssrc: ssrc.text, answerSsrc: answer.ssrc, media: `${answer.connectionIp}:${answer.port}/${answer.transport}` },
      'gb invite: media session started',
    );
    return {
      dialog,
      answer,
      media: { ssrc: answer.ssrcNumber ?? Number(ssrc.text), ip: answer.connectionIp, port: answer.port },
      close: () => dialog.bye(),
    };
  }

  /** Waits for the device's queue; an owner that stops meanwhile gets 'cancelled' (nothing was sent). */
  private async turn(p: InviteParams): Promise<InviteSlot> {
    try {
      return await this.queue.take(p.deviceId, p.signal);
    } catch (err) {
      if (!(err instanceof InviteCancelledError)) throw err;
      throw new GbInviteError('cancelled', `the INVITE for channel ${p.channelId} was not sent: its stream stopped while it waited for its turn`, {
        key: 'gbInviteCancelled',
        vars: { channel: p.channelId },
      });
    }
  }

  /**
   * 486/503: the device has too much to do. Its queue cools down (Retry-After, else a doubling
   * pause) so the retries wait instead of asking again at once. The words stay those of any refusal
   * (the stream's reason); the catalogue's reason tells the user that it is busy and when it is asked again.
   */
  private busy(p: InviteParams, slot: InviteSlot, response: GbRequestResult['response']): GbInviteError {
    const retryAfter = /^\s*(\d+)/.exec(header(response, 'Retry-After') ?? '')?.[1];
    slot.done({ kind: 'busy', retryAfterS: retryAfter === undefined ? undefined : Number(retryAfter) });
    const seconds = Math.ceil(this.queue.cooldownMs(p.deviceId) / 1000);
    this.log.warn({ device: p.deviceId, channel: p.channelId, status: response.status, cooldownS: seconds }, 'gb invite: the device is busy; its INVITEs wait');
    return new GbInviteError(
      'refused',
      `device ${p.deviceId} refused the ${what(p.session)} of channel ${p.channelId}: ${response.status} ${response.reason}`,
      { key: 'gbDeviceBusy', vars: { channel: p.channelId, status: response.status, phrase: response.reason, seconds } },
      response.status,
    );
  }

  /** The INVITE, given up after AckTimeout; a 2xx arriving after that is closed with a BYE at once. */
  private send(p: InviteParams, sdp: string, subject: string, ackTimeout: number): Promise<GbRequestResult> {
    const sending = this.gb.sendRequest(p.deviceId, {
      method: 'INVITE',
      target: p.channelId,
      body: sdp,
      contentType: 'APPLICATION/SDP',
      headers: [{ name: 'Subject', value: subject }],
      timeoutMs: TRANSACTION_MS,
    });
    return new Promise<GbRequestResult>((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        reject(
          new GbInviteError(
            'timeout',
            `device ${p.deviceId} did not answer the INVITE for channel ${p.channelId} within ${ackTimeout} s (AckTimeout): check that it is online and reachable`,
            { key: 'gbInviteNoAnswer', vars: { channel: p.channelId, seconds: ackTimeout } },
          ),
        );
      }, ackTimeout * 1000);
      timer.unref();
      sending.then(
        (r) => {
          clearTimeout(timer);
          if (!gaveUp) return resolve(r);
          if (r.response.status < 300) this.closeLate(p, r);
        },
        (err) => {
          clearTimeout(timer);
          if (gaveUp) return;
          if (err instanceof GbRequestError) {
            if (err.code === 'not-registered')
              return reject(
                new GbInviteError('not-registered', `device ${p.deviceId} is not registered (offline): cannot ask it for channel ${p.channelId}`, {
                  key: 'streamGbOffline',
                }),
              );
            if (err.code === 'transport') return reject(new GbInviteError('transport', err.message, err.why));
            return reject(
              new GbInviteError('timeout', `device ${p.deviceId} did not answer the INVITE for channel ${p.channelId} (${err.message})`, err.why),
            );
          }
          reject(err);
        },
      );
    });
  }

  /** A 2xx after we gave up: the device started a session nobody receives. */
  private closeLate(p: InviteParams, r: GbRequestResult) {
    this.log.warn({ device: p.deviceId, channel: p.channelId }, 'gb invite: 200 OK after AckTimeout, sending BYE');
    // Its SSRC went back to the pool when we gave up: this dialog holds none.
    const d = this.track(r.request, r.response, { ...p, onEnded: () => undefined }, { text: '', release: () => undefined });
    void d.bye('answered after AckTimeout');
  }

  private track(request: SipRequest, response: { headers: SipRequest['headers'] }, p: InviteParams, ssrc: HeldSsrc): GbDialog {
    const cseq = Number((header(request, 'CSeq') ?? '1').trim().split(/\s+/)[0]) || 1;
    const dialog = new GbDialog(
      {
        deviceId: p.deviceId,
        channelId: p.channelId,
        session: p.session,
        callId: header(request, 'Call-ID') ?? '',
        localTag: tagOf(header(request, 'From')) ?? '',
        remoteTag: tagOf(header(response, 'To')) ?? '',
        streamKey: p.streamKey,
      },
      ssrc,
      cseq,
      {
        sendRequest: (id, o) => this.gb.sendRequest(id, o),
        log: this.log,
        forget: (d) => {
          if (this.dialogs.get(d.ids.callId) === d) this.dialogs.delete(d.ids.callId);
        },
        onEnded: (reason, why) => p.onEnded(reason, why),
      },
    );
    this.dialogs.set(dialog.ids.callId, dialog);
    return dialog;
  }

  private onBye(req: SipRequest, tx: ServerTransaction | undefined) {
    if (!tx) return;
    const d = this.dialogs.get(header(req, 'Call-ID') ?? '');
    // The device's BYE: From carries its tag, To ours.
    if (!d || tagOf(header(req, 'To')) !== d.ids.localTag) {
      tx.respond(responseTo(req, 481));
      return;
    }
    tx.respond(responseTo(req, 200));
    d.endedByDevice('the device sent BYE', { key: 'gbDeviceSentBye' });
  }

  private onMediaStatus(m: InboundMessage) {
    if (m.message.kind !== 'media-status' || m.message.notifyType !== 121) return;
    const about = m.message.deviceId;
    // 121 is the end of a recording: playback and download sessions of that channel (or of the whole device).
    for (const d of this.of(m.deviceId)) {
      if (d.ids.session === 'Play') continue;
      if (about === d.ids.channelId || about === m.deviceId) void d.finishedByDevice('the recording reached its end (MediaStatus 121)', { key: 'gbRecordingEnd' });
    }
  }

  private of(deviceId: string): GbDialog[] {
    return [...this.dialogs.values()].filter((d) => d.ids.deviceId === deviceId);
  }
}

const what = (s: GbSessionName) => (s === 'Play' ? 'live stream' : s === 'Playback' ? 'playback' : 'download');

/** Why the device went offline (the GB service's words: gb/service.ts) as a catalogue reason; any other words: gbDeviceWentOffline, without them (they are the log's). */
export function offlineReason(reason: string): Reason {
  if (reason === 'keepalive timeout') return { key: 'gbOfflineKeepalive' };
  if (reason === 'registration expired') return { key: 'gbOfflineExpired' };
  if (reason === 'unregistered') return { key: 'gbOfflineUnregistered' };
  return { key: 'gbDeviceWentOffline' };
}
