/**
 * WebSocket fMP4 → MSE (the server's ws-fmp4 output): text frames {type:'init', mime, tracks} and
 * {type:'state', state, reason}; binary frames: the init segment after each 'init', then moof+mdat
 * fragments. Every 'init' (a camera that came back, a new codec) gets a fresh MediaSource and
 * SourceBuffer. Appends go one at a time through a queue; after each one the live-edge rule may
 * jump, change the rate or trim the buffer so memory stays flat.
 *
 * With `playback` (recordings) the same protocol carries a time range: no live-edge chase, no stall
 * watchdog (a paused recording receives nothing), only the media behind the playhead is trimmed,
 * and {type:'gap'} / {type:'state', state:'ended'} are passed on.
 */
import type { IngestState } from './api';
import { playSafely, type Engine, type EngineEvents } from './engine';
import { liveEdge, rangesOf, type EdgeActions } from './liveEdge';

/** More queued fragments than this means the page cannot keep up: start over at live. */
const MAX_QUEUE = 300;
/** No media for this long while the camera is said to be live: the connection is dead. */
const STALL_MS = 10_000;

interface InitMessage {
  type: 'init';
  mime: string;
  tracks?: { kind: string; codec?: string; codecString?: string; width?: number; height?: number }[];
}
interface StateMessage {
  type: 'state';
  state: IngestState;
  reason?: string;
}
interface EndedMessage {
  type: 'state';
  state: 'ended';
}
export interface GapMessage {
  type: 'gap';
  [k: string]: unknown;
}

export interface WsFmp4Options {
  /** Recordings: never chase the live edge. */
  playback?: boolean;
  /** A hole in the recordings was skipped: the media appended next (from `mediaTime`) is `msg.to`. */
  onGap?: (msg: GapMessage, mediaTime: number) => void;
  onEnded?: () => void;
}

/** Seconds of played media a recording keeps behind the playhead. */
const PLAYBACK_KEEP_BEHIND = 30;

