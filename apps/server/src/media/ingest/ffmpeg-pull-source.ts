/**
 * Pulls a stream no native client of ours takes (HTTP-FLV, HLS; rtmp:// channels are the native RTMP
 * client's even when their audio needs ffmpeg, which then encodes only that: rtmp-audio-encoder.ts;
 * an rtmp:// address given here still plays, as the cost bench compares) through ffmpeg
 * into a hub: ffmpeg copies it (no video transcoding) into fragmented MP4 on stdout, one fragment per
 * picture (ffmpeg/args.ts pullArgs), and the fmp4 package's stream reader turns that back into
 * tracks and access units with their own times. Every output of the hub then works as for a camera.
 *
 * ffmpeg runs under the Supervisor (argument array, no shell, the address on stdin rather than the
 * command line: args.ts pullArgs; killed on stop). An exit, or no output
 * for mediaTimeoutMs, fails the source with ffmpeg's own words (credentials removed; the log's) and a
 * catalogue reason (the user's), and the hub retries with its back-off. Two cases are handled
 * here instead:
 * - audio the mp4 muxer cannot hold or the hub does not carry (G.711, MP3, Speex, Nellymoser...): the
 *   next run encodes it to AAC (cheap for audio, and every output takes AAC); AAC is always copied;
 * - H.265 in FLV (RTMP, HTTP-FLV) with an ffmpeg older than 6.1, which cannot read it: the reason
 *   says so (REASONS.pullHevcFlvNeedsFfmpeg61) instead of ffmpeg's "not implemented";
 * - a live HLS playlist that stopped advancing: ffmpeg waits on it (no output) and a retry would
 *   replay its last segments; the run's end records the newest segment, the next run starts after it
 *   or, with none newer, fails with statusHlsStale without running ffmpeg (hls-played.ts);
 * - a live HLS playlist is judged before ffmpeg starts: a stale one fails with statusHlsStale and no
 *   ffmpeg, so a stopped source's last segments are never shown as live; while a run plays, one that
 *   has not moved for 1.5 target durations ends the run with statusHlsStale (hls-pull-watch.ts);
 * - http(s):// servers are reached only through the source's pull gateway (pull-gateway.ts), which
 *   holds every https:// server's certificate to the channel's policy (an authority, else its pin) and
 *   ends the source with the refusal's reason (tlsCertChanged, tlsCertExpired, ...) before a request.
 */
import { BoxError, Fmp4StreamReader } from '@opencvr/fmp4';
import { reason, type Reason } from '@opencvr/shared';
import type { MediaSource, SourceSink } from '../hub.js';
import { pullArgs, pullInputScript } from '../ffmpeg/args.js';
import { Supervisor } from '../ffmpeg/supervisor.js';
import { ffmpegHasHevcInFlv } from '../ffmpeg/version.js';
import { readMediaPlaylist } from '../../access/http-stream-probe.js';
import { hlsRunEnded, isHlsAddress } from './hls-played.js';
import { HlsPullWatch } from './hls-pull-watch.js';
import { PULL_PROTOCOLS, pullUrl, PullUrlError, type PullUrl } from './pull-url.js';
import { PullGateway } from './pull-gateway.js';

export interface FfmpegPullOptions {
  username?: string;
  password?: string;
  /** The channel's EnableAudio (default true). */
  audio?: boolean;
  /** The ffmpeg program (default: ffmpeg on PATH). */
  ffmpeg?: string;
  /** No output for this long ends the run (default 15 s: an HLS source may take a segment or two to start). */
  mediaTimeoutMs?: number;
  /** Whether the ffmpeg reads H.265 in FLV (default: asked from its version, see ffmpeg/version.ts). */
  hevcInFlv?: () => Promise<boolean>;
  /** The channel whose pin an https:// address's own server holds (access/tls/https-trust.ts); none: nothing is pinned. */
  pinFor?: number;
}

/**
 * Addresses whose audio had to be encoded to AAC, so the hub's next source (a retry, the next viewer)
 * starts with `-c:a aac` instead of failing a run first. Kept for the process; bounded.
 */
const audioToAac = new Set<string>();
const AUDIO_MEMORY = 1000;

/** The last lines a failing ffmpeg writes that say nothing by themselves: the line before them is the reason. */
const GENERIC = /^(Input\/output error|Invalid data found when processing input|Error initializing output stream|Could not write header|Conversion failed|Exiting normally)/i;

