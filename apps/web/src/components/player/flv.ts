/**
 * FLV over a WebSocket (the server's WS-FLV output) through mpegts.js, which remuxes FLV to fMP4 for
 * MSE. Loaded only when FLV is chosen (its own chunk), as hls.js is. mpegts.js chases the live edge
 * itself (liveSync: a faster playback rate past 1.5 s behind); its stash buffer is off for latency.
 * The socket is our loader's (flvSocketLoader), so a close by the server is told with its reason, as
 * the WS-fMP4 engine tells it, instead of mpegts.js's "loading complete", and so is the camera's
 * state while the socket stays open: a camera that is away (retrying with its reason) is told as on
 * WS-fMP4, and its media playing again once it is back is told as a start (onPlaying) — the picture
 * has moved past where it froze — which ends the player's "reconnecting" without a new socket.
 */
import type { Reason } from '@opencvr/shared';
import { playSafely, type Engine, type EngineEvents } from './engine';
import { closeKind, failureText } from './failureText';
import { flvSocketLoader, type OnSocketState } from './flvSocketLoader';

/** How often mpegts.js reports its download speed (ms); bytes are reported from it. */
const STATS_MS = 1000;
/**
 * How far past the end of the media it had when the camera went away the playhead must move to count
 * as the camera's media playing again: more than the one picture mpegts.js may hold back from a batch.
 */
export const RESUMED_PAST_S = 0.25;

/** The end of what the element has buffered (0: nothing). */
const bufferedEnd = (video: HTMLVideoElement) => (video.buffered.length ? video.buffered.end(video.buffered.length - 1) : 0);

export async function startFlv(video: HTMLVideoElement, url: string, ev: EngineEvents): Promise<Engine> {
  const { default: mpegts } = await import('mpegts.js');
  if (!mpegts.getFeatureList().mseLivePlayback) throw new Error('FLV needs MediaSource live playback');
  mpegts.LoggingControl.applyConfig({ enableAll: false, enableError: true, enableWarn: false, enableInfo: false, enableDebug: false, enableVerbose: false });
  let stopped = false;
  let playing = false;
  /** While the camera is away (a retrying or connecting state after media): where its media ended. */
  let frozenAt: number | undefined;
  const onState: OnSocketState = (state, reason, why) => {
    if (stopped) return;
    if ((state === 'retrying' || state === 'connecting') && playing) frozenAt = Math.max(frozenAt ?? 0, bufferedEnd(video));
    ev.onState(state, reason, why);
  };
  const onTime = () => {
    if (stopped || frozenAt === undefined || video.currentTime <= frozenAt + RESUMED_PAST_S) return;
    frozenAt = undefined;
    ev.onPlaying();
  };
  const onClose = (code: number, reason: string, why?: Reason) => {
    if (stopped) return;
    stop();
    ev.onFailure(closeKind(reason, why), failureText.closed(code, reason, why));
  };
  const player = mpegts.createPlayer(
    { type: 'flv', isLive: true, url },
    {
      enableWorker: false,
      enableStashBuffer: false,
      lazyLoad: false,
      liveSync: true,
      liveSyncMaxLatency: 1.5,
      liveSyncTargetLatency: 0.6,
      autoCleanupSourceBuffer: true,
      statisticsInfoReportInterval: STATS_MS,
      customLoader: flvSocketLoader(onClose, onState),
    },
  );
  const stop = () => {
    if (stopped) return;
    stopped = true;
    video.removeEventListener('playing', onPlaying);
    video.removeEventListener('timeupdate', onTime);
    try {
      player.pause();
      player.unload();
      player.detachMediaElement();
    } catch {
      /* tearing down anyway */
    }
    player.destroy();
  };
  const onPlaying = () => {
    if (playing || stopped) return;
    playing = true;
    ev.onPlaying();
  };
  video.addEventListener('playing', onPlaying);
  video.addEventListener('timeupdate', onTime);
  player.on(mpegts.Events.MEDIA_INFO, (info: { mimeType?: string; videoCodec?: string; width?: number; height?: number }) => {
    if (stopped) return;
    if (info.mimeType && !window.MediaSource.isTypeSupported(info.mimeType.replace(/^video\/x-flv/, 'video/mp4'))) {
      stop();
      ev.onUnsupported(info.mimeType);
      return;
    }
    ev.onInfo({ codec: info.videoCodec, width: info.width, height: info.height, mime: info.mimeType });
  });
  player.on(mpegts.Events.STATISTICS_INFO, (s: { speed?: number }) => {
    if (!stopped && s.speed) ev.onBytes(Math.round(s.speed * 1024 * (STATS_MS / 1000)));
  });
  player.on(mpegts.Events.ERROR, (type: string, detail: string) => {
    if (stopped) return;
    stop();
    ev.onFailure(type === mpegts.ErrorTypes.NETWORK_ERROR ? 'closed' : 'fatal', failureText.library('FLV', detail || type));
  });
  player.on(mpegts.Events.LOADING_COMPLETE, () => {
    if (stopped) return;
    stop();
    ev.onFailure('closed', failureText.flvEnded());
  });
  player.attachMediaElement(video);
  player.load();
  playSafely(video);
  return { stop };
}
