/**
 * WebSocket fMP4 → MSE (the server's ws-fmp4 output): text frames {type:'init', mime, tracks} and
 * {type:'state', state, reason, code, vars} (LiveStateMessage: code and vars the catalogue reason,
 * rendered in the console's language); binary frames: the init segment after each 'init', then moof+mdat
 * fragments. An 'init' whose timeline continues (`continues`: a live camera that came back, maybe
 * with another picture size; a recording's camera that changed its size or frame rate) is appended
 * to the same SourceBuffer where one can take it (initSwitch.ts: same codec family, `changeType` for
 * a new codec string), so the picture runs on without a black flash or a new start-up; any other
 * 'init' (a timeline that starts anew, H.264 <-> H.265, a browser that refuses changeType) gets a
 * fresh MediaSource and SourceBuffer, played from where its media starts. Live, the server sends a fragment per frame (and per audio frame), 25-75 a second:
 * what arrives while the SourceBuffer is busy is queued and appended in one appendBuffer once it is
 * free, so a busy page makes fewer, larger appends instead of falling behind. After each append the
 * live-edge rule may jump, change the rate or trim the buffer so memory stays flat.
 *
 * Start-up: the first media is the server's cached GOP, which starts on a keyframe up to a GOP
 * before live. The player shows that keyframe at once (plays from the start of the buffer) and only
 * then lets the live-edge rule jump: a jump into the middle of a GOP makes the decoder go through
 * every frame since the keyframe before anything is shown.
 *
 * With `playback` (recordings) the same protocol carries a time range: no live-edge chase, no stall
 * watchdog (a paused recording receives nothing), only the media behind the playhead is trimmed,
 * and {type:'gap'} / {type:'state', state:'ended'} are passed on.
 */
import { reasonOfState, streamReasonText } from '@opencvr/shared';
import type { IngestState } from './api';
import { currentLang } from '../../i18n';
import { playSafely, type Engine, type EngineEvents } from './engine';
import { AppendQueue } from './appendQueue';
import { closeKind, failureText } from './failureText';
import { liveEdge, rangesOf, type EdgeActions } from './liveEdge';
import { initSwitch } from './initSwitch';
import { isHevc } from './transport';

/** More queued media than this (bytes) means the page cannot keep up: start over at live. */
const MAX_QUEUE_BYTES = 32 * 1024 * 1024;
/** Live: the live-edge rule waits this long at most for the first frame to be shown. */
const FIRST_FRAME_WAIT_MS = 3000;
/** One append takes at most this much of the queue (bytes), so a remove or a jump can come between. */
const MAX_APPEND_BYTES = 4 * 1024 * 1024;
/** No media for this long while the camera is said to be live: the connection is dead. */
const STALL_MS = 10_000;

interface InitMessage {
  type: 'init';
  mime: string;
  tracks?: { kind: string; codec?: string; codecString?: string; width?: number; height?: number }[];
  /** The media that follows runs on the same timeline as before (a camera back, a recording's next part). */
  continues?: boolean;
}
/** In the queue where a continuing init segment starts: the SourceBuffer takes `mime` from there. */
interface SwitchMarker {
  type: 'switch';
  mime: string;
}
interface StateMessage {
  type: 'state';
  /** 'unsupported': the stream has no track MSE plays (G.711 audio only): another transport may. */
  state: IngestState | 'unsupported';
  reason?: string;
  code?: string;
  vars?: Record<string, string | number>;
  /** A playback's H.264 socket: whether the server transcodes (a device's H.264 passes through). */
  transcoded?: boolean;
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
  /** A playback's H.264 socket said whether the server transcodes the video. */
  onTranscoded?: (transcoded: boolean) => void;
}

/** MediaError codes (HTMLMediaElement; named here since jsdom and tests have no MediaError). */
const MEDIA_ERR_DECODE = 3;
const MEDIA_ERR_SRC_NOT_SUPPORTED = 4;

/** Seconds of played media a recording keeps behind the playhead. */
const PLAYBACK_KEEP_BEHIND = 30;

