/**
 * The life of one live view: ask for the stream (fresh URL and token every time), pick a transport,
 * play, and on trouble reconnect with bounded back-off or fall back to the next transport; renew the
 * URLs shortly before their play token expires (the server then ends the connection). Keeps
 * the stream alive on the server every 25 s while playing and measures bytes per second.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { reasonOfState, type Reason } from '@opencvr/shared';
import { RequestError } from '../../lib/request';
import { absoluteUrl, probeOutput, type IngestState, type StreamAnswer } from './api';
import { backoffDelay } from './backoff';
import type { Engine, EngineEvents, MediaInfo, StartEngine } from './engine';
import { browserCapabilities, chooseTransport, h264Variant, isHevc, needsProbe, TRANSPORT_URL_KEY, type Transport } from './transport';
import { startWsFmp4 } from './wsFmp4';

export const KEEPALIVE_MS = 25_000;
/** Failed attempts in a row on one transport without a picture before the next one is tried. */
const ATTEMPTS_PER_TRANSPORT = 3;

export type PlayerPhase = 'loading' | 'playing' | 'reconnecting' | 'unsupported' | 'error';

export interface PlayerStats {
  phase: PlayerPhase;
  /** Why it is reconnecting, or the error / unsupported codec. */
  reason: string;
  /** The catalogue's reason for `reason` when the server sent one: shown in the console's language. */
  why?: Reason;
  transport?: Transport;
  ingest?: IngestState;
  codec?: string;
  width?: number;
  height?: number;
  /** Bytes received in the last second. */
  bytesPerSecond: number;
  /** Milliseconds until the next reconnect attempt. */
  retryInMs?: number;
  /** Playing the server's H.264 transcoding of an H.265 stream (this browser cannot decode H.265). */
  transcoded?: boolean;
  /** Whole seconds in a row without a byte while playing (a device that stopped sending: the picture freezes). */
  silentSeconds?: number;
  /**
   * What the live stream plays without, as the server says while it is live (an RTMP channel whose
   * audio could not be encoded to AAC: its video plays without sound).
   */
  note?: { reason: string; why?: Reason };
  /**
   * The HTTP status the server refused the stream with (a 4xx: the channel deleted, a right or a
   * link that ended): the player gave up, asking again cannot help. Absent for failures that can pass.
   */
  refused?: number;
}

/**
 * What a stream that is gone (its engine stopped on a failure, an error, a codec this browser cannot
 * play) no longer has: the toolbar showed the last stream's codec and size beside the error. The
 * next engine reports its own when it plays.
 */
const GONE = { codec: undefined, width: undefined, height: undefined } as const satisfies Partial<PlayerStats>;

/** Seconds without data after one more second of `bytes` (counted only while playing). */
export const nextSilence = (silent: number, bytes: number, playing: boolean) => (playing && bytes === 0 ? silent + 1 : 0);

/**
 * Silent this long, the player says the picture is frozen and why it waits: the server gives a
 * source up only after its own time-out (10 s for a GB28181 device), a long time on a still frame.
 */
export const FROZEN_AFTER_S = 3;

const STARTERS: Record<Transport, () => Promise<StartEngine>> = {
  'ws-fmp4': async () => startWsFmp4,
  hls: async () => (await import('./hls')).startHls,
  webrtc: async () => (await import('./webrtc')).startWebrtc,
  flv: async () => (await import('./flv')).startFlv,
};

/**
 * The phase while the server opens or reopens the camera: "connecting" before the first picture is
 * still loading (a camera not yet connected, an H.265 transcoding starting: seconds), not a
 * reconnect; "retrying", or "connecting" after a picture, is one.
 */
export const waitingPhase = (state: 'connecting' | 'retrying', phase: PlayerPhase): PlayerPhase =>
  state === 'connecting' && phase === 'loading' ? 'loading' : 'reconnecting';

/**
 * How long after an answer the player renews its URLs, from the seconds they have left: two minutes
 * before their end (a hidden tab's timers may run up to a minute late), never before half their life
 * (a short TokenTimeout). Renewing before the server ends the connection works alike for every
 * transport: HTTP-FLV, WebRTC and HLS cannot be told why their connection ended.
 */
export function renewDelayMs(secondsLeft: number): number {
  const left = secondsLeft * 1000;
  return Math.max(left - RENEW_BEFORE_MS, left / 2);
}
const RENEW_BEFORE_MS = 120_000;

