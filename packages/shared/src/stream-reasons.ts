/**
 * Why a live stream is not playing, in the reader's language. Each source of a hub says it where it
 * fails, twice: in its own words (the hub's reason, which the log keeps: "connection refused",
 * "DESCRIBE: 404 Not Found") and as a catalogue reason (the hub's `why`: streamRefused,
 * streamAnswered {method, status, phrase}), so nothing has to read English back into a reason. The
 * server answers getchannelstream's Reason and the streamstat socket with the reason rendered, and
 * sends its code and vars on the live WS-fMP4 socket (LiveStateMessage) for the console to render.
 */
import { REASONS, isReasonKey, reason, type Lang, type Reason, type ReasonKey } from './messages.js';

/** The catalogue's texts without {vars}, by their English: words that already are a catalogue text. */
let byEnglish: Map<string, ReasonKey> | undefined;

/**
 * The reason in `lang`; words that came without one are shown as written (a detail an administrator
 * can search for), unless they are a catalogue text in English, which is rendered in `lang` too.
 */
export function streamReasonText(words: string, lang: Lang, why?: Reason): string {
  if (why && isReasonKey(why.key)) return reason(why.key, lang, why.vars);
  if (!words) return words;
  byEnglish ??= new Map(
    (Object.keys(REASONS) as ReasonKey[]).filter((k) => !REASONS[k]['en-US'].includes('{')).map((k) => [REASONS[k]['en-US'], k]),
  );
  const key = byEnglish.get(words);
  return key ? reason(key, lang) : words;
}

/**
 * The live WS-fMP4 socket's state message (server media/outputs/ws-fmp4.ts, console
 * player/wsFmp4.ts): `reason` the source's words as before; `code` and `vars` the catalogue's reason
 * for them, which the console renders in its language.
 */
export interface LiveStateMessage {
  type: 'state';
  state: 'idle' | 'connecting' | 'live' | 'retrying' | 'stopped' | 'unsupported';
  reason: string;
  code?: ReasonKey;
  vars?: Record<string, string | number>;
}

/** The catalogue reason a state message carries, if its code is one (a newer server may send codes this console does not know). */
export function reasonOfState(msg: { code?: unknown; vars?: unknown }): Reason | undefined {
  if (typeof msg.code !== 'string' || !isReasonKey(msg.code)) return undefined;
  const vars = msg.vars && typeof msg.vars === 'object' ? (msg.vars as Record<string, string | number>) : undefined;
  return { key: msg.code, vars };
}

/** The close reason of a live WS-FLV socket whose stream stopped without a catalogue reason (routes/media/flv.ts). */
export const STREAM_STOPPED_CLOSE = 'stream stopped';

/**
 * The close reason of a live WS-FLV socket whose stream stopped: 'stream stopped', with the catalogue
 * reason's key in brackets ("stream stopped (streamChannelDisabled)") so the console says why in its
 * language. A reason with vars is left at 'stream stopped' here, as a close reason holds 123 bytes:
 * its vars come in the stopped state message sent just before the close (stoppedStateMessage), which
 * the console's WS-FLV loader reads.
 */
export function stoppedCloseReason(why?: Reason): string {
  return why && !why.vars && isReasonKey(why.key) ? `${STREAM_STOPPED_CLOSE} (${why.key})` : STREAM_STOPPED_CLOSE;
}

/**
 * The response header of an HLS request (410) whose stream stopped: its stoppedCloseReason(), the
 * words a WS-FLV socket closes with, so the player tells why and whether to open again at once (a
 * leg that ended with streamOriginalNotHevc) as it does for a socket. hls.js gets no body of a failed
 * playlist, only its status and the request (its headers), and retries no 4xx.
 */
export const STREAM_STOPPED_HEADER = 'X-Stream-Stopped';

/**
 * The query parameter (`?state=1`) by which a WS-FLV viewer asks for the camera's state in text
 * frames (LiveStateMessage: connecting, retrying with the reason, live, and stopped before a close),
 * as the WS-fMP4 socket always sends them. Only the console's own WS-FLV loader asks: mpegts.js and
 * flv.js used directly treat any text frame as an error ("Unsupported WebSocket message type"), so
 * without it the socket carries FLV bytes only.
 */
export const FLV_STATE_PARAM = 'state';

/** The state message of a live socket (WS-fMP4, WS-FLV asked with FLV_STATE_PARAM): the source's words and the catalogue reason. */
export function liveStateMessage(state: LiveStateMessage['state'], reason: string, why?: Reason): LiveStateMessage {
  return { type: 'state', state, reason, ...(why ? { code: why.key, ...(why.vars ? { vars: why.vars } : {}) } : {}) };
}

/**
 * The text message a live WS-FLV socket that asked for states (FLV_STATE_PARAM) gets just before it
 * closes for a stopped stream with a catalogue reason: the WS-fMP4 socket's state message (LiveStateMessage), whose code and vars no
 * close reason could hold whole.
 */
export function stoppedStateMessage(why: Reason): LiveStateMessage {
  return { type: 'state', state: 'stopped', reason: stoppedCloseReason(why), code: why.key, ...(why.vars ? { vars: why.vars } : {}) };
}

/** The catalogue reason inside a stoppedCloseReason() close reason, if it names one this side knows. */
export function reasonOfStoppedClose(closeReason: string): Reason | undefined {
  const key = /^stream stopped \(([A-Za-z0-9]+)\)$/.exec(closeReason)?.[1];
  return key && isReasonKey(key) ? { key } : undefined;
}