export class FfmpegPullSource implements MediaSource {
  private sink?: SourceSink;
  private supervisor?: Supervisor;
  private reader = new Fmp4StreamReader();
  private audioMode: 'copy' | 'aac' | 'none';
  /**
   * Fails the source mediaTimeoutMs after ffmpeg's last output: armed when a run starts, pushed back
   * (refresh()) per read of its stdout, not a timer looking every second, so a stream whose media
   * flows does not wake the process for it (issue 4; the RTSP source's shape). Node leaves a
   * refreshed timer where it is in its list until the list comes due: a flowing stream costs one
   * timer wake-up per mediaTimeoutMs at most. None before the first run (an HLS playlist is judged
   * first, with its own bound).
   */
  private watchdog?: NodeJS.Timeout;
  private stopped = false;
  private hevcInFlv = true;
  private url?: PullUrl;
  /** The address is a live HLS playlist: judged before a run and while it plays (hls-pull-watch.ts). */
  private hls?: HlsPullWatch;
  /** http(s)://: ffmpeg's way to the servers, judging their certificates (pull-gateway.ts). */
  private gateway?: PullGateway;
  /** How long reading the playlist may take before a run (and at its end). */
  private static readonly PLAYLIST_TIMEOUT_MS = 5000;
  /** Runs of ffmpeg, units given to the hub, whether the audio is being encoded to AAC. */
  readonly stats = { runs: 0, units: 0, audioConverted: false };

  constructor(
    private readonly raw: string,
    private readonly opts: FfmpegPullOptions = {},
  ) {
    this.audioMode = opts.audio === false ? 'none' : 'copy';
  }

  start(sink: SourceSink) {
    this.sink = sink;
    try {
      this.url = pullUrl(this.raw, this.opts);
    } catch (err) {
      const words = err instanceof PullUrlError ? err.message : String(err);
      queueMicrotask(() => this.fail(words, { key: 'statusBadUrl' }));
      return;
    }
    if (this.audioMode === 'copy' && audioToAac.has(this.url.display)) this.audioMode = 'aac';
    void (this.opts.hevcInFlv ?? (() => ffmpegHasHevcInFlv(this.opts.ffmpeg)))().then((ok) => (this.hevcInFlv = ok));
    if (isHlsAddress(this.url.url)) this.hls = new HlsPullWatch(this.url, FfmpegPullSource.PLAYLIST_TIMEOUT_MS, this.opts.pinFor);
    void this.begin();
  }

