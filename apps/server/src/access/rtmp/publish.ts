/**
 * The RTMP publisher's side of the conversation, as an encoder (OBS, ffmpeg's "FMLE/3.0") has it with
 * an ingest server: Set Chunk Size, connect (type nonprivate), then releaseStream, FCPublish,
 * createStream and publish(key, 'live'), and media only once the server said NetStream.Publish.Start.
 * Pure: messages in, messages and an outcome out; the socket is rtmp-publisher.ts's.
 *
 * A connect refused for a login (authmod=adobe or llnw) is the probe's exchange (auth.ts): the outcome
 * says to connect again with the login's parameters. Any other refusal (connect, createStream, or a
 * publish answered NetStream.Publish.BadName and the like) ends the session with the server's code.
 * The session also answers what a server asks of every client: acknowledgements of the bytes it sent
 * (once per its window) and pings.
 */
import { Amf0EcmaArray, Amf0Error, decodeAmf0, encodeAmf0, type Amf0Object, type Amf0Value } from '@opencvr/flv';
import { RtmpType, u32Payload, type RtmpMessage } from './chunks.js';
import type { Reason } from '@opencvr/shared';
import { rtmpAuthStep, type RtmpAuthFailure } from './auth.js';

/** What we send after Set Chunk Size: large enough that a picture is a few chunks, as encoders use. */
export const PUBLISH_CHUNK_SIZE = 4096;

/** Chunk stream ids: protocol control, connection commands, stream commands and data, audio, video (ffmpeg's). */
export const PublishCsid = { control: 2, command: 3, audio: 4, data: 5, video: 6 } as const;

const TX = { connect: 1, releaseStream: 2, fcPublish: 3, createStream: 4, publish: 5, fcUnpublish: 6, deleteStream: 7 } as const;

export interface PublishTarget {
  app: string;
  /** The stream key (with its query, as ffmpeg and OBS send it). */
  stream: string;
  tcUrl: string;
  /** A login's parameters for this connect (auth.ts), '' at first. */
  auth: string;
  creds?: { user: string; password: string };
  /** Announce enhanced RTMP's HEVC ('hvc1' in the connect's fourCcList). */
  hevc?: boolean;
}

/** Why a session ended before publishing, in the log's words. */
export interface PublishRefusal {
  reason: string;
  /** The same for the administrator, in the catalogue (the server's code as it sent it). */
  why: Reason;
  /** The login was refused, missing or of an unknown method. */
  auth?: RtmpAuthFailure;
}

export type PublishOutcome =
  /** NetStream.Publish.Start: media may go now, on `streamId`. */
  | { publishing: true; streamId: number }
  /** The login asks for another connection with these parameters. */
  | { reconnect: string }
  | { refused: PublishRefusal };

export interface PublishStep {
  send: RtmpMessage[];
  outcome?: PublishOutcome;
}

const command = (csid: number, streamId: number, ...values: Amf0Value[]): RtmpMessage => ({
  csid,
  type: RtmpType.commandAmf0,
  streamId,
  timestamp: 0,
  payload: encodeAmf0(...values),
});

const control = (type: number, payload: Uint8Array): RtmpMessage => ({ csid: PublishCsid.control, type, streamId: 0, timestamp: 0, payload });

/** Refused with the server's code, as the log says it. */
const refused = (what: string, code: string): PublishStep => ({
  send: [],
  outcome: { refused: { reason: `RTMP ${what} refused: ${code}`, why: { key: 'cdnRefused', vars: { command: what, code } } } },
});

export class RtmpPublishSession {
  private streamId?: number;
  private publishing = false;
  private connected = false;
  /** The server's Window Acknowledgement Size, and the bytes received since the last acknowledgement. */
  private window = 0;
  private received = 0;
  private total = 0;

  constructor(private readonly target: PublishTarget) {}

  /** The command whose answer is awaited, for a timeout's words. */
  get awaiting(): 'connect' | 'createStream' | 'publish' | undefined {
    if (this.publishing) return undefined;
    if (this.streamId !== undefined) return 'publish';
    return this.connected ? 'createStream' : 'connect';
  }

  /** What goes right after the handshake: our chunk size, then connect (the login's parameters on app and tcUrl). */
  opening(): RtmpMessage[] {
    const t = this.target;
    const info: Amf0Object = { app: t.app + t.auth, type: 'nonprivate', flashVer: 'FMLE/3.0 (compatible; OpenCVR)', tcUrl: t.tcUrl + t.auth };
    // Enhanced RTMP v1: a client names the FourCCs it sends, so a server that checks knows HEVC is coming.
    if (t.hevc) info.fourCcList = ['hvc1'];
    return [control(RtmpType.setChunkSize, u32Payload(PUBLISH_CHUNK_SIZE)), command(PublishCsid.command, 0, 'connect', TX.connect, info)];
  }

