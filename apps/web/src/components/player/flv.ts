/**
 * FLV over a WebSocket (the server's WS-FLV output) through mpegts.js, which remuxes FLV to fMP4 for
 * MSE. Loaded only when FLV is chosen (its own chunk), as hls.js is. mpegts.js chases the live edge
 * itself (liveSync: a faster playback rate past 1.5 s behind); its stash buffer is off for latency.
 * The socket is our loader's (flvSocketLoader), so a close by the server is told with its reason, as
 * the WS-fMP4 engine tells it, instead of mpegts.js's "loading complete".
 */
import type { Reason } from '@opencvr/shared';
import { playSafely, type Engine, type EngineEvents } from './engine';
import { closeKind, failureText } from './failureText';
import { flvSocketLoader } from './flvSocketLoader';

/** How often mpegts.js reports its download speed (ms); bytes are reported from it. */
const STATS_MS = 1000;

export async function startFlv(video: HTMLVideoElement, url: string, ev: EngineEvents): Promise<Engine> {
  const { default: mpegts } = await import('mpegts.js');
  if (!mpegts.getFeatureList().mseLivePlayback) throw new Error('FLV needs MediaSource live playback');
  mpegts.LoggingControl.applyConfig({ enableAll: false, enableError: true, enableWarn: false, enableInfo: false, enableDebug: false, enableVerbose: false });
  let stopped = false;
  let playing = false;
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
      customLoader: flvSocketLoader(onClose),
    },
  );
  const stop = () => {
    if (stopped) return;
    stopped = true;
    video.removeEventListener('playing', onPlaying);
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