  /** The running ffmpeg's process id, if one runs. */
  get pid(): number | undefined {
    return this.supervisor?.pid;
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.watchdog);
    this.hls?.stop();
    void this.supervisor?.stop();
    this.supervisor = undefined;
    this.gateway?.close();
  }

  /** The gateway first for http(s)://, then the first run. */
  private async begin() {
    const url = this.url!;
    if (url.scheme === 'http' || url.scheme === 'https') {
      try {
        this.gateway = await PullGateway.open({ address: new URL(url.display), channel: this.opts.pinFor, onRefused: (m) => this.fail(m.reason, m.why) });
      } catch (err) {
        this.fail(`cannot open the pull gateway (${(err as Error).message})`, { key: 'streamPullFailed' });
        return;
      }
      if (this.stopped) {
        this.gateway.close();
        return;
      }
    }
    if (this.hls) await this.startHls(this.hls);
    else this.spawn();
  }

  /** An HLS run starts only on a playlist that moves, after the segments already played, and is watched while it plays. */
  private async startHls(watch: HlsPullWatch) {
    const start = await watch.beforeRun();
    if (!start || this.stopped) return;
    if (start.kind === 'stale') {
      this.fail(start.words, start.why);
      return;
    }
    this.spawn(start.liveStartIndex);
    watch.watch(start.targetS, (words, why) => this.fail(words, why));
  }

  private spawn(hlsLiveStartIndex?: number) {
    const url = this.url!;
    void this.supervisor?.stop();
    this.reader.reset();
    if (this.watchdog) this.watchdog.refresh();
    else {
      this.watchdog = setTimeout(() => this.timedOut(), this.opts.mediaTimeoutMs ?? 15_000);
      this.watchdog.unref();
    }
    const supervisor = new Supervisor({
      bin: this.opts.ffmpeg,
      // The address (with the credentials) goes on stdin, not the command line (pullArgs says why).
      args: pullArgs({ protocols: PULL_PROTOCOLS[url.scheme], audio: this.audioMode }),
      stdin: pullInputScript({ url: url.url, hlsLiveStartIndex }),
      ...(this.gateway ? { env: this.gateway.ffmpegEnv() } : {}),
      stderrTail: 4000,
      onStart: () => this.stats.runs++,
      onStdout: (chunk) => {
        if (this.supervisor === supervisor) this.output(chunk);
      },
      onExit: (why) => {
        if (this.supervisor === supervisor) this.exited(why, supervisor.stderr);
      },
    });
    this.supervisor = supervisor;
    supervisor.start();
  }

  private output(chunk: Buffer) {
    this.watchdog?.refresh();
    let events;
    try {
      events = this.reader.push(chunk);
    } catch (err) {
      this.fail(`ffmpeg wrote something that is not fragmented MP4 (${err instanceof BoxError ? err.message : String(err)})`, { key: 'streamPullFailed' });
      return;
    }
    for (const e of events) {
      if (this.stopped) return;
      if (e.type === 'init') {
        const audioLeftOut = e.skipped.find((t) => t.kind === 'audio');
        if (audioLeftOut && this.audioMode === 'copy') {
          this.convertAudio();
          return;
        }
        if (!e.tracks.length) {
          this.fail(`the stream has no video or audio this server carries (${e.skipped.map((t) => t.entry).join(', ') || 'no tracks'})`, {
            key: 'streamNoPlayableTrack',
          });
          return;
        }
        this.sink?.tracks(e.tracks.map((t) => t.track));
      } else {
        this.stats.units++;
        this.sink?.unit(e.index, e.unit);
      }
    }
  }

  /** Audio the stream cannot carry as it is: the next run encodes it to AAC (at once, not as a failure), and so do later sources of the address. */
  private convertAudio() {
    this.audioMode = 'aac';
    if (audioToAac.size >= AUDIO_MEMORY) audioToAac.clear();
    audioToAac.add(this.url!.display);
    this.stats.audioConverted = true;
    this.spawn();
  }

  private exited(why: string, stderr: string) {
    if (this.stopped) return;
    // The mp4 muxer refused a codec (G.711, Speex...): audio, as video is H.264/H.265 here; if it was
    // the video after all, the next run fails the same way and says so.
    if (this.audioMode === 'copy' && /Could not find tag for codec \S+ in stream #\d+/.test(stderr)) {
      this.convertAudio();
      return;
    }
    if (!this.hevcInFlv && /\[flv @ [^\]]+\] Video codec \(\w+\) is not implemented/.test(stderr)) {
      this.fail(reason('pullHevcFlvNeedsFfmpeg61', 'en-US'), { key: 'pullHevcFlvNeedsFfmpeg61' });
      return;
    }
    // Through the gateway ffmpeg sees only a 502: the gateway's own error says what happened.
    const upstream = this.gateway?.upstreamError;
    if (upstream?.err.code === 'ECONNREFUSED') {
      this.fail('connection refused', { key: 'streamRefused' });
      return;
    }
    if (upstream) {
      const { err, host } = upstream;
      const words = err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' ? `failed to resolve hostname ${host}` : `cannot reach ${host} (${err.code ?? err.message})`;
      this.fail(words, { key: 'streamPullFailed' });
      return;
    }
    const words = this.explain(why, stderr);
    this.fail(words, words === 'connection refused' ? { key: 'streamRefused' } : words === 'the stream ended' ? { key: 'streamEnded' } : { key: 'streamPullFailed' });
  }

  /** ffmpeg's last words (the log's): the informative line, without log prefixes, the address or credentials. */
  private explain(why: string, stderr: string): string {
    const url = this.url!;
    // "[tcp @ 0x55…] …", "rtmp://host/app: …" and "pipe:0: …" (the input script, args.ts): the address
    // is the channel's, the rest is the reason; the concat demuxer's "Impossible to open '<address>'"
    // says nothing more.
    const lines = stderr
      .split('\n')
      .map((l) => url.redact(l.replace(/^\[[^\]]+ @ 0x[0-9a-f]+\]\s*/i, '').trim()))
      .map((l) => (l.startsWith(`${url.display}:`) ? l.slice(url.display.length + 1).trim() : l))
      .map((l) => (l.startsWith('pipe:0:') ? l.slice('pipe:0:'.length).trim() : l))
      .filter((l) => l && !l.startsWith('Impossible to open '));
    let last = lines.pop();
    if (!last) return /code 0$/.test(why) ? 'the stream ended' : `ffmpeg ${why}`;
    if (/^Connection refused$/i.test(last)) return 'connection refused';
    if (GENERIC.test(last) && lines.length) last = `${lines.pop()}: ${last}`;
    return `ffmpeg: ${last}`;
  }

  /** ffmpeg wrote nothing for mediaTimeoutMs (armed only once a run started, spawn()). */
  private timedOut() {
    const seconds = Math.round((this.opts.mediaTimeoutMs ?? 15_000) / 1000);
    if (!this.stopped && this.supervisor) this.fail(`no media for ${seconds} s`, { key: 'streamNoMedia', vars: { seconds } });
  }

  private fail(words: string, why: Reason) {
    if (this.stopped) return;
    const sink = this.sink;
    const ran = this.stats.runs > 0;
    this.stop();
    if (!this.hls || !ran) {
      sink?.failed(words, why);
      return;
    }
    // An HLS run ended: what it reached counts as played before the hub retries (after its back-off,
    // so the next source reads the record). A run that stalled or ended had played the playlist to its
    // end and waited for a segment that never came: the playlist is stale.
    const url = this.url!;
    void readMediaPlaylist(url.url, FfmpegPullSource.PLAYLIST_TIMEOUT_MS, this.opts.pinFor).then((list) => {
      hlsRunEnded(url.display, list);
      const stalled = why.key === 'streamNoMedia' || why.key === 'streamEnded';
      if (stalled && list?.kind === 'media' && !list.ended) {
        const seconds = Math.round((this.opts.mediaTimeoutMs ?? 15_000) / 1000);
        sink?.failed(`${words}: the HLS playlist did not change within ${seconds} s`, { key: 'statusHlsStale', vars: { seconds } });
      } else sink?.failed(words, why);
    });
  }
}
