/**
 * The words status_reason held before 0005 (the stream checker's probes, the GB service, a catalog
 * event, a disabled device), as the catalogue reason each stands for: 0005 rewrites the stored rows
 * with it once. Frozen with the migration: new writers store a REASONS key, never words, so nothing
 * is added here.
 */
import type { Reason } from '@opencvr/shared';

const KNOWN: [RegExp, (m: RegExpExecArray) => Reason][] = [
  [/^connection refused$/, () => ({ key: 'connectionRefused' })],
  [/^connection reset$/, () => ({ key: 'connectionReset' })],
  [/^host not found$/, () => ({ key: 'hostNotFound' })],
  [/^host unreachable$/, () => ({ key: 'hostUnreachable' })],
  [/^connection timed out$/, () => ({ key: 'statusTimedOut' })],
  [/^timeout after (\d+) ms$/, (m) => ({ key: 'statusNoAnswerWithin', vars: { ms: m[1] } })],
  [/^connection closed by the camera$/, () => ({ key: 'statusClosedByCamera' })],
  [/^socket error (E[A-Z0-9_]+)$/, (m) => ({ key: 'statusSocketError', vars: { code: m[1] } })],
  [/^(\d{3}) redirect to an invalid address$/, (m) => ({ key: 'statusBadRedirect', vars: { status: m[1] } })],
  [/^(\d{3}) redirect to (\S+)\/\/ \(not followed\)$/, (m) => ({ key: 'statusRedirectNotFollowed', vars: { status: m[1], protocol: m[2] } })],
  [/^(401) (.*?)(?: \(no supported authentication scheme\))?$/, (m) => ({ key: 'statusUnauthorized', vars: { status: m[1], phrase: m[2] } })],
  [/^([1-5]\d\d) ?(.*)$/, (m) => ({ key: 'statusAnswered', vars: { status: m[1], phrase: m[2] } })],
  [/^invalid URL$/, () => ({ key: 'statusBadUrl' })],
  [/^the stream address (has spaces or control characters|is not a URL|has no host)$/, () => ({ key: 'statusBadUrl' })],
  [/^\S+\/\/ is not pulled through ffmpeg\b/, () => ({ key: 'statusBadUrl' })],
  [/^rtsps:\/\/ is not supported yet$/, () => ({ key: 'statusRtspsUnsupported' })],
  [/^not an rtsp:\/\/ URL \((.*)\)$/, (m) => ({ key: 'statusNotRtspUrl', vars: { protocol: m[1] } })],
  [/^not an RTSP answer\b/, () => ({ key: 'statusNotRtsp' })],
  [/^no media in the SDP$/, () => ({ key: 'statusNoMedia' })],
  [/^connection closed by the server$/, () => ({ key: 'statusClosedByServer' })],
  [/^no such stream: (.*)$/, (m) => ({ key: 'statusNoSuchStream', vars: { code: m[1] } })],
  [/^RTMP connect refused: (.*)$/, (m) => ({ key: 'statusRtmpConnectRefused', vars: { code: m[1] } })],
  [/^RTMP play refused: (.*)$/, (m) => ({ key: 'statusRtmpPlayRefused', vars: { code: m[1] } })],
  [/^no answer to (connect|play) within (\d+) ms$/, (m) => ({ key: 'statusRtmpNoAnswerTo', vars: { command: m[1], ms: m[2] } })],
  [/^not an RTMP server\b/, () => ({ key: 'statusNotRtmp' })],
  [/^no media within (\d+) ms$/, (m) => ({ key: 'statusNoMediaWithin', vars: { ms: m[1] } })],
  [/^not an FLV stream$/, () => ({ key: 'statusNotFlv' })],
  [/^not an HLS playlist$/, () => ({ key: 'statusNotHls' })],
  [/^the HLS playlist lists no variant$/, () => ({ key: 'statusHlsNoVariant' })],
  [/^the HLS playlist lists no segment$/, () => ({ key: 'statusHlsNoSegment' })],
  [/^a web page, not a stream$/, () => ({ key: 'statusWebPage' })],
  [/^the server sent an empty answer$/, () => ({ key: 'statusEmptyAnswer' })],
  [/^unexpected Content-Type (.*)$/, (m) => ({ key: 'statusNotSdp', vars: { type: m[1] } })],
  [/^(unexpected error: |socket error: )/, () => ({ key: 'statusCheckFailed' })],
  [/^keepalive timeout$/, () => ({ key: 'statusKeepaliveTimeout' })],
  [/^registration expired$/, () => ({ key: 'statusRegistrationExpired' })],
  [/^unregistered$/, () => ({ key: 'statusUnregistered' })],
  [/^device offline$/, () => ({ key: 'statusWithDevice' })],
  [/^device not enabled$/, () => ({ key: 'statusDeviceDisabled' })],
  [/^catalog: OFF$/, () => ({ key: 'statusCatalogOff' })],
  [/^catalog: video lost$/, () => ({ key: 'statusCatalogVideoLost' })],
  [/^catalog: defect$/, () => ({ key: 'statusCatalogDefect' })],
];

/**
 * The reason stored words stand for. Words of no writer above (none is known) become the generic
 * "the check failed (details in the server log)": the checker logged its words when it stored them.
 */
export function legacyStatusReason(words: string): Reason {
  for (const [re, why] of KNOWN) {
    const m = re.exec(words);
    if (m) return why(m);
  }
  return { key: 'statusCheckFailed' };
}
