/**
 * HLS through hls.js (loaded only when needed, so it stays out of the main chunk) or natively (Safari).
 * A stream whose video this browser cannot decode (a camera back as H.265 while watched: the
 * server's playlist goes on with a new init after a discontinuity) is told as unsupported, as on
 * WS-fMP4, so the player asks again and plays the H.264 variant. A stream whose hub stopped answers
 * 410 with why in STREAM_STOPPED_HEADER: said at once, as a socket's close reason is, so the end of a
 * transcoded leg whose camera is H.264 again opens the camera's own stream without waiting.
 */
import type { HlsConfig } from 'hls.js';
import { STREAM_STOPPED_HEADER } from '@opencvr/shared';
import { playSafely, type Engine, type EngineEvents } from './engine';
import { closeKind, failureText } from './failureText';

/** The video codec of a track's codecs ("mp4a.40.2,avc1.42C016" of a muxed track → "avc1.42C016"). */
export function videoCodec(codecs: string | undefined): string | undefined {
  const video = codecs?.split(',').map((c) => c.trim()).find((c) => /^(avc|hvc|hev|av01|vp0?[89])/i.test(c));
  return video;
}

/**
 * The server's words for a stopped stream (STREAM_STOPPED_HEADER) on a failed request of hls.js: its
 * error's response code and the XMLHttpRequest it gives as networkDetails.
 */
export function stoppedWords(data: { response?: { code?: number }; networkDetails?: unknown }): string | undefined {
  if (data.response?.code !== 410) return undefined;
  const xhr = data.networkDetails as { getResponseHeader?: (name: string) => string | null } | undefined;
  return (typeof xhr?.getResponseHeader === 'function' && xhr.getResponseHeader(STREAM_STOPPED_HEADER)) || undefined;
}

/**
 * The player's hls.js settings. How far behind live it plays is the playlist's: PART-HOLD-BACK of the
 * server's LL-HLS (3 part targets, 1.5 s), else HOLD-BACK, else hls.js's 3 target durations (RFC 8216's
 * least for a playlist without parts). No liveSyncDuration(Count) here: hls.js takes either, when
 * given, over the playlist's hold-back, and `liveSyncDurationCount: 2` held an LL-HLS viewer two
 * 2 s segments (~3.8 s) behind live instead of 1.5 s (session 26).
 */
export const HLS_CONFIG = { lowLatencyMode: true, backBufferLength: 30 } as const satisfies Partial<HlsConfig>;

export async function startHls(video: HTMLVideoElement, url: string, ev: EngineEvents): Promise<Engine> {
  const { default: Hls } = await import('hls.js');
  if (Hls.isSupported()) {
    const hls = new Hls(HLS_CONFIG);
    let playing = false;
    let stopped = false;
    hls.on(Hls.Events.MANIFEST_PARSED, (_e, data) => {
      const level = data.levels[0];
      if (level) ev.onInfo({ codec: level.videoCodec, width: level.width, height: level.height });
      playSafely(video);
    });
    // The server's playlist is a media playlist (no CODECS, no RESOLUTION): the codec comes from the
    // init segment and the size from the decoded video, else the toolbar shows neither.
    hls.on(Hls.Events.BUFFER_CODECS, (_e, data) => {
      const codec = videoCodec(data.video?.codec ?? data.audiovideo?.codec);
      if (stopped) return;
      // A codec this browser cannot decode (a camera back as H.265 while watched): hls.js would reset
      // its MediaSource over and over (mediaSourceRequiresReset, ~10 s here) before giving up. Said at
      // once, the player asks again and plays the H.264 variant the server now offers.
      const mime = codec ? `video/mp4; codecs="${codec}"` : '';
      if (mime && !MediaSource.isTypeSupported(mime)) {
        stop();
        ev.onUnsupported(mime);
        return;
      }
      if (codec) ev.onInfo({ codec });
    });
    const onSize = () => {
      if (video.videoWidth) ev.onInfo({ width: video.videoWidth, height: video.videoHeight });
    };
    video.addEventListener('resize', onSize);
    hls.on(Hls.Events.FRAG_LOADED, (_e, data) => {
      // LL-HLS: one FRAG_LOADED per part, with the fragment's stats growing by each part: a part counts its own.
      ev.onBytes((data.part ?? data.frag).stats.loaded);
      if (!playing) {
        playing = true;
        ev.onPlaying();
      }
    });
    hls.on(Hls.Events.ERROR, (_e, data) => {
      // A stopped stream is told at its first answer: hls.js retries even a 4xx of the playlist of a
      // stream with one level (twice, after 1 and 2 s) before the error is fatal.
      const stopped = stoppedWords(data);
      if (!data.fatal && !stopped) return;
      hls.destroy();
      if (stopped) ev.onFailure(closeKind(stopped), failureText.closed(410, stopped));
      else ev.onFailure(data.type === Hls.ErrorTypes.NETWORK_ERROR ? 'closed' : 'fatal', failureText.library('HLS', data.details));
    });
    const stop = () => {
      if (stopped) return;
      stopped = true;
      video.removeEventListener('resize', onSize);
      hls.destroy();
      video.removeAttribute('src');
      video.load();
    };
    hls.loadSource(url);
    hls.attachMedia(video);
    return { stop };
  }
  // No MSE: the element plays HLS itself.
  const onPlaying = () => ev.onPlaying();
  const onError = () => ev.onFailure('closed', failureText.media(video.error?.message || String(video.error?.code ?? '')));
  video.addEventListener('playing', onPlaying, { once: true });
  video.addEventListener('error', onError, { once: true });
  video.src = url;
  playSafely(video);
  return {
    stop: () => {
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('error', onError);
      video.removeAttribute('src');
      video.load();
    },
  };
}
