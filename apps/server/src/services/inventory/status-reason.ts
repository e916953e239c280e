/**
 * Why a channel or a device is offline, in the answer's language. status_reason keeps the words of
 * whoever set it (the stream checker's probes, the GB service, a device's catalog event):
 * they are the log's too, and the GB store matches one of them (WITH_DEVICE) to bring channels back.
 * The answer renders the known ones from the REASONS catalogue; a camera's own status phrase ("404
 * Not Found") stays as it wrote it, and anything unknown is shown as stored.
 */
import { reason, type Lang, type Reason } from '@opencvr/shared';

type Vars = Record<string, string | number>;

/** The probes' words (access/rtsp/probe.ts, access/stream-probe.ts and its rtmp/ and http-stream-probe.ts) and the GB service's (gb/service.ts, device-store.ts, catalog/notify.ts) and a disabled device's (device-enable.ts). */
const KNOWN: [RegExp, (m: RegExpExecArray) => Reason][] = [
  [/^connection refused$/, () => ({ key: 'connectionRefused' })],
  [/^connection reset$/, () => ({ key: 'connectionReset' })],
  [/^host not found$/, () => ({ key: 'hostNotFound' })],
  [/^host unreachable$/, () => ({ key: 'hostUnreachable' })],
  [/^connection timed out$/, () => ({ key: 'statusTimedOut' })],
  [/^timeout after (\d+) ms$/, (m) => ({ key: 'statusNoAnswerWithin', vars: { ms: m[1] } })],
  [/^connection closed by the camera$/, () => ({ key: 'statusClosedByCamera' })],
  [/^socket error (E[A-Z0-9_]+)$/, (m) => ({ key: 'statusSocketError', vars: { code: m[1] } })],
  // The HTTP pull probe's redirects it does not follow (before the plain status: no English inside a phrase).
  [/^(\d{3}) redirect to an invalid address$/, (m) => ({ key: 'statusBadRedirect', vars: { status: m[1] } })],
  [/^(\d{3}) redirect to (\S+)\/\/ \(not followed\)$/, (m) => ({ key: 'statusRedirectNotFollowed', vars: { status: m[1], protocol: m[2] } })],
  [/^(401) (.*?)(?: \(no supported authentication scheme\))?$/, (m) => ({ key: 'statusUnauthorized', vars: { status: m[1], phrase: m[2] } })],
  [/^([1-5]\d\d) ?(.*)$/, (m) => ({ key: 'statusAnswered', vars: { status: m[1], phrase: m[2] } })],
  [/^invalid URL$/, () => ({ key: 'statusBadUrl' })],
  // The pull probe's (access/stream-probe.ts) address checks (media/ingest/pull-url.ts).
  [/^the stream address (has spaces or control characters|is not a URL|has no host)$/, () => ({ key: 'statusBadUrl' })],
  [/^\S+\/\/ is not pulled through ffmpeg\b/, () => ({ key: 'statusBadUrl' })],
  [/^rtsps:\/\/ is not supported yet$/, () => ({ key: 'statusRtspsUnsupported' })],
  [/^not an rtsp:\/\/ URL \((.*)\)$/, (m) => ({ key: 'statusNotRtspUrl', vars: { protocol: m[1] } })],
  [/^not an RTSP answer\b/, () => ({ key: 'statusNotRtsp' })],
  [/^no media in the SDP$/, () => ({ key: 'statusNoMedia' })],
  // The pull probe's words about the stream itself (access/rtmp/probe.ts, access/http-stream-probe.ts).
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
  // The error's own words are in the log (the stream checker logs every change with its reason).
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

/** The stored reason as the user reads it in `lang` ('' stays ''). */
export function statusReasonText(stored: string, lang: Lang): string {
  for (const [re, why] of KNOWN) {
    const m = re.exec(stored);
    if (m) {
      const r = why(m);
      return reason(r.key, lang, r.vars as Vars | undefined).trim();
    }
  }
  return stored;
}

/** Rows with a StatusReason, rendered in `lang` (a new array; the rows are copied). */
export function withStatusReasonIn<T extends { StatusReason: string }>(rows: readonly T[], lang: Lang): T[] {
  return rows.map((r) => (r.StatusReason ? { ...r, StatusReason: statusReasonText(r.StatusReason, lang) } : r));
}
