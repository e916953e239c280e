/**
 * The live drift soak's probe (bench/live/drift.ts), injected into the console's own player page
 * before its scripts run (bundled by esbuild, addInitScript). It only watches; the player is the
 * console's, untouched:
 *
 * - every WebSocket's binary messages are walked as fMP4 (init: each track's timescale and handler;
 *   fragments: tfdt + trun durations of the video track), so `sentEnd` is the media time of the end
 *   of the newest video the server delivered to the page, in the same timeline MSE uses (the player
 *   appends in 'segments' mode without an offset), and `framesSent` counts its samples;
 * - the <video> element's presented frames (requestVideoFrameCallback: mediaTime of the last frame
 *   on screen), 'waiting' → 'playing' stalls, 'seeking' events (the chase's jumps) and 'ratechange'.
 *
 * window.__liveDrift.sample() returns one reading; drift.ts calls it every few seconds.
 */
import type { DriftReading } from '../drift-reading';

interface TrackInfo {
  timescale: number;
  video: boolean;
}


const state = {
  tracks: new Map<number, TrackInfo>(),
  sentEnd: NaN,
  framesSent: 0,
  shownMediaTime: NaN,
  shownAt: NaN,
  presentedFrames: 0,
  counterResets: 0,
  waiting: 0,
  stalledMs: 0,
  stallFrom: NaN,
  seeks: 0,
  rateChanges: 0,
};

const fourcc = (b: DataView, at: number) =>
  String.fromCharCode(b.getUint8(at), b.getUint8(at + 1), b.getUint8(at + 2), b.getUint8(at + 3));

/** Calls `fn(type, start, end)` for each box in [from, to) (payload from start to end). */
function boxes(b: DataView, from: number, to: number, fn: (type: string, start: number, end: number) => void) {
  let at = from;
  while (at + 8 <= to) {
    let size = b.getUint32(at);
    let head = 8;
    if (size === 1 && at + 16 <= to) {
      size = Number(b.getBigUint64(at + 8));
      head = 16;
    }
    if (size < head || at + size > to) return;
    fn(fourcc(b, at + 4), at + head, at + size);
    at += size;
  }
}

function readInit(b: DataView) {
  boxes(b, 0, b.byteLength, (t, s, e) => {
    if (t !== 'moov') return;
    boxes(b, s, e, (t2, s2, e2) => {
      if (t2 !== 'trak') return;
      let id = 0;
      let timescale = 0;
      let video = false;
      boxes(b, s2, e2, (t3, s3, e3) => {
        if (t3 === 'tkhd') id = b.getUint32(s3 + (b.getUint8(s3) === 1 ? 20 : 12));
        if (t3 !== 'mdia') return;
        boxes(b, s3, e3, (t4, s4) => {
          if (t4 === 'mdhd') timescale = b.getUint32(s4 + (b.getUint8(s4) === 1 ? 20 : 12));
          if (t4 === 'hdlr') video = fourcc(b, s4 + 8) === 'vide';
        });
      });
      if (id && timescale) state.tracks.set(id, { timescale, video });
    });
  });
}

function readFragment(b: DataView) {
  boxes(b, 0, b.byteLength, (t, s, e) => {
    if (t !== 'moof') return;
    boxes(b, s, e, (t2, s2, e2) => {
      if (t2 !== 'traf') return;
      let track: TrackInfo | undefined;
      let defaultDuration = 0;
      let base = NaN;
      let duration = 0;
      let samples = 0;
      boxes(b, s2, e2, (t3, s3) => {
        if (t3 === 'tfhd') {
          const flags = b.getUint32(s3) & 0xffffff;
          track = state.tracks.get(b.getUint32(s3 + 4));
          let at = s3 + 8;
          if (flags & 0x1) at += 8;
          if (flags & 0x2) at += 4;
          if (flags & 0x8) defaultDuration = b.getUint32(at);
        } else if (t3 === 'tfdt') {
          base = b.getUint8(s3) === 1 ? Number(b.getBigUint64(s3 + 4)) : b.getUint32(s3 + 4);
        } else if (t3 === 'trun') {
          const flags = b.getUint32(s3) & 0xffffff;
          const count = b.getUint32(s3 + 4);
          let at = s3 + 8;
          if (flags & 0x1) at += 4;
          if (flags & 0x4) at += 4;
          const per = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length * 4;
          for (let i = 0; i < count; i++) {
            duration += flags & 0x100 ? b.getUint32(at) : defaultDuration;
            at += per;
          }
          samples += count;
        }
      });
      if (!track?.video || Number.isNaN(base)) return;
      const end = (base + duration) / track.timescale;
      // A new timeline (a fresh init after the camera came back) may start lower: take it as it is.
      state.sentEnd = end;
      state.framesSent += samples;
    });
  });
}

