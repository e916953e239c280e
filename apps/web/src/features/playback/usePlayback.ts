/**
 * One recording playback on a <video>: opens a playback session at a second of the day (a new
 * session for every seek outside what is buffered), plays its WS fMP4 with the live player's MSE
 * engine in playback mode (no live-edge chase), and maps the media clock back to the day so the
 * timeline playhead can follow. Speed and pause go to the server (it paces the sending) and to the
 * <video> (it plays the timestamps at that rate).
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { absoluteUrl } from '../../components/player/api';
import type { Engine } from '../../components/player/engine';
import { rangesOf } from '../../components/player/liveEdge';
import { browserCapabilities, isHevc } from '../../components/player/transport';
import { startWsFmp4, type GapMessage } from '../../components/player/wsFmp4';
import { controlPlayback, openPlayback, setPlaybackSpeed } from './api';
import { parseDay, parseStamp, stampAt } from './day';
import { DAY } from './timeline';
import { videoRateFor, type RecordSource } from './source';
import { choosePlaybackUrl } from './variant';

export type PlaybackPhase = 'idle' | 'loading' | 'playing' | 'paused' | 'ended' | 'unsupported' | 'error';

export interface PlaybackState {
  phase: PlaybackPhase;
  reason: string;
  requestId: string;
  speed: number;
  /** Seconds since the day's midnight at the playhead, undefined before anything plays. */
  position?: number;
  /** The server transcodes this H.265 recording to H.264 (this browser cannot decode H.265). */
  transcoded?: boolean;
}

/** A gap message's time of the next media, as seconds of `day` (field names vary; undefined when none). */
export function gapTarget(msg: GapMessage, day: string): number | undefined {
  const base = parseDay(day);
  if (!base) return undefined;
  for (const key of ['to', 'next', 'time', 'stime', 'start', 'resume']) {
    const v = msg[key];
    if (typeof v === 'string' && /^\d{14}$/.test(v)) {
      const d = parseStamp(v);
      if (d) return (d.getTime() - base.getTime()) / 1000;
    }
    if (typeof v === 'number' && Number.isFinite(v)) {
      const ms = v > 1e12 ? v : v > 1e9 ? v * 1000 : undefined;
      if (ms !== undefined) return (ms - base.getTime()) / 1000;
    }
  }
  return undefined;
}

/**
 * Where media time `media` is on the day. `rate`: seconds of recording per second of media time
 * from there on (default 1). A device recording at speed carries the speed in its timestamps (4×:
 * one media second holds four seconds of recording), so its anchors have the speed as rate.
 */
export interface Anchor {
  day: number;
  media: number | null;
  rate?: number;
}

/** The day second at media time `t`: the last anchor at or before it (undefined before the first frame). */
export function positionOf(anchors: Anchor[], t: number): number | undefined {
  let best: { day: number; media: number; rate: number } | undefined;
  for (const a of anchors) {
    if (a.media === null) continue;
    if (!best || (a.media <= t + 1e-3 && a.media >= best.media)) best = { day: a.day, media: a.media, rate: a.rate ?? 1 };
  }
  return best ? best.day + Math.max(0, t - best.media) * best.rate : undefined;
}

/**
 * The anchors after a change of speed of a stream that carries it in its timestamps: media from
 * `media` on (what arrives after the change: the end of the buffer) advances the day at `rate`.
 */
export function withRate(anchors: Anchor[], media: number, rate: number): Anchor[] {
  const day = positionOf(anchors, media);
  if (day === undefined) return anchors.map((a) => ({ ...a, rate }));
  return [...anchors.filter((a) => a.media === null || a.media < media), { day, media, rate }];
}

/** Media time `delta` seconds of recording away from `t` (a step inside the buffer). */
export const mediaStep = (anchors: Anchor[], t: number, delta: number): number => {
  let rate = 1;
  let best = -Infinity;
  for (const a of anchors) if (a.media !== null && a.media <= t + 1e-3 && a.media >= best) [best, rate] = [a.media, a.rate ?? 1];
  return t + delta / rate;
};

/** The largest hole in the buffer the playhead is moved over. */
const MAX_HOLE = 1;
/**
 * Closer than this to the end of its buffered range, the playhead counts as at the end, at 1×; at a
 * rate r, r times as much: Chrome stops further ahead of a hole the faster it plays (8×: 0.49 s of
 * media before it, where 0.25 s left it stuck and the playback ended at the first gap).
 */
const AT_END = 0.25;

