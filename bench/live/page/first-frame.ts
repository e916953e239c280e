/**
 * The page of the first-frame part (bundled by esbuild, served on the server's origin by Playwright):
 * the console's own WS-fMP4 player engine (apps/web/src/components/player/wsFmp4.ts) without React.
 * window.benchFirstFrame(device, token[, urlName]) calls getchannelstream, plays the WS-fMP4 URL it
 * answers (URLs.WS_FMP4, or the one named: WS_FMP4_H264 for an H.265 channel's H.264 leg) into a
 * <video>, and resolves with the milliseconds from the call to the first frame the browser has
 * decoded and presented (requestVideoFrameCallback).
 */
import { startWsFmp4 } from '../../../apps/web/src/components/player/wsFmp4';

interface Answer {
  EasyDarwin: { Body: { URLs: Record<string, string> } };
}

/** Milliseconds from the getchannelstream call to each step (undefined: not reached). */
interface FirstFrameSample {
  /** The first frame presented (requestVideoFrameCallback's presentationTime). */
  ms: number;
  /** getchannelstream answered. */
  answerMs: number;
  /** The first media bytes (the init segment) arrived on the WebSocket. */
  firstBytesMs?: number;
  /** The first append made media buffered (the engine's onPlaying). */
  bufferedMs?: number;
}

declare global {
  interface Window {
    benchFirstFrame(device: string, token: string, urlName?: string): Promise<FirstFrameSample>;
  }
}

window.benchFirstFrame = async (device, token, urlName = 'WS_FMP4') => {
  const video = document.createElement('video');
  video.muted = true;
  video.autoplay = true;
  video.playsInline = true;
  document.body.append(video);
  const t0 = performance.now();
  const res = await fetch(`/api/v1/getchannelstream?device=${encodeURIComponent(device)}&channel=1&protocol=ws_m4s`, { headers: { token } });
  if (!res.ok) throw new Error(`getchannelstream answered ${res.status}`);
  const answer = (await res.json()) as Answer;
  const answerMs = performance.now() - t0;
  const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${answer.EasyDarwin.Body.URLs[urlName]}`;
  let firstBytesMs: number | undefined;
  let bufferedMs: number | undefined;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      engine.stop();
      reject(new Error('no decoded frame in 20 s'));
    }, 20_000);
    const engine = startWsFmp4(video, url, {
      onInfo: () => undefined,
      onState: () => undefined,
      onBytes: () => {
        firstBytesMs ??= performance.now() - t0;
      },
      onPlaying: () => {
        bufferedMs ??= performance.now() - t0;
      },
      onUnsupported: (mime) => reject(new Error(`unsupported ${mime}`)),
      onFailure: (_kind, reason) => reject(new Error(reason)),
    });
    // presentationTime: when the decoded frame was handed to the compositor.
    video.requestVideoFrameCallback((_now, meta) => {
      const ms = meta.presentationTime - t0;
      clearTimeout(timer);
      engine.stop();
      video.remove();
      resolve({ ms, answerMs, firstBytesMs, bufferedMs });
    });
  });
};
