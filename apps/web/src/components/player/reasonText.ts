/**
 * The server says why a stream is reconnecting in its own words (the hub's state reason: "connection
 * refused", "no media for 10 s", "DESCRIBE: 401 Unauthorized", …). The reasons a camera commonly
 * gives are shown in the console's language; any other stays as the server wrote it (a detail an
 * administrator can search for).
 */
import type { TFunction } from 'i18next';

const KNOWN: [RegExp, string, (m: RegExpExecArray) => Record<string, string>][] = [
  [/^connection refused$/i, 'refused', () => ({})],
  [/^connection reset$/i, 'reset', () => ({})],
  [/^connection closed by the camera$/i, 'closed', () => ({})],
  [/^connect timeout after (\d+) ms$/i, 'connectTimeout', (m) => ({ ms: m[1] })],
  [/^no media for (\d+) s$/i, 'noMedia', (m) => ({ seconds: m[1] })],
  [/^[A-Z_]+: 401\b/, 'unauthorized', () => ({})],
  [/^([A-Z_]+) timeout after (\d+) ms$/, 'requestTimeout', (m) => ({ method: m[1], ms: m[2] })],
  [/^bad data from the camera\b/i, 'badData', () => ({})],
];

export function reasonText(reason: string, t: TFunction): string {
  for (const [re, key, vars] of KNOWN) {
    const m = re.exec(reason);
    if (m) return t(`player.reasons.${key}`, vars(m));
  }
  return reason;
}
