/**
 * Why a live stream is not playing, in the reader's language. A stream's source says it in its own
 * words (the hub's state reason: "connection refused", "no media for 10 s", "DESCRIBE: 401
 * Unauthorized", a GB28181 device offline or silent, …), which are also what the log keeps; this
 * turns the ones a camera or GB device commonly gives into a REASONS text, and a reason that is a
 * REASONS text in English into the same in the asked language. Any other stays as the source wrote
 * it (a detail an administrator can search for). The server answers getchannelstream's Reason and
 * the streamstat socket with it, the console its player's state.
 */
import { REASONS, reason, type Lang, type ReasonKey } from './messages.js';

type Vars = Record<string, string>;

/** The source's words (server: access/rtsp, media/ingest, gb/invite, gb/media, gb/service) → a catalogue key. */
const KNOWN: [RegExp, ReasonKey, (m: RegExpExecArray) => Vars][] = [
  [/^connection refused$/i, 'streamRefused', () => ({})],
  [/^connection reset$/i, 'streamReset', () => ({})],
  [/^connection closed by the camera$/i, 'streamClosed', () => ({})],
  [/^connect timeout after (\d+) ms$/i, 'streamConnectTimeout', (m) => ({ ms: m[1] })],
  [/^no media for (\d+) s$/i, 'streamNoMedia', (m) => ({ seconds: m[1] })],
  [/^[A-Z_]+: 401\b/, 'streamUnauthorized', () => ({})],
  // Any other RTSP status (rtsp-source.ts): the camera's own reason phrase stays as it wrote it.
  [/^([A-Z_]+): (\d{3}) ?(.*)$/, 'streamAnswered', (m) => ({ method: m[1], status: m[2], phrase: m[3] })],
  [/^no playable track in the SDP\b/, 'streamNoPlayableTrack', () => ({})],
  [/^([A-Z_]+) timeout after (\d+) ms$/, 'streamRequestTimeout', (m) => ({ method: m[1], ms: m[2] })],
  [/^bad data from the camera\b/i, 'streamBadData', () => ({})],
  [/^device \S+ is not registered \(offline\)/, 'streamGbOffline', () => ({})],
  [/^device \S+ did not answer the INVITE for channel \S+ within (\d+) s/, 'streamGbNoAnswer', (m) => ({ seconds: m[1] })],
  [/^device \S+ did not answer the INVITE\b/, 'streamGbNoAnswerNow', () => ({})],
  [/^device \S+ refused the .+ of channel \S+: (\d{3}.*)$/, 'streamGbRefused', (m) => ({ status: m[1] })],
  [/^device \S+ answered the INVITE for channel \S+ with an SDP that cannot be used/, 'streamGbBadAnswer', () => ({})],
  [/^RTP stopped: nothing on .+ for (\d+) s$/, 'streamGbRtpStopped', (m) => ({ seconds: m[1] })],
  [
    /^no RTP received on UDP port (\d+) within (\d+) s: check the media IP announced \(([^)]*)\)/,
    'streamGbNoRtp',
    (m) => ({ port: m[1], seconds: m[2], ip: m[3] }),
  ],
  [
    /^the device did not connect to TCP port (\d+) within (\d+) s: check the media IP announced \(([^)]*)\)/,
    'streamGbNoTcp',
    (m) => ({ port: m[1], seconds: m[2], ip: m[3] }),
  ],
  [
    /^(?:the device connected to TCP port \d+ but sent no RTP|no RTP received from the device over TCP \(.*\)) within (\d+) s/,
    'streamGbNoRtpTcp',
    (m) => ({ seconds: m[1] }),
  ],
  [/^RTP arrived on .+ but only with SSRC/, 'streamGbWrongSsrc', () => ({})],
  [/^the device ended the media session\b/, 'streamGbEnded', () => ({})],
  [/^the device closed the TCP media connection\b/, 'streamGbTcpClosed', () => ({})],
  [/^the device sends (.+), which cannot be played/, 'streamGbUnsupported', (m) => ({ what: m[1] })],
  [/^RTP arrives but holds no MPEG-PS\b/, 'streamGbNotPs', () => ({})],
  // gb/service.ts: the device registered over TCP and its connection is gone (it registers again when back)
  [/^cannot send to \S+: no TCP connection from (\S+)$/, 'streamGbTcpGone', (m) => ({ address: m[1] })],
];

/** The catalogue's texts without {vars}, by their English: a source that already speaks the catalogue. */
let byEnglish: Map<string, ReasonKey> | undefined;

export function streamReasonText(text: string, lang: Lang): string {
  if (!text) return text;
  for (const [re, key, vars] of KNOWN) {
    const m = re.exec(text);
    if (m) return reason(key, lang, vars(m));
  }
  byEnglish ??= new Map(
    (Object.keys(REASONS) as ReasonKey[]).filter((k) => !REASONS[k]['en-US'].includes('{')).map((k) => [REASONS[k]['en-US'], k]),
  );
  const key = byEnglish.get(text);
  return key ? reason(key, lang) : text;
}
