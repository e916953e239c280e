/**
 * The server says why a stream is reconnecting in its own words (the hub's state reason: "connection
 * refused", "no media for 10 s", "DESCRIBE: 401 Unauthorized", a GB28181 device offline or silent,
 * …). The reasons a camera or GB device commonly gives are shown in the console's language; any other stays as the server wrote it (a detail an
 * administrator can search for). A reason the server takes from the shared REASONS catalogue (in
 * English, e.g. pullHevcFlvNeedsFfmpeg61) is shown from the same catalogue in the console's language.
 */
import type { TFunction } from 'i18next';
import { REASONS, reason as catalogueReason, type ReasonKey } from '@opencvr/shared';
import { currentLang } from '../../i18n';

/** The catalogue's reasons without {vars}, by their English text. */
const BY_ENGLISH = new Map<string, ReasonKey>(
  (Object.keys(REASONS) as ReasonKey[]).filter((k) => !REASONS[k]['en-US'].includes('{')).map((k) => [REASONS[k]['en-US'], k]),
);

const KNOWN: [RegExp, string, (m: RegExpExecArray) => Record<string, string>][] = [
  [/^connection refused$/i, 'refused', () => ({})],
  [/^connection reset$/i, 'reset', () => ({})],
  [/^connection closed by the camera$/i, 'closed', () => ({})],
  [/^connect timeout after (\d+) ms$/i, 'connectTimeout', (m) => ({ ms: m[1] })],
  [/^no media for (\d+) s$/i, 'noMedia', (m) => ({ seconds: m[1] })],
  [/^[A-Z_]+: 401\b/, 'unauthorized', () => ({})],
  // Any other RTSP status (rtsp-source.ts): the camera's own reason phrase stays as it wrote it.
  [/^([A-Z_]+): (\d{3}) ?(.*)$/, 'answered', (m) => ({ method: m[1], status: m[2], phrase: m[3] })],
  [/^no playable track in the SDP\b/, 'noPlayableTrack', () => ({})],
  [/^([A-Z_]+) timeout after (\d+) ms$/, 'requestTimeout', (m) => ({ method: m[1], ms: m[2] })],
  [/^bad data from the camera\b/i, 'badData', () => ({})],
  // A GB28181 device (server gb/invite/client.ts, gb/media/rtp-receiver.ts, gb/media/ps-source.ts).
  [/^device \S+ is not registered \(offline\)/, 'gbOffline', () => ({})],
  [/^device \S+ did not answer the INVITE for channel \S+ within (\d+) s/, 'gbNoAnswer', (m) => ({ seconds: m[1] })],
  [/^device \S+ did not answer the INVITE\b/, 'gbNoAnswerNow', () => ({})],
  [/^device \S+ refused the .+ of channel \S+: (\d{3}.*)$/, 'gbRefused', (m) => ({ status: m[1] })],
  [/^device \S+ answered the INVITE for channel \S+ with an SDP that cannot be used/, 'gbBadAnswer', () => ({})],
  [/^RTP stopped: nothing on .+ for (\d+) s$/, 'gbRtpStopped', (m) => ({ seconds: m[1] })],
  [/^no RTP received on UDP port (\d+) within (\d+) s: check the media IP announced \(([^)]*)\)/, 'gbNoRtp', (m) => ({ port: m[1], seconds: m[2], ip: m[3] })],
  [/^the device did not connect to TCP port (\d+) within (\d+) s: check the media IP announced \(([^)]*)\)/, 'gbNoTcp', (m) => ({ port: m[1], seconds: m[2], ip: m[3] })],
  [/^(?:the device connected to TCP port \d+ but sent no RTP|no RTP received from the device over TCP \(.*\)) within (\d+) s/, 'gbNoRtpTcp', (m) => ({ seconds: m[1] })],
  [/^RTP arrived on .+ but only with SSRC/, 'gbWrongSsrc', () => ({})],
  [/^the device ended the media session\b/, 'gbEnded', () => ({})],
  [/^the device closed the TCP media connection\b/, 'gbTcpClosed', () => ({})],
  [/^the device sends (.+), which cannot be played/, 'gbUnsupported', (m) => ({ what: m[1] })],
  [/^RTP arrives but holds no MPEG-PS\b/, 'gbNotPs', () => ({})],
  // gb/service.ts: the device registered over TCP and its connection is gone (it registers again when back)
  [/^cannot send to \S+: no TCP connection from (\S+)$/, 'gbTcpGone', (m) => ({ address: m[1] })],
];

export function reasonText(reason: string, t: TFunction): string {
  for (const [re, key, vars] of KNOWN) {
    const m = re.exec(reason);
    if (m) return t(`player.reasons.${key}`, vars(m));
  }
  const key = BY_ENGLISH.get(reason);
  if (key) {
    // A fixed-language t (getFixedT) says which; the console's own t follows the current language.
    const lng = (t as unknown as { lng?: string }).lng;
    return catalogueReason(key, lng ? (lng === 'en-US' ? 'en-US' : 'zh-CN') : currentLang());
  }
  return reason;
}