/** Request failures worth retrying: the network or the server, not a refusal. */
function retryable(err: unknown): boolean {
  return !(err instanceof RequestError) || err.code === 0 || err.code >= 500;
}

export interface LiveStreamOptions {
  open: () => Promise<StreamAnswer>;
  keepalive?: () => Promise<unknown>;
  /** Changing it restarts the view (device/channel/flow). */
  key: string;
  /** Play over this transport only (the user's choice); automatic when absent. */
  transport?: Transport;
  onStats?: (s: PlayerStats) => void;
}

export function useLiveStream(videoRef: RefObject<HTMLVideoElement | null>, opts: LiveStreamOptions) {
  const [stats, setStats] = useState<PlayerStats>({ phase: 'loading', reason: '', bytesPerSecond: 0 });
  const [restart, setRestart] = useState(0);
  const optsRef = useRef(opts);
  useEffect(() => {
    optsRef.current = opts;
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    let engine: Engine | null = null;
    let generation = 0;
    let attempt = 0;
    let failsHere = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let keepTimer: ReturnType<typeof setInterval> | undefined;
    let renewTimer: ReturnType<typeof setTimeout> | undefined;
    /** The next connect() renews the play URLs of a playing view: it goes on showing as playing. */
    let renewing = false;
    let bytes = 0;
    let current: PlayerStats = { phase: 'loading', reason: '', bytesPerSecond: 0 };
    const failed = new Set<Transport>();
    const served: Partial<Record<Transport, boolean>> = {};
    const caps = browserCapabilities();
    const only = optsRef.current.transport;
    /** The H.265 original failed to decode here: play the H.264 variant from now on. */
    let wantVariant = false;
    /**
     * H.265 came on a stream whose answer offered no variant (an H.264 camera that came back as H.265)
     * and the stream was asked for again: the same once more is said, not asked again, until a picture plays.
     */
    let askedForVariant = false;

    const update = (patch: Partial<PlayerStats>) => {
      if (cancelled) return;
      // A new reason without its catalogue reason does not keep the last one's.
      current = { ...current, ...('reason' in patch && !('why' in patch) ? { why: undefined } : {}), ...patch };
      setStats(current);
      optsRef.current.onStats?.(current);
    };

    const meter = setInterval(() => {
      const bps = bytes;
      bytes = 0;
      const silentSeconds = nextSilence(current.silentSeconds ?? 0, bps, current.phase === 'playing');
      if (bps !== current.bytesPerSecond || silentSeconds !== (current.silentSeconds ?? 0)) update({ bytesPerSecond: bps, silentSeconds });
    }, 1000);

    const stopEngine = () => {
      generation++;
      engine?.stop();
      engine = null;
      if (keepTimer) clearInterval(keepTimer);
      keepTimer = undefined;
      clearTimeout(renewTimer);
    };

    /** Fresh URLs now, not a failure: no back-off, no 正在重新连接…, nothing counted against the transport. */
    const renew = () => {
      renewing = true;
      void connect();
    };

    const scheduleRetry = (reason: string) => {
      if (cancelled) return;
      clearTimeout(renewTimer);
      const delay = backoffDelay(attempt++);
      update({ phase: 'reconnecting', reason, retryInMs: delay, bytesPerSecond: 0, ...GONE });
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => void connect(), delay);
    };

    const connect = async () => {
      if (cancelled) return;
      const renewal = renewing;
      renewing = false;
      stopEngine();
      const gen = generation;
      let answer: StreamAnswer;
      try {
        answer = await optsRef.current.open();
      } catch (err) {
        if (cancelled || gen !== generation) return;
        const text = err instanceof Error ? err.message : String(err);
        if (retryable(err)) scheduleRetry(text);
        else update({ phase: 'error', reason: text, refused: (err as RequestError).code, ...GONE });
        return;
      }
      if (cancelled || gen !== generation) return;

      // An H.265 stream comes with its H.264 variant: played where MSE cannot decode H.265 (known
      // beforehand, or learnt from a first try), so the server transcodes only for such browsers.
      const variant = h264Variant(answer.URLs ?? {});
      const transcoded = !!variant && (wantVariant || caps.hevc === false);
      const urls = transcoded ? variant : (answer.URLs ?? {});
      let transport = chooseTransport({ caps, urls, served, failed, only });
      while (transport && needsProbe(transport) && served[transport] === undefined) {
        const url = urls[TRANSPORT_URL_KEY[transport]] ?? '';
        served[transport] = await probeOutput(url, transport === 'webrtc' ? 'OPTIONS' : 'HEAD');
        if (cancelled || gen !== generation) return;
        transport = chooseTransport({ caps, urls, served, failed, only });
      }
      if (!transport) {
        update({ phase: 'error', reason: caps.mse || only ? 'no transport' : 'no MediaSource', ...GONE });
        return;
      }
      // The server ends the connection when the URLs' token expires: new ones before that.
      if (answer.UrlsExpireIn) renewTimer = setTimeout(renew, renewDelayMs(answer.UrlsExpireIn));
      const path = transport === 'ws-fmp4' ? (urls.WS_FMP4 ?? answer.URL) : urls[TRANSPORT_URL_KEY[transport]]!;
      const url = absoluteUrl(path, transport === 'ws-fmp4' || transport === 'flv');
      const reconnecting = current.phase === 'reconnecting';
      const ingestWaiting = answer.State === 'retrying' || answer.State === 'connecting';
      const keepsPlaying = renewal && current.phase === 'playing';
      update({
        transport,
        transcoded,
        ingest: answer.State,
        phase: reconnecting || answer.State === 'retrying' ? 'reconnecting' : keepsPlaying ? 'playing' : 'loading',
        reason: ingestWaiting ? (answer.Reason ?? '') : current.reason,
        // The code beside the answer's rendered Reason: the player says it in the console's language, after a switch too.
        why: ingestWaiting ? reasonOfState({ code: answer.ReasonCode, vars: answer.ReasonVars }) : current.why,
        note: answer.State === 'live' && answer.Reason ? { reason: answer.Reason, why: reasonOfState({ code: answer.ReasonCode, vars: answer.ReasonVars }) } : undefined,
        retryInMs: undefined,
      });

      const mine = () => !cancelled && gen === generation;
      const events: EngineEvents = {
        onInfo: (info: MediaInfo) => {
          if (!mine()) return;
          const patch: Partial<PlayerStats> = {};
          if (info.codec) patch.codec = info.codec;
          if (info.width) patch.width = info.width;
          if (info.height) patch.height = info.height;
          update(patch);
        },
        onState: (state, reason, why) => {
          if (!mine()) return;
          if (state === 'retrying' || state === 'connecting') update({ ingest: state, phase: waitingPhase(state, current.phase), reason, why });
          else if (state === 'live') update({ ingest: state, note: reason ? { reason, why } : undefined });
          else update({ ingest: state });
        },
        onBytes: (n) => {
          if (mine()) bytes += n;
        },
        onPlaying: () => {
          if (!mine()) return;
          attempt = 0;
          failsHere = 0;
          failed.delete(transport!);
          askedForVariant = false;
          update({ phase: 'playing', reason: '', retryInMs: undefined });
          const keep = optsRef.current.keepalive;
          if (keep && !keepTimer) keepTimer = setInterval(() => void keep().catch(() => undefined), KEEPALIVE_MS);
        },
        onUnsupported: (mime) => {
          if (!mine()) return;
          stopEngine();
          // Known: play the variant. Not offered: the answer predates the H.265 (a camera that changed
          // its codec while this player played it), so ask once more: the server offers the variant now.
          if (isHevc(mime) && !transcoded && (variant || !askedForVariant)) {
            wantVariant = true;
            if (!variant) askedForVariant = true;
            void connect();
            return;
          }
          update({ phase: 'unsupported', reason: mime, ...GONE });
        },
        onFailure: (kind, reason) => {
          if (!mine()) return;
          stopEngine();
          if (kind === 'expired') {
            // The play token ran out (a console whose timers ran late, e.g. after a sleep): fresh URLs now.
            renew();
            return;
          }
          failsHere++;
          if (kind === 'fatal' || failsHere >= ATTEMPTS_PER_TRANSPORT) {
            failed.add(transport!);
            failsHere = 0;
          }
          scheduleRetry(reason);
        },
      };
      try {
        const start = await STARTERS[transport]();
        if (!mine()) return;
        const e = await start(video, url, events);
        if (!mine()) {
          e.stop();
          return;
        }
        engine = e;
      } catch (err) {
        if (!mine()) return;
        failed.add(transport);
        scheduleRetry((err as Error).message);
      }
    };

    void connect();
    return () => {
      cancelled = true;
      clearTimeout(retryTimer);
      clearInterval(meter);
      stopEngine();
    };
  }, [videoRef, opts.key, opts.transport, restart]);

  return { stats, retry: () => setRestart((n) => n + 1) };
}
