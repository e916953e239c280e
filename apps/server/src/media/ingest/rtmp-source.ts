/**
 * Pulls an rtmp:// or rtmps:// channel with the server's own RTMP client, into a hub as the RTSP
 * source does: the play session of the stream checker's probe (access/rtmp/play-session.ts: handshake,
 * connect with Adobe's or Limelight's login, play, acknowledgements, pings) and the pure reading of
 * its messages into tracks and units (rtmp-media.ts). One socket per stream instead of an ffmpeg
 * process (about 13 MB and a process's CPU each), and credentials decoded from the address as they
 * are meant: a password with / ? # % + or spaces logs in (ffmpeg's RTMP client hashes it still
 * percent-encoded).
 *
 * The source fails, and the hub retries with its back-off, when: the session ends (refused,
 * closed, a login refused: the probe's reasons), the stream ends (onStatus Play.Stop,
 * Play.UnpublishNotify, Play.Complete), no media comes for mediaTimeoutMs (15 s, as the ffmpeg
 * source), the video is a codec the hub does not carry, or message after message cannot be read.
 * A message that cannot be read is dropped and counted (stats.malformed); the stream goes on.
 *
 * Audio the hub does not carry (MP3, Speex, Nellymoser, PCM, ADPCM): only the audio goes through one
 * small ffmpeg, which encodes it to AAC with the source's times (rtmp-audio-encoder.ts); the video,
 * the login and the socket stay here. If that ffmpeg is missing or fails before any AAC, the channel
 * plays its video without sound (the tracks are not waited for) and says why (the hub's note,
 * streamAudioEncoderMissing/Failed); one that fails later is restarted while the video goes on.
 */
import { Amf0EcmaArray, Amf0Error, decodeAmf0 } from '@opencvr/flv';
import type { Reason } from '@opencvr/shared';
import type { MediaSource, SourceSink } from '../hub.js';
import { RtmpType, type RtmpMessage } from '../../access/rtmp/chunks.js';
import { asObject, authMiss, decoded, RtmpPlaySession, type PlayEnd } from '../../access/rtmp/play-session.js';
import { certificateMiss } from '../../access/rtmp/tls-connect.js';
import { RtmpAudioEncoder } from './rtmp-audio-encoder.js';
import { pullUrl, PullUrlError } from './pull-url.js';
import { RtmpMedia, RtmpMediaError } from './rtmp-media.js';
import { socketFailure } from './source-failure.js';

export interface RtmpPullOptions {
  /** The channel's credentials, used when the address has none. */
  username?: string;
  password?: string;
  /** The channel's EnableAudio (default true). */
  audio?: boolean;
  /** The ffmpeg that encodes audio the hub does not carry to AAC (default: ffmpeg on PATH). */
  ffmpeg?: string;
  /** No media for this long fails the source (default 15 s); also bounds each step before it. */
  mediaTimeoutMs?: number;
}
/** A login takes three connects (auth.ts); a fourth would be a loop. */
const MAX_CONNECTS = 3;
/** Messages in a row that cannot be read before the stream is taken for broken. */
const MAX_MALFORMED_IN_A_ROW = 50;
/** onStatus codes of a stream that ended (its publisher stopped, a recording played to its end). */
const ENDED = /^NetStream\.Play\.(Stop|Complete|UnpublishNotify)$/;

export class RtmpPullSource implements MediaSource {
  private sink?: SourceSink;
  private session?: RtmpPlaySession;
  private media?: RtmpMedia;
  private encoder?: RtmpAudioEncoder;
  /** The encoder failed: its note is on the hub until its AAC comes again. */
  private encoderNoted = false;
  private url?: URL;
  private creds?: { user: string; password: string };
  private connects = 0;
  /**
   * Fails the source mediaTimeoutMs after the last progress (a connect, an answer or media message):
   * one timeout pushed back (refresh()) per message, not a timer looking every second, so a stream
   * whose media flows does not wake the process for it (issue 4; the RTSP source's shape). Node leaves
   * a refreshed timer where it is in its list until the list comes due, so a flowing stream costs one
   * timer wake-up per mediaTimeoutMs at most.
   */
  private watchdog?: NodeJS.Timeout;
  private gotMedia = false;
  private malformedInARow = 0;
  private stopped = false;
  readonly stats = { connects: 0, units: 0, malformed: 0, lastError: '' };

  constructor(
    private readonly raw: string,
    private readonly opts: RtmpPullOptions = {},
  ) {}

