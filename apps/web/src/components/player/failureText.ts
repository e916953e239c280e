/**
 * Why a player engine gave up, in the console's language (the live player and the playback page show
 * it under the picture). These are the console's own words — no data for a while, the socket closed,
 * the browser's decoder failed — plus the close reasons the server gives its media sockets, which
 * are protocol words ("stream not open", "playback session gone"): the known ones are said in the
 * console's language, any other by its close code. A browser's or a player library's error code
 * (MEDIA_ERR_DECODE, manifestLoadError) stays as written inside the sentence.
 */
import { reasonOfStoppedClose, streamReasonText, type Reason } from '@opencvr/shared';
import i18n, { currentLang } from '../../i18n';

const t = (key: string, vars?: Record<string, string | number>) => i18n.t(`player.failure.${key}`, vars);

/** The server's close reasons (routes/media: index.ts, flv.ts, playback.ts, token-expiry.ts; the playback sessions). */
const CLOSE_REASONS: Record<string, string> = {
  'stream not open': 'streamNotOpen',
  'play token expired': 'tokenExpired',
  'stream stopped': 'streamStopped',
  'playback session gone': 'playbackGone',
  'playback closed': 'playbackClosed',
};

/**
 * What a media socket's close means for the player: the server closes it at its play token's expiry
 * (routes/media/token-expiry.ts) with these words, and the player then opens again at once. So it
 * does when the stream stopped because it is no longer needed: a transcoded H.264 leg whose camera
 * sends H.264 again (streamOriginalNotHevc, in the stopped state message `why` or in the close
 * reason), where the next answer gives the camera's own stream; anything else is a failure.
 */
export const closeKind = (reason: string, why?: Reason): 'expired' | 'closed' =>
  reason === 'play token expired' || (why ?? reasonOfStoppedClose(reason))?.key === 'streamOriginalNotHevc' ? 'expired' : 'closed';

export const failureText = {
  /** Nothing arrived for `seconds`. */
  noMedia: (seconds: number) => t('noMedia', { seconds }),
  bufferFull: () => t('bufferFull'),
  fellBehind: () => t('fellBehind'),
  /** The server said the stream stopped without saying why. */
  stopped: () => t('stopped'),
  /** The browser could not decode: its own message or code. */
  media: (detail: string) => t('media', { detail }),
  /**
   * The media socket closed: a known server reason in the console's language — a WS-FLV stop's
   * catalogue reason, from its state message with the vars (`stateWhy`) or from the close reason
   * (stoppedCloseReason), as the WS-fMP4 state message gives it — else the close code.
   */
  closed: (code: number, reason: string, stateWhy?: Reason) => {
    const why = stateWhy ?? reasonOfStoppedClose(reason);
    if (why) return streamReasonText('', currentLang(), why);
    return CLOSE_REASONS[reason] ? t(CLOSE_REASONS[reason]) : t('closed', { code });
  },
  flvEnded: () => t('flvEnded'),
  /** An error of the FLV or HLS player library, by its code. */
  library: (player: 'FLV' | 'HLS', detail: string) => t('library', { player, detail }),
  /** The server refused the WebRTC offer without saying why. */
  whep: (status: number) => t('whep', { status }),
  /** The WebRTC connection ended ('failed' or 'closed'). */
  webrtc: (state: string) => t(state === 'failed' ? 'webrtcFailed' : 'webrtcClosed'),
};