/**
 * Where a playhead stuck at `t` goes (undefined: stay). The server joins the recordings on both sides
 * of a gap on one media timeline, but a block's audio and video do not end (or start) together, so
 * the buffer (where both tracks have media) has a hole of some tens of ms there, and Chrome's
 * <video> waits in front of it for good. Only holes behind which media already is are jumped; the
 * appends come in order, so such a hole is never filled.
 */
export function holeSkip(ranges: [number, number][], t: number, rate = 1): number | undefined {
  const cur = ranges.find(([s, e]) => t >= s - 1e-3 && t < e);
  if (cur && cur[1] - t > AT_END * Math.max(1, rate)) return undefined;
  const from = cur ? cur[1] : t;
  const next = ranges.find(([s]) => s > t + 1e-3 && s >= from - 1e-3);
  return next && next[0] - from <= MAX_HOLE ? next[0] + 1e-3 : undefined;
}

export function usePlayback(videoRef: RefObject<HTMLVideoElement | null>, device: string, channel: string, day: string, source: RecordSource = 'Cloud') {
  /** The session's stream already carries the speed (a device recording): the <video> stays at rate 1. */
  const inStreamRef = useRef(false);
  /** H.265 failed to decode here once: play H.265 recordings' H.264 leg from now on. */
  const forceH264Ref = useRef(false);
  const [state, setState] = useState<PlaybackState>({ phase: 'idle', reason: '', requestId: '', speed: 1 });
  const engineRef = useRef<Engine | null>(null);
  const genRef = useRef(0);
  /** Day seconds of media times: the start, then one per skipped gap (sorted by media time). */
  const anchorRef = useRef<Anchor[]>([{ day: 0, media: null }]);
  const stateRef = useRef(state);
  const update = useCallback((patch: Partial<PlaybackState>) => {
    stateRef.current = { ...stateRef.current, ...patch };
    setState(stateRef.current);
  }, []);

  const stop = useCallback(() => {
    genRef.current++;
    engineRef.current?.stop();
    engineRef.current = null;
  }, []);

  const position = useCallback((): number | undefined => {
    const video = videoRef.current;
    if (!video) return undefined;
    return positionOf(anchorRef.current, video.currentTime);
  }, [videoRef]);

  /**
   * The playhead's day second at the <video>'s last timeupdate while a session plays or is paused.
   * A renewal resumes from here: the engine empties the <video> (currentTime 0) before it reports
   * the close, so position() no longer knows.
   */
  const lastAtRef = useRef<number | undefined>(undefined);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const onTime = () => {
      const phase = stateRef.current.phase;
      if (phase !== 'playing' && phase !== 'paused') return;
      const at = positionOf(anchorRef.current, video.currentTime);
      if (at !== undefined) lastAtRef.current = at;
    };
    video.addEventListener('timeupdate', onTime);
    return () => video.removeEventListener('timeupdate', onTime);
  }, [videoRef]);

  const pause = useCallback(() => {
    videoRef.current?.pause();
    const id = stateRef.current.requestId;
    if (id) void controlPlayback(id, 'pause').catch(() => undefined);
    update({ phase: 'paused' });
  }, [update, videoRef]);

  /** `paused`: stop again at the first picture (a renewal of a paused playback). */
  const playAt = useCallback(
    async (second: number, end = DAY, { paused = false }: { paused?: boolean } = {}) => {
      const video = videoRef.current;
      if (!video) return;
      stop();
      const gen = genRef.current;
      const from = Math.max(0, Math.min(DAY - 1, Math.floor(second)));
      anchorRef.current = [{ day: from, media: null }];
      lastAtRef.current = undefined;
      update({ phase: 'loading', reason: '', position: from, transcoded: false });
      let answer;
      try {
        answer = await openPlayback(device, channel, stampAt(day, from), stampAt(day, Math.min(DAY, Math.max(from + 1, end))), source);
      } catch (err) {
        if (gen === genRef.current) update({ phase: 'error', reason: (err as Error).message });
        return;
      }
      if (gen !== genRef.current) return;
      const speed = stateRef.current.speed;
      inStreamRef.current = answer.SpeedInStream === 1;
      // Asked at once below: the stream then runs at the speed from its start.
      if (inStreamRef.current) anchorRef.current = [{ day: from, media: null, rate: speed }];
      const choice = choosePlaybackUrl(answer, browserCapabilities(), forceH264Ref.current);
      update({ requestId: answer.request_id, transcoded: choice.transcoded });
      if (speed !== 1) void setPlaybackSpeed(answer.request_id, speed).catch(() => undefined);
      const mine = () => gen === genRef.current;
      engineRef.current = startWsFmp4(
        video,
        absoluteUrl(choice.url, true),
        {
          onInfo: () => undefined,
          onState: () => undefined,
          onBytes: () => undefined,
          onPlaying: () => {
            if (!mine()) return;
            const v = videoRef.current;
            if (v && anchorRef.current[0].media === null) {
              anchorRef.current[0].media = v.buffered.length ? v.buffered.start(0) : v.currentTime;
              v.playbackRate = videoRateFor(stateRef.current.speed, inStreamRef.current);
            }
            update({ phase: 'playing' });
            if (paused) {
              paused = false;
              pause();
            }
          },
          onUnsupported: (mime) => {
            if (!mine()) return;
            if (isHevc(mime) && choice.hasVariant && !choice.transcoded) {
              // The capability test said yes (or did not know) but H.265 does not decode: a new session on the H.264 leg.
              forceH264Ref.current = true;
              void playAt(from, end, { paused });
              return;
            }
            update({ phase: 'unsupported', reason: mime });
          },
          onFailure: (kind, reason) => {
            if (!mine()) return;
            const phase = stateRef.current.phase;
            if (phase === 'ended') return;
            if (kind === 'expired') {
              // The server closed the socket at its play token's expiry (24 h; routes/media/token-expiry.ts),
              // nothing failed: a new session (a fresh URL) from where the playhead was, paused if it was.
              void playAt(lastAtRef.current ?? from, end, { paused: phase === 'paused' });
              return;
            }
            update({ phase: 'error', reason });
          },
        },
        {
          playback: true,
          onGap: (msg, mediaTime) => {
            if (!mine()) return;
            const target = gapTarget(msg, day);
            // The server skipped the hole: the media from `mediaTime` on belongs to `target`.
            if (target !== undefined) anchorRef.current = [...anchorRef.current, { day: target, media: mediaTime, rate: anchorRef.current.at(-1)?.rate }];
          },
          onEnded: () => mine() && update({ phase: 'ended' }),
          // A device's H.264 leg passes an H.264 recording through: the page says transcoded only when it is.
          onTranscoded: (transcoded) => mine() && update({ transcoded }),
        },
      );
    },
    [device, channel, day, source, stop, update, pause, videoRef],
  );

  const resume = useCallback(() => {
    const id = stateRef.current.requestId;
    if (id) void controlPlayback(id, 'resume').catch(() => undefined);
    void videoRef.current?.play().catch(() => undefined);
    update({ phase: 'playing' });
  }, [update, videoRef]);

  const setSpeed = useCallback(
    (speed: number) => {
      update({ speed });
      const video = videoRef.current;
      if (video) video.playbackRate = videoRateFor(speed, inStreamRef.current);
      // The picture then shows `speed` seconds of recording per second: the playhead follows from
      // the media that comes after the change (what is buffered was sent at the old speed).
      if (video && inStreamRef.current) {
        const end = video.buffered.length ? video.buffered.end(video.buffered.length - 1) : video.currentTime;
        anchorRef.current = withRate(anchorRef.current, Math.max(end, video.currentTime), speed);
      }
      const id = stateRef.current.requestId;
      if (id) void setPlaybackSpeed(id, speed).catch(() => undefined);
    },
    [update, videoRef],
  );

  /** Moves by `delta` seconds: inside the buffer by the media clock, else a new session. */
  const step = useCallback(
    (delta: number) => {
      const video = videoRef.current;
      const pos = position();
      if (!video || pos === undefined) return;
      const target = mediaStep(anchorRef.current, video.currentTime, delta);
      for (let i = 0; i < video.buffered.length; i++) {
        if (target >= video.buffered.start(i) && target < video.buffered.end(i) - 0.2) {
          video.currentTime = target;
          return;
        }
      }
      void playAt(pos + delta);
    },
    [playAt, position, videoRef],
  );

  // A playhead waiting in front of a hole in the buffer (the edge of a gap) moves over it.
  useEffect(() => {
    const timer = setInterval(() => {
      const v = videoRef.current;
      if (!v || v.paused || v.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA || stateRef.current.phase !== 'playing') return;
      const to = holeSkip(rangesOf(v.buffered), v.currentTime, v.playbackRate);
      if (to !== undefined) v.currentTime = to;
    }, 250);
    return () => clearInterval(timer);
  }, [videoRef]);

  useEffect(() => () => stop(), [stop]);
  useEffect(() => {
    // Another channel or day: stop what plays.
    stop();
    anchorRef.current = [{ day: 0, media: null }];
    update({ phase: 'idle', reason: '', requestId: '', position: undefined });
  }, [device, channel, day, source, stop, update]);

  return { state, playAt, pause, resume, setSpeed, step, position, stop };
}