  start(sink: SourceSink) {
    this.sink = sink;
    try {
      // The same checks as every pulled address (scheme, host, no spaces or control characters).
      pullUrl(this.raw, this.opts);
    } catch (err) {
      const words = err instanceof PullUrlError ? err.message : String(err);
      queueMicrotask(() => this.fail(words, { key: 'statusBadUrl' }));
      return;
    }
    const url = new URL(this.raw.trim());
    // The address's own credentials, else the channel's; decoded once, here, and sent as they are.
    if (url.username) this.creds = { user: decoded(url.username), password: decoded(url.password) };
    else if (this.opts.username) this.creds = { user: this.opts.username, password: this.opts.password ?? '' };
    url.username = '';
    url.password = '';
    this.url = url;
    this.watchdog = setTimeout(() => this.timedOut(), this.opts.mediaTimeoutMs ?? 15_000);
    this.watchdog.unref();
    this.connect('');
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.watchdog);
    this.session?.close();
    this.session = undefined;
    this.encoder?.stop();
  }

  /** The ffmpeg encoding this source's audio to AAC, while one runs. */
  get audioEncoderPid(): number | undefined {
    return this.encoder?.pid;
  }

  private connect(auth: string) {
    this.connects++;
    this.stats.connects++;
    this.watchdog?.refresh();
    // A new connection reads anew: its audio gets an encoder of its own.
    this.encoder?.stop();
    this.encoder = undefined;
    this.media = new RtmpMedia(
      {
        tracks: (t) => this.sink?.tracks(t),
        unit: (i, u) => {
          this.stats.units++;
          this.sink?.unit(i, u);
        },
        unsupported: (kind, codec) => this.unsupported(kind, codec),
        encode: (ms, body, codec) => this.encode(ms, body, codec),
      },
      { audio: this.opts.audio !== false },
    );
    const session = new RtmpPlaySession(this.url!, { auth, creds: this.creds }, {
      media: (m) => {
        if (this.session === session) this.message(m);
      },
      status: (code) => {
        if (this.session === session && ENDED.test(code)) this.fail(`the stream ended (${code})`, { key: 'streamEnded' });
      },
      end: (e) => {
        if (this.session === session) this.ended(e);
      },
    });
    this.session = session;
  }

  private message(m: RtmpMessage) {
    this.watchdog?.refresh();
    try {
      if (m.type === RtmpType.video) this.media!.videoMessage(m.timestamp, m.payload);
      else if (m.type === RtmpType.audio) this.media!.audioMessage(m.timestamp, m.payload);
      else if (m.type === RtmpType.dataAmf0) this.metadata(m.payload);
      if (m.type !== RtmpType.dataAmf0) this.gotMedia = true;
      this.malformedInARow = 0;
    } catch (err) {
      if (!(err instanceof RtmpMediaError) && !(err instanceof Amf0Error)) throw err;
      this.stats.malformed++;
      this.stats.lastError = err.message;
      if (++this.malformedInARow >= MAX_MALFORMED_IN_A_ROW)
        this.fail(`${MAX_MALFORMED_IN_A_ROW} RTMP messages in a row could not be read (${err.message})`, { key: 'streamBadData' });
    }
  }

  /** onMetaData (sent as is, or after "@setDataFrame" by servers that relay it so). */
  private metadata(payload: Uint8Array) {
    const values = decodeAmf0(payload);
    if (values[0] === '@setDataFrame') values.shift();
    const meta = values[0] === 'onMetaData' ? values[1] : undefined;
    const object = meta instanceof Amf0EcmaArray || (meta && typeof meta === 'object') ? asObject(meta) : undefined;
    if (object) this.media!.metadata(object);
  }

  private unsupported(kind: 'audio' | 'video', codec: string) {
    // Audio nothing can carry (device-specific sound, a reserved format): the video plays without it.
    if (kind === 'audio') return;
    this.fail(`the stream's video is ${codec}, which this server does not carry`, { key: 'streamNoPlayableTrack' });
  }

  /** Audio the hub does not carry, to its encoder (started with the first message; see the top of the file). */
  private encode(ms: number, body: Uint8Array, codec: string) {
    if (!this.encoder) {
      const media = this.media!;
      const encoder = new RtmpAudioEncoder(
        {
          aac: (at, aac) => {
            if (this.encoder !== encoder || this.media !== media) return;
            if (this.encoderNoted) {
              this.encoderNoted = false;
              this.sink?.note?.('');
            }
            try {
              media.encodedAudio(at, aac);
            } catch (err) {
              if (!(err instanceof RtmpMediaError)) throw err;
              this.stats.malformed++;
              this.stats.lastError = err.message;
            }
          },
          failed: (words, why, retrying) => {
            if (this.encoder !== encoder || this.stopped) return;
            this.encoderNoted = true;
            this.sink?.note?.(words, why);
            if (!retrying) media.audioLost();
          },
        },
        { ffmpeg: this.opts.ffmpeg, codec },
      );
      this.encoder = encoder;
    }
    this.encoder.push(ms, body);
  }

  private ended(e: PlayEnd) {
    if ('reconnect' in e) {
      if (this.connects >= MAX_CONNECTS) {
        const miss = authMiss('failed', /authmod=(\w+)/.exec(e.reconnect)?.[1] ?? '');
        this.fail(miss.reason, miss.why);
      } else this.connect(e.reconnect);
      return;
    }
    // A refused certificate (rtmps://, tls-connect.ts) keeps its own reason.
    const cert = e.error && certificateMiss(e.error);
    if (cert) {
      this.fail(cert.reason, cert.why);
      return;
    }
    if (e.error) {
      const { words, why } = socketFailure(e.error);
      this.fail(words, why);
      return;
    }
    // The server closed a stream that was playing: it ended; before any media, it closed on us.
    if (e.miss.why.key === 'statusClosedByServer' || e.miss.why.key === 'statusClosedByCamera')
      this.fail(this.gotMedia ? 'the stream ended' : 'connection closed by the server', { key: this.gotMedia ? 'streamEnded' : 'streamClosed' });
    else this.fail(e.miss.reason, e.miss.why);
  }

  /** Nothing came for mediaTimeoutMs: the step it waited in says what was missed. */
  private timedOut() {
    const limit = this.opts.mediaTimeoutMs ?? 15_000;
    if (this.stopped || !this.session) return;
    const step = this.session.step;
    const seconds = Math.round(limit / 1000);
    if (step === 'handshake') this.fail(`no answer within ${limit} ms`, { key: 'streamConnectTimeout', vars: { ms: limit } });
    else if (step === 'connect' || step === 'play')
      this.fail(`no answer to ${step} within ${limit} ms`, { key: 'statusRtmpNoAnswerTo', vars: { command: step, ms: limit } });
    else this.fail(`no media for ${seconds} s`, { key: 'streamNoMedia', vars: { seconds } });
  }

  private fail(words: string, why: Reason) {
    if (this.stopped) return;
    const sink = this.sink;
    this.stop();
    sink?.failed(words, why);
  }
}