export function startWsFmp4(video: HTMLVideoElement, url: string, ev: EngineEvents, options: WsFmp4Options = {}): Engine {
  const playback = options.playback === true;
  let stopped = false;
  let source: MediaSource | null = null;
  let buffer: SourceBuffer | null = null;
  let objectUrl = '';
  const queue = new AppendQueue<GapMessage | SwitchMarker>();
  /** The MIME type of the last init taken (what the SourceBuffer plays once the queue got there). */
  let mime: string | undefined;
  /** The MIME type the SourceBuffer was made with or changed to. */
  let bufferMime: string | undefined;
  let accepting = false;
  let playing = false;
  /** Live: the first frame has been shown, so the live-edge rule may jump (see the top comment). */
  let shown = false;
  /** Counts MediaSources, so a late first-frame callback of an old one is ignored. */
  let mediaGeneration = 0;
  let firstFrameTimer: ReturnType<typeof setTimeout> | undefined;
  let markShown: () => void = () => undefined;
  let ingest: IngestState | '' = '';
  let lastData = Date.now();

  // The MediaSource is attached while the WebSocket connects: the element's opening of it (some
  // tens of ms on a busy machine) overlaps the handshake instead of following the 'init' message.
  let unused = typeof window.MediaSource === 'function';
  if (unused) openSource();
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';

  const fail = (kind: 'closed' | 'fatal' | 'expired', reason: string) => {
    if (stopped) return;
    stop();
    ev.onFailure(kind, reason);
  };

  /**
   * H.265 that this browser said it could play (isTypeSupported) but cannot: an addSourceBuffer
   * refused, or the element's decode error. Told as unsupported, like a refused isTypeSupported, so
   * the player goes to the server's H.264 leg (some browsers answer for the codec string, not for
   * the decoder the platform actually has). Other codecs and other errors stay failures.
   */
  const undecodable = (type: string | undefined) => {
    if (stopped || !type || !isHevc(type)) return false;
    stop();
    ev.onUnsupported(type);
    return true;
  };

  const onVideoError = () => {
    const e = video.error;
    if (!e) return;
    if ((e.code === MEDIA_ERR_DECODE || e.code === MEDIA_ERR_SRC_NOT_SUPPORTED) && undecodable(bufferMime ?? mime)) return;
    fail('fatal', failureText.media(e.message || String(e.code)));
  };
  video.addEventListener('error', onVideoError);

  const watchdog = setInterval(() => {
    if (playback) return;
    if (ingest === 'retrying' || ingest === 'connecting') return;
    if (Date.now() - lastData > STALL_MS) fail('closed', failureText.noMedia(STALL_MS / 1000));
  }, 2000);

  /** `keepQueue`: what waits for the SourceBuffer goes to the next one (a refused changeType). */
  function releaseMedia({ keepQueue = false }: { keepQueue?: boolean } = {}) {
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
    if (!keepQueue) queue.clear();
  }

  /**
   * The first frame is on screen: from now on the live edge may be chased. A hidden page presents no
   * frames, so after FIRST_FRAME_WAIT_MS the rule applies anyway (the buffer must not grow unchased).
   */
  function watchFirstFrame() {
    shown = false;
    const generation = ++mediaGeneration;
    const mark = () => {
      if (generation !== mediaGeneration || shown) return;
      shown = true;
      pump();
    };
    const v = video as Partial<HTMLVideoElement>;
    if (typeof v.requestVideoFrameCallback === 'function') video.requestVideoFrameCallback(mark);
    else video.addEventListener('playing', mark, { once: true });
    return mark;
  }

  function onInit(msg: InitMessage) {
    const video0 = msg.tracks?.find((t) => t.kind === 'video');
    ev.onInfo({ mime: msg.mime, codec: video0?.codecString ?? video0?.codec, width: video0?.width, height: video0?.height });
    if (!window.MediaSource.isTypeSupported(msg.mime)) {
      stop();
      ev.onUnsupported(msg.mime);
      return;
    }
    const how = accepting && buffer ? initSwitch(mime, msg, typeof buffer.changeType === 'function') : 'restart';
    mime = msg.mime;
    if (how !== 'restart') {
      // The init segment that follows goes to the same SourceBuffer, in its place in the queue.
      queue.push({ type: 'switch', mime: msg.mime });
      pump();
      return;
    }
    const reuse = source !== null && unused;
    if (!reuse) releaseMedia();
    unused = false;
    accepting = true;
    freshSource(msg.mime, reuse && source ? source : openSource());
  }

  /** Plays `type` from a new SourceBuffer of `ms` (a MediaSource just attached), what is queued first. */
  function freshSource(type: string, ms: MediaSource) {
    playing = false;
    clearTimeout(firstFrameTimer);
    firstFrameTimer = undefined;
    if (!playback) markShown = watchFirstFrame();
    const attach = () => {
      if (stopped || source !== ms) return;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      objectUrl = '';
      try {
        const sb = ms.addSourceBuffer(type);
        sb.mode = 'segments';
        sb.addEventListener('updateend', pump);
        buffer = sb;
        bufferMime = type;
      } catch (err) {
        if ((err as Error).name === 'NotSupportedError' && undecodable(type)) return;
        fail('fatal', (err as Error).message);
        return;
      }
      pump();
    };
    if (ms.readyState === 'open') attach();
    else ms.addEventListener('sourceopen', attach, { once: true });
  }

  /**
   * The queue reached a continuing init (a SwitchMarker): the SourceBuffer takes the new codec string
   * (changeType) where it changed. False: the browser refused, so a fresh MediaSource takes the
   * rest of the queue (the new init segment first), at the same media times.
   */
  function switchTo(sb: SourceBuffer, type: string): boolean {
    if (type === bufferMime) return true;
    try {
      sb.changeType(type);
      bufferMime = type;
      return true;
    } catch {
      releaseMedia({ keepQueue: true });
      freshSource(type, openSource());
      return false;
    }
  }

  /** A new MediaSource attached to the video element (it opens a little later: 'sourceopen'). */
  function openSource(): MediaSource {
    const ms = new MediaSource();
    source = ms;
    objectUrl = URL.createObjectURL(ms);
    video.src = objectUrl;
    return ms;
  }

  function pump() {
    const sb = buffer;
    if (stopped || !sb || sb.updating) return;
    if (sb.buffered.length) {
      if (!playing) {
        playing = true;
        ev.onPlaying();
        // Start where the media starts (a recording's own timestamps; live: the GOP's keyframe).
        if (video.currentTime < sb.buffered.start(0)) video.currentTime = sb.buffered.start(0);
        playSafely(video);
        if (!playback) firstFrameTimer = setTimeout(markShown, FIRST_FRAME_WAIT_MS);
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
      const act: EdgeActions = playback || !shown ? {} : liveEdge({ ranges: rangesOf(sb.buffered), currentTime: video.currentTime, playbackRate: video.playbackRate });
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
    // A gap marker: report where the media after it starts (the end of what is appended).
    for (let marker = queue.takeMarker(); marker; marker = queue.takeMarker()) {
      if (marker.type === 'switch') {
        if (!switchTo(sb, marker.mime)) return;
        // Live: the camera's media plays again once appended, said as at a start (onPlaying), which
        // ends the player's "reconnecting" as a fresh MediaSource's first media did.
        if (!playback) playing = false;
      } else options.onGap?.(marker, sb.buffered.length ? sb.buffered.end(sb.buffered.length - 1) : 0);
    }
    const next = queue.takeMedia(MAX_APPEND_BYTES);
    if (!next) return;
    try {
      sb.appendBuffer(next);
    } catch (err) {
      if ((err as Error).name === 'QuotaExceededError' && sb.buffered.length) {
        // Full: drop what is behind the playhead and try again.
        queue.unshift(next);
        const keepFrom = Math.max(sb.buffered.start(0), video.currentTime - 2);
        if (keepFrom > sb.buffered.start(0)) sb.remove(sb.buffered.start(0), keepFrom);
        else fail('closed', failureText.bufferFull());
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
        const state = msg as StateMessage;
        lastData = Date.now();
        const why = reasonOfState(state);
        const said = streamReasonText(state.reason ?? '', currentLang(), why);
        if (state.state === 'unsupported') {
          fail('fatal', said);
          return;
        }
        ingest = state.state;
        if (typeof state.transcoded === 'boolean') options.onTranscoded?.(state.transcoded);
        ev.onState(state.state, state.reason ?? '', why);
        // A transcoded leg that is no longer needed (its camera sends H.264 again) is no failure: the
        // player asks for the stream again at once and gets the camera's own (closeKind).
        if (state.state === 'stopped') fail(closeKind('', why), said || failureText.stopped());
      }
      return;
    }
    const data = e.data as ArrayBuffer;
    lastData = Date.now();
    ev.onBytes(data.byteLength);
    if (!accepting) return; // fragments before the first 'init' cannot be decoded
    queue.push(data);
    if (!playback && queue.bytes > MAX_QUEUE_BYTES) {
      fail('closed', failureText.fellBehind());
      return;
    }
    pump();
  };
  ws.onclose = (e: CloseEvent) => fail(closeKind(e.reason), failureText.closed(e.code, e.reason));

  function stop() {
    if (stopped) return;
    stopped = true;
    clearInterval(watchdog);
    clearTimeout(firstFrameTimer);
    mediaGeneration++;
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
