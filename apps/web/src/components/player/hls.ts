/**
 * HLS through hls.js (loaded only when needed, so it stays out of the main chunk) or natively (Safari).
 * A stream whose video this browser cannot decode (a camera back as H.265 while watched: the
 * server's playlist goes on with a new init after a discontinuity) is told as unsupported, as on
 * WS-fMP4, so the player asks again and plays the H.264 variant.
 */
import { playSafely, type Engine, type EngineEvents } from './engine';
import { failureText } from './failureText';

/** The video codec of a track's codecs ("mp4a.40.2,avc1.42C016" of a muxed track → "avc1.42C016"). */
export function videoCodec(codecs: string | undefined): string | undefined {
  const video = codecs?.split(',').map((c) => c.trim()).find((c) => /^(avc|hvc|hev|av01|vp0?[89])/i.test(c));
  return video;
}

export async function startHls(video: HTMLVideoElement, url: string, ev: EngineEvents): Promise<Engine> {
  const { default: Hls } = await import('hls.js');
  if (Hls.isSupported()) {
    const hls = new Hls({ lowLatencyMode: true, backBufferLength: 30, liveSyncDurationCount: 2 });
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
      if (!data.fatal) return;
      hls.destroy();
      ev.onFailure(data.type === Hls.ErrorTypes.NETWORK_ERROR ? 'closed' : 'fatal', failureText.library('HLS', data.details));
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