export function startWsFmp4(video: HTMLVideoElement, url: string, ev: EngineEvents, options: WsFmp4Options = {}): Engine {
  const playback = options.playback === true;
  let stopped = false;
  let source: MediaSource | null = null;
  let buffer: SourceBuffer | null = null;
  let objectUrl = '';
  let queue: (ArrayBuffer | GapMessage)[] = [];
  let accepting = false;
  let playing = false;
  let ingest: IngestState | '' = '';
  let lastData = Date.now();

  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';

  const fail = (kind: 'closed' | 'fatal', reason: string) => {
    if (stopped) return;
    stop();
    ev.onFailure(kind, reason);
  };

  const onVideoError = () => {
    const e = video.error;
    if (e) fail('fatal', e.message || `media error ${e.code}`);
  };
  video.addEventListener('error', onVideoError);

  const watchdog = setInterval(() => {
    if (playback) return;
    if (ingest === 'retrying' || ingest === 'connecting') return;
    if (Date.now() - lastData > STALL_MS) fail('closed', 'no media received');
  }, 2000);

  function releaseMedia() {
    if (buffer) buffer.removeEventListener('updateend', pump);
    buffer = null;
    if (source && source.readyState === 'open') {
      try {
        source.endOfStream();
      } catch {
        /* closing anyway */
      }
    }
    source = null;
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    objectUrl = '';
    queue = [];
  }

  function onInit(msg: InitMessage) {
    const video0 = msg.tracks?.find((t) => t.kind === 'video');
    ev.onInfo({ mime: msg.mime, codec: video0?.codecString ?? video0?.codec, width: video0?.width, height: video0?.height });
    if (!window.MediaSource.isTypeSupported(msg.mime)) {
      stop();
      ev.onUnsupported(msg.mime);
      return;
    }
    releaseMedia();
    playing = false;
    accepting = true;
    const ms = new MediaSource();
    source = ms;
    objectUrl = URL.createObjectURL(ms);
    video.src = objectUrl;
    ms.addEventListener(
      'sourceopen',
      () => {
        if (stopped || source !== ms) return;
        URL.revokeObjectURL(objectUrl);
        objectUrl = '';
        try {
          const sb = ms.addSourceBuffer(msg.mime);
          sb.mode = 'segments';
          sb.addEventListener('updateend', pump);
          buffer = sb;
        } catch (err) {
          fail('fatal', (err as Error).message);
          return;
        }
        pump();
      },
      { once: true },
    );
  }

  function pump() {
    const sb = buffer;
    if (stopped || !sb || sb.updating) return;
    if (sb.buffered.length) {
      if (!playing) {
        playing = true;
        ev.onPlaying();
        if (playback) {
          // Recordings may keep their own timestamps: start where the media starts.
          if (video.currentTime < sb.buffered.start(0)) video.currentTime = sb.buffered.start(0);
          playSafely(video);
        }
      }
      if (playback) {
        const from = sb.buffered.start(0);
        const keepFrom = video.currentTime - PLAYBACK_KEEP_BEHIND;
        if (keepFrom - from > 5) {
          try {
            sb.remove(from, keepFrom);
            return;
          } catch {
            /* append anyway */
          }
        }
      }
      const act: EdgeActions = playback ? {} : liveEdge({ ranges: rangesOf(sb.buffered), currentTime: video.currentTime, playbackRate: video.playbackRate });
      if (act.seek !== undefined) video.currentTime = act.seek;
      if (act.rate !== undefined) video.playbackRate = act.rate;
      if (!playback) playSafely(video);
      if (act.trim) {
        try {
          sb.remove(act.trim.start, act.trim.end);
          return; // the next updateend continues with the queue
        } catch {
          /* append anyway */
        }
      }
    }
    let next = queue.shift();
    // A gap marker: report where the media after it starts (the end of what is appended).
    while (next && !(next instanceof ArrayBuffer)) {
      options.onGap?.(next, sb.buffered.length ? sb.buffered.end(sb.buffered.length - 1) : 0);
      next = queue.shift();
    }
    if (!next) return;
    try {
      sb.appendBuffer(next);
    } catch (err) {
      if ((err as Error).name === 'QuotaExceededError' && sb.buffered.length) {
        // Full: drop what is behind the playhead and try again.
        queue.unshift(next);
        const keepFrom = Math.max(sb.buffered.start(0), video.currentTime - 2);
        if (keepFrom > sb.buffered.start(0)) sb.remove(sb.buffered.start(0), keepFrom);
        else fail('closed', 'buffer full');
      } else {
        fail('fatal', (err as Error).message);
      }
    }
  }

  ws.onmessage = (e: MessageEvent) => {
    if (stopped) return;
    if (typeof e.data === 'string') {
      let msg: InitMessage | StateMessage | EndedMessage | GapMessage;
      try {
        msg = JSON.parse(e.data) as InitMessage | StateMessage | EndedMessage | GapMessage;
      } catch {
        return;
      }
      if (msg.type === 'init') onInit(msg);
      else if (msg.type === 'gap') {
        if (accepting) queue.push(msg);
        pump();
      }
      else if (msg.type === 'state' && (msg as EndedMessage).state === 'ended') {
        lastData = Date.now();
        options.onEnded?.();
      } else if (msg.type === 'state') {
        msg = msg as StateMessage;
        ingest = msg.state;
        lastData = Date.now();
        ev.onState(msg.state, msg.reason ?? '');
        if (msg.state === 'stopped') fail('closed', msg.reason || 'stopped');
      }
      return;
    }
    const data = e.data as ArrayBuffer;
    lastData = Date.now();
    ev.onBytes(data.byteLength);
    if (!accepting) return; // fragments before the first 'init' cannot be decoded
    queue.push(data);
    if (!playback && queue.length > MAX_QUEUE) {
      fail('closed', 'player fell behind');
      return;
    }
    pump();
  };
  ws.onclose = (e: CloseEvent) => fail('closed', e.reason || `WebSocket closed (${e.code})`);

  function stop() {
    if (stopped) return;
    stopped = true;
    clearInterval(watchdog);
    video.removeEventListener('error', onVideoError);
    ws.onmessage = null;
    ws.onclose = null;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close();
    releaseMedia();
    video.removeAttribute('src');
    video.load();
  }

  return { stop };
}