  /** `n` more bytes came from the server: an acknowledgement when its window is full. */
  bytesReceived(n: number): RtmpMessage[] {
    this.received += n;
    this.total = (this.total + n) % 2 ** 32;
    if (!this.window || this.received < this.window) return [];
    this.received = 0;
    return [control(RtmpType.acknowledgement, u32Payload(this.total))];
  }

  /** One whole message from the server. */
  receive(m: RtmpMessage): PublishStep {
    if (m.type === RtmpType.windowAckSize && m.payload.length >= 4) {
      this.window = new DataView(m.payload.buffer, m.payload.byteOffset, 4).getUint32(0);
      return { send: [] };
    }
    if (m.type === RtmpType.userControl) return { send: pong(m.payload) };
    if (m.type !== RtmpType.commandAmf0) return { send: [] };
    let values: Amf0Value[];
    try {
      values = decodeAmf0(m.payload);
    } catch (err) {
      if (err instanceof Amf0Error) return { send: [], outcome: { refused: { reason: 'not an RTMP server (unreadable command)', why: { key: 'cdnNotRtmp' } } } };
      throw err;
    }
    const [name, tx] = values;
    const info = values.slice(2).map(asObject).find((v) => v !== undefined);
    const code = typeof info?.code === 'string' ? info.code : '';
    if (name === '_error' && tx === TX.connect) return this.connectRefused(code, typeof info?.description === 'string' ? info.description : '');
    if (name === '_result' && tx === TX.connect) {
      this.connected = true;
      const t = this.target;
      // releaseStream and FCPublish: Adobe's and Wowza's ingest expect them (others answer _error or nothing; either is fine).
      return {
        send: [
          command(PublishCsid.command, 0, 'releaseStream', TX.releaseStream, null, t.stream),
          command(PublishCsid.command, 0, 'FCPublish', TX.fcPublish, null, t.stream),
          command(PublishCsid.command, 0, 'createStream', TX.createStream, null),
        ],
      };
    }
    if (name === '_error' && tx === TX.createStream) return refused('createStream', code || 'createStream failed');
    if (name === '_result' && tx === TX.createStream) {
      const id = values[3];
      this.streamId = typeof id === 'number' && Number.isInteger(id) && id >= 0 && id < 2 ** 32 ? id : 1;
      return { send: [command(PublishCsid.data, this.streamId, 'publish', TX.publish, null, this.target.stream, 'live')] };
    }
    if (name !== 'onStatus' || this.streamId === undefined) return { send: [] };
    if (code === 'NetStream.Publish.Start') {
      if (this.publishing) return { send: [] };
      this.publishing = true;
      return { send: [], outcome: { publishing: true, streamId: this.streamId } };
    }
    if (info?.level === 'error' || /Failed|Rejected|BadName|Forbidden|Denied|Unpublish/.test(code)) {
      return refused(this.publishing ? 'stream' : 'publish', code || 'error');
    }
    return { send: [] };
  }

  /** What a clean stop says before the socket closes: FCUnpublish and deleteStream. */
  closing(): RtmpMessage[] {
    if (this.streamId === undefined) return [];
    return [
      command(PublishCsid.command, 0, 'FCUnpublish', TX.fcUnpublish, null, this.target.stream),
      command(PublishCsid.command, 0, 'deleteStream', TX.deleteStream, null, this.streamId),
    ];
  }

  private connectRefused(code: string, description: string): PublishStep {
    const step = rtmpAuthStep(description, this.target.creds, this.target.auth.includes('&response='), this.target.app);
    if (!step) return refused('connect', code || 'NetConnection.Connect.Rejected');
    if ('params' in step) return { send: [], outcome: { reconnect: step.params } };
    const words = step.failure === 'required' ? 'required' : step.failure === 'failed' ? 'failed' : 'not supported';
    const key = step.failure === 'required' ? 'cdnAuthRequired' : step.failure === 'failed' ? 'cdnAuthFailed' : 'cdnAuthUnsupported';
    const why: Reason = { key, vars: { method: step.method } };
    return { send: [], outcome: { refused: { reason: `RTMP authentication ${words} (authmod=${step.method})`, why, auth: step.failure } } };
  }
}

/** User Control Ping Request (event 6) answered with a Ping Response (7) carrying its time. */
function pong(payload: Uint8Array): RtmpMessage[] {
  if (payload.length < 6 || payload[0] !== 0 || payload[1] !== 6) return [];
  return [control(RtmpType.userControl, Uint8Array.of(0, 7, ...payload.subarray(2, 6)))];
}

/** An info object (some servers send it as an ECMA array). */
function asObject(v: Amf0Value): Amf0Object | undefined {
  if (v instanceof Amf0EcmaArray) return v.entries;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}
