/**
 * Audio of an RTMP stream that the hub does not carry (MP3, Speex, Nellymoser, linear PCM, ADPCM),
 * encoded to AAC by one small ffmpeg while the video stays on the native client (rtmp-source.ts):
 * ffmpeg reads only the audio, as FLV audio tags on stdin, and writes AAC as FLV audio tags on
 * stdout. FLV both ways because its tags carry times: with -copyts ffmpeg keeps the input's, so each
 * AAC frame gets back the source's time (A/V stay in step however late ffmpeg answers), where ADTS
 * out would only let frames be counted. Measured with 44.1 kHz stereo MP3: 13.0 MB of private memory
 * (RssAnon) and ~2 % of a core, against 14.7 MB for ffmpeg pulling the whole channel (a 320x240
 * stream) before: what it saves is less memory than the video's path (never through ffmpeg, so the
 * audio failing cannot stop it) and ffmpeg's RTMP login (it hashed the password undecoded).
 *
 * Times: a run is given `ms - base + LEAD_MS` (base: the first time it got), so that the encoder's
 * priming (its first frame is 1024 samples early, 128 ms at 8 kHz) stays above 0, and a new run
 * starts before the 32-bit FLV times could wrap (RENEW_MS). ffmpeg runs under the Supervisor: an exit
 * after AAC came is restarted with its back-off (the video goes on meanwhile); one before any AAC
 * (ffmpeg missing, a codec it cannot decode) ends the encoder, and the source goes on without sound.
 */
import { FlvFormatError, FlvTagStream, TagType, flvHeader, flvTag } from '@opencvr/flv';
import type { Reason } from '@opencvr/shared';
import { Supervisor, type SupervisedRun } from '../ffmpeg/supervisor.js';

/** FLV sound formats ffmpeg decodes that the hub does not carry: 0/3 linear PCM, 1 ADPCM, 2/14 MP3, 4-6 Nellymoser, 11 Speex. */
export const ENCODED_SOUND_FORMATS: ReadonlySet<number> = new Set([0, 1, 2, 3, 4, 5, 6, 11, 14]);
/** Formats whose rate is fixed whatever the header's rate bits say (Nellymoser 16 and 8 kHz, Speex 16 kHz). */
const FIXED_RATE = new Set([4, 5, 11]);
const SOUND_AAC = 10;
/** Where a run's times start (see the top of the file). */
const LEAD_MS = 1000;
/** A run's times stay below 2^31 ms: the next run starts after this much (~12 days). */
const RENEW_MS = 2 ** 30;

/**
 * ffmpeg's arguments: audio-only FLV on stdin → AAC in FLV on stdout, times kept (-copyts), each
 * frame written at once. `first`: the first audio message's header byte, whose channel bit sets -ac
 * (Speex and Nellymoser carry no channel layout ffmpeg's AAC encoder takes without it), and whose
 * 5.5 kHz rate (which AAC has not) is raised to 11.025 kHz.
 */
export function aacEncoderArgs(first: number): string[] {
  const format = first >> 4;
  const channels = FIXED_RATE.has(format) ? 1 : (first & 1) + 1;
  const rate = FIXED_RATE.has(format) || ((first >> 2) & 3) !== 0 ? [] : ['-ar', '11025'];
  return [
    '-hide_banner', '-nostats', '-loglevel', 'error',
    '-fflags', '+nobuffer', '-probesize', '32', '-analyzeduration', '0',
    '-f', 'flv', '-i', 'pipe:0',
    '-map', '0:a:0', '-vn', '-sn', '-dn', '-c:a', 'aac', '-b:a', '64k', '-ac', String(channels), ...rate,
    '-copyts', '-flush_packets', '1', '-f', 'flv', 'pipe:1',
  ]; // prettier-ignore
}

export interface AudioEncoderSink {
  /** An AAC message (sequence header or raw frame, as an RTMP audio body) at `ms`, the source's time. */
  aac(ms: number, body: Uint8Array): void;
  /**
   * ffmpeg ended: `retrying` when it had encoded and is restarted (the audio comes back), else the
   * encoder has given up for this source.
   */
  failed(words: string, why: Reason, retrying: boolean): void;
}

