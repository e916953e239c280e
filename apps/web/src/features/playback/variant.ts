/**
 * Which socket a playback plays: an H.265 recording comes with its H.264 leg (URLs.WS_FMP4_H264,
 * transcoded by the server, named as live's variants), played where MSE cannot decode H.265 (known
 * beforehand from the live player's capability test, or learnt from a first try: `force`). Elsewhere
 * the recording goes as stored (the plain URL), so the server transcodes only for such browsers.
 */
import { h264Variant, type Capabilities } from '../../components/player/transport';
import type { PlaybackAnswer } from './api';

export interface PlaybackChoice {
  url: string;
  /** The H.264 leg: the player says the server transcodes (playback.transcoded). */
  transcoded: boolean;
  /** There is an H.264 leg to fall back to (the recording is H.265). */
  hasVariant: boolean;
}

export function choosePlaybackUrl(answer: Pick<PlaybackAnswer, 'URL' | 'URLs'>, caps: Pick<Capabilities, 'hevc'>, force = false): PlaybackChoice {
  const h264 = h264Variant(answer.URLs ?? {})?.WS_FMP4;
  const transcoded = !!h264 && (force || caps.hevc === false);
  return { url: transcoded ? h264! : answer.URL, transcoded, hasVariant: !!h264 };
}
