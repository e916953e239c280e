/**
 * One answered INVITE (a media session with a device): the dialog's identifiers (Call-ID, our From
 * tag, the device's To tag, our CSeq), its SSRC, and how it ends. It ends once: by our BYE (the last
 * viewer left, stopstream, shutdown), by the device's BYE, by MediaStatus 121 at the end of a
 * recording, or because the device went offline. The SSRC goes back to the pool when it ends.
 */
import type { GbSessionName } from '@opencvr/manscdp';
import type { Reason } from '@opencvr/shared';
import type { SipResponse } from '@opencvr/sip';
import type { GbLog } from '../core.js';
import type { GbRequestOptions, GbRequestResult } from '../requests.js';
import type { HeldSsrc } from './ssrc-pool.js';

export interface DialogIds {
  deviceId: string;
  channelId: string;
  session: GbSessionName;
  callId: string;
  /** Our tag (From of the INVITE). */
  localTag: string;
  /** The device's tag (To of its 200). */
  remoteTag: string;
  /** The hub stream the session feeds (live), for the stream status. */
  streamKey?: string;
}

/** What the stream status shows of a GB session. */
export interface DialogMedia {
  /** udp, tcp-passive, tcp-active. */
  transport: string;
  /** Our y= and the device's. */
  ssrc: string;
  answerSsrc?: string;
  /** The device's c=/m= (where TCP active connects; informative otherwise). */
  remote: string;
}

export interface DialogDeps {
  sendRequest(deviceId: string, o: GbRequestOptions): Promise<GbRequestResult>;
  log: GbLog;
  /** Removes the dialog from the table of live dialogs. */
  forget(d: GbDialog): void;
  /** Tells the session's owner (the hub source) that the device ended it; `why` is the same in the catalogue. */
  onEnded(reason: string, why?: Reason): void;
}

/** How long a BYE (or another in-dialog request) may take before the dialog is given up anyway. */
export const IN_DIALOG_TIMEOUT_MS = 5000;

export class GbDialog {
  private endedReason = '';
  readonly startedAt = Date.now();
  /** Set once the device's answer is read. */
  media?: DialogMedia;

  constructor(
    readonly ids: DialogIds,
    readonly ssrc: HeldSsrc,
    private cseq: number,
    private readonly deps: DialogDeps,
  ) {}

  get ended(): boolean {
    return this.endedReason !== '';
  }
  /** Why it ended ('' while running). */
  get reason(): string {
    return this.endedReason;
  }

  /**
   * A request inside the dialog (INFO with MANSRTSP during playback); resolves with the device's
   * final answer. Rejects when the dialog has ended.
   */
  async request(method: 'INFO', body: Uint8Array | string, contentType: string, timeoutMs = IN_DIALOG_TIMEOUT_MS): Promise<SipResponse> {
    if (this.ended) throw new Error(`the media session with ${this.ids.deviceId} has ended (${this.endedReason})`);
    const { response } = await this.deps.sendRequest(this.ids.deviceId, { ...this.dialogOptions(), method, body, contentType, timeoutMs });
    return response;
  }

  /** Ends the session from our side: BYE (best effort: the device may be gone), SSRC released. */
  async bye(reason = 'closed by the platform', timeoutMs = IN_DIALOG_TIMEOUT_MS): Promise<void> {
    if (!this.finish(reason)) return;
    try {
      const { response } = await this.deps.sendRequest(this.ids.deviceId, { ...this.dialogOptions(), method: 'BYE', timeoutMs });
      if (response.status >= 300) this.deps.log.debug({ device: this.ids.deviceId, channel: this.ids.channelId, status: response.status }, 'gb invite: BYE refused');
    } catch (err) {
      this.deps.log.debug({ err, device: this.ids.deviceId, channel: this.ids.channelId }, 'gb invite: BYE not answered');
    }
  }

  /** Ended by the device (its BYE) or by its state (offline): no BYE from us; the owner is told. */
  endedByDevice(reason: string, why?: Reason) {
    if (!this.finish(reason)) return;
    this.deps.log.info({ device: this.ids.deviceId, channel: this.ids.channelId, callId: this.ids.callId, reason }, 'gb invite: media session ended by the device');
    // Outside the SIP handler that called us: the owner stops its source, which calls bye() (a no-op now).
    setImmediate(() => this.deps.onEnded(reason, why));
  }

  /** Ends the session with a BYE and tells the owner (MediaStatus 121: the recording is over). */
  async finishedByDevice(reason: string, why?: Reason) {
    if (this.ended) return;
    const bye = this.bye(reason);
    setImmediate(() => this.deps.onEnded(reason, why));
    await bye;
  }

  /** The session as /ws/streamstat shows it. */
  summary() {
    return {
      DeviceID: this.ids.deviceId,
      ChannelID: this.ids.channelId,
      Session: this.ids.session,
      CallID: this.ids.callId,
      Transport: this.media?.transport ?? '',
      SSRC: this.media?.ssrc ?? this.ssrc.text,
      AnswerSSRC: this.media?.answerSsrc ?? '',
      DeviceMedia: this.media?.remote ?? '',
      Since: new Date(this.startedAt).toISOString(),
    };
  }

  private finish(reason: string): boolean {
    if (this.ended) return false;
    this.endedReason = reason;
    this.ssrc.release();
    this.deps.forget(this);
    return true;
  }

  private dialogOptions(): Pick<GbRequestOptions, 'target' | 'callId' | 'fromTag' | 'toTag' | 'cseq'> {
    return {
      target: this.ids.channelId,
      callId: this.ids.callId,
      fromTag: this.ids.localTag,
      toTag: this.ids.remoteTag,
      cseq: ++this.cseq,
    };
  }
}