export class RtmpAudioEncoder {
  private supervisor?: Supervisor;
  private run?: SupervisedRun;
  private readonly reader = new FlvTagStream();
  /** The source time of this run's first message (its time LEAD_MS). */
  private base?: number;
  private stopped = false;
  readonly stats = { runs: 0, messagesIn: 0, aacOut: 0, dropped: 0, malformed: 0 };

  constructor(
    private readonly sink: AudioEncoderSink,
    private readonly opts: { ffmpeg?: string; codec: string },
  ) {}

  /** The running ffmpeg's process id. */
  get pid(): number | undefined {
    return this.supervisor?.pid;
  }

  /** An RTMP audio message's body (its FLV audio tag body) at `ms` on the source's timeline. */
  push(ms: number, body: Uint8Array) {
    if (this.stopped || body.length < 2) return;
    if (!this.supervisor) this.start(body[0]);
    const run = this.run;
    if (!run) {
      this.stats.dropped++;
      return;
    }
    this.base ??= ms;
    if (ms - this.base > RENEW_MS) {
      this.renew(body[0]);
      return;
    }
    this.stats.messagesIn++;
    // Behind the source's times (a publisher restart the timeline turned forward cannot go back): at the run's start.
    if (!run.write(flvTag(TagType.audio, Math.max(0, ms - this.base) + LEAD_MS, [body]))) this.stats.dropped++;
  }

  stop() {
    this.stopped = true;
    void this.supervisor?.stop();
    this.supervisor = undefined;
    this.run = undefined;
  }

  private start(first: number) {
    const supervisor = new Supervisor({
      bin: this.opts.ffmpeg,
      args: aacEncoderArgs(first),
      stderrTail: 2000,
      onStart: (run) => {
        if (this.supervisor !== supervisor) return;
        this.stats.runs++;
        this.reader.reset();
        this.base = undefined;
        this.run = run;
        run.write(flvHeader({ audio: true, video: false }));
      },
      onStdout: (chunk) => {
        if (this.supervisor === supervisor) this.output(chunk);
      },
      onExit: (reason, restartInMs) => {
        if (this.supervisor !== supervisor || this.stopped) return;
        this.run = undefined;
        this.exited(reason, restartInMs !== undefined);
      },
    });
    this.supervisor = supervisor;
    supervisor.start();
  }

  /** A new run whose times start again (before a run's FLV times could wrap). */
  private renew(first: number) {
    void this.supervisor?.stop();
    this.supervisor = undefined;
    this.run = undefined;
    this.start(first);
  }

  private output(chunk: Buffer) {
    let tags;
    try {
      tags = this.reader.push(chunk);
    } catch (err) {
      if (!(err instanceof FlvFormatError)) throw err;
      // Not FLV: what ffmpeg writes cannot be trusted; the encoder ends (the video goes on).
      this.stats.malformed++;
      this.exited(`ffmpeg wrote something that is not FLV (${err.message})`, false);
      return;
    }
    const base = this.base;
    if (base === undefined) return;
    for (const t of tags) {
      if (t.type !== TagType.audio || t.data.length < 2 || t.data[0] >> 4 !== SOUND_AAC) continue;
      if (t.data[1] === 1) this.stats.aacOut++;
      this.sink.aac(t.timestamp - LEAD_MS + base, t.data);
    }
  }

  private exited(reason: string, canRetry: boolean) {
    const retrying = canRetry && this.stats.aacOut > 0;
    if (!retrying) this.stop();
    const missing = / not found$/.test(reason.split(':')[0]);
    const why: Reason = missing
      ? { key: 'streamAudioEncoderMissing', vars: { codec: this.opts.codec } }
      : { key: 'streamAudioEncoderFailed', vars: { codec: this.opts.codec } };
    this.sink.failed(`the ${this.opts.codec} audio's encoder to AAC (ffmpeg) ${reason}`, why, retrying);
  }
}