function onMessage(e: MessageEvent) {
  if (!(e.data instanceof ArrayBuffer)) return;
  const b = new DataView(e.data);
  if (b.byteLength < 8) return;
  try {
    const first = fourcc(b, 4);
    if (first === 'ftyp' || first === 'moov') readInit(b);
    else readFragment(b);
  } catch {
    /* not fMP4 (another socket's binary): ignored */
  }
}

const NativeWebSocket = window.WebSocket;
class WatchedWebSocket extends NativeWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    this.addEventListener('message', onMessage);
  }
}
window.WebSocket = WatchedWebSocket;

const watched = new WeakSet<HTMLVideoElement>();
// meta.presentedFrames counts from the element's current media player: a new MediaSource (the
// player's reconnect) or a new <video> starts it again from 0, so a drop adds what was counted
// before it (the 60-min soak of session 20 read 0.033 presented per received without this).
let counted = 0;
let last = 0;
function watchFrames(video: HTMLVideoElement) {
  if (watched.has(video) || typeof video.requestVideoFrameCallback !== 'function') return;
  watched.add(video);
  const onFrame: VideoFrameRequestCallback = (now, meta) => {
    state.shownMediaTime = meta.mediaTime;
    state.shownAt = now;
    if (meta.presentedFrames < last) {
      counted += last;
      state.counterResets++;
    }
    last = meta.presentedFrames;
    state.presentedFrames = counted + last;
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
}

const isVideo = (t: EventTarget | null): t is HTMLVideoElement => t instanceof HTMLVideoElement;
window.addEventListener(
  'waiting',
  (e) => {
    if (!isVideo(e.target) || !Number.isNaN(state.stallFrom)) return;
    state.waiting++;
    state.stallFrom = performance.now();
  },
  true,
);
const stallEnds = (e: Event) => {
  if (!isVideo(e.target) || Number.isNaN(state.stallFrom)) return;
  state.stalledMs += performance.now() - state.stallFrom;
  state.stallFrom = NaN;
};
window.addEventListener('playing', stallEnds, true);
window.addEventListener('emptied', stallEnds, true);
window.addEventListener('seeking', (e) => isVideo(e.target) && state.seeks++, true);
window.addEventListener('ratechange', (e) => isVideo(e.target) && state.rateChanges++, true);
window.addEventListener('play', (e) => isVideo(e.target) && watchFrames(e.target), true);
window.addEventListener('loadeddata', (e) => isVideo(e.target) && watchFrames(e.target), true);

function sample(): DriftReading | null {
  const video = document.querySelector('video');
  if (!video) return null;
  watchFrames(video);
  const r = video.buffered;
  const q = video.getVideoPlaybackQuality();
  const now = performance.now();
  const memory = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory;
  return {
    at: now,
    currentTime: video.currentTime,
    playbackRate: video.playbackRate,
    bufStart: r.length ? r.start(0) : NaN,
    bufEnd: r.length ? r.end(r.length - 1) : NaN,
    sentEnd: state.sentEnd,
    framesSent: state.framesSent,
    shownMediaTime: state.shownMediaTime,
    shownAt: state.shownAt,
    presentedFrames: state.presentedFrames,
    counterResets: state.counterResets,
    totalVideoFrames: q.totalVideoFrames,
    droppedVideoFrames: q.droppedVideoFrames,
    waiting: state.waiting,
    stalledMs: state.stalledMs + (Number.isNaN(state.stallFrom) ? 0 : now - state.stallFrom),
    seeks: state.seeks,
    rateChanges: state.rateChanges,
    heap: memory?.usedJSHeapSize ?? NaN,
  };
}

(window as unknown as { __liveDrift: { sample: typeof sample } }).__liveDrift = { sample };
