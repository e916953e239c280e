/**
 * The stream checker's probe for every address a channel may hold: rtsp:// gets the RTSP
 * OPTIONS/DESCRIBE probe; an address the ffmpeg pull source plays gets a check that asks for the
 * stream itself, not only its server (a wrong stream key on a working server is offline, with the
 * reason), without starting ffmpeg (one per channel per interval would cost more than the stream):
 * - rtmp(s)://: handshake, connect, createStream, play, and the first audio/video (rtmp/probe.ts);
 * - http(s)://: the answer's first bytes: FLV, a playlist with a variant and segments, ...
 *   (http-stream-probe.ts), an https:// server's certificate held to the pull's policy (pinFor);
 * - rtsps:// is RTSP: the RTSP probe over TLS (OPTIONS/DESCRIBE: a wrong path gets its 404).
 */
import { BAD_URL, probeRtsp, type ProbeMiss, type ProbeOptions, type ProbeResult } from './rtsp/probe.js';
import { probeHttpStream } from './http-stream-probe.js';
import { probeRtmp } from './rtmp/probe.js';
import { pullUrl, PullUrlError, pullSchemeOf } from '../media/ingest/pull-url.js';

export async function probeStream(rawUrl: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const scheme = pullSchemeOf(rawUrl);
  // rtsp:// and rtsps:// (RTSP in TLS: the same OPTIONS/DESCRIBE), and anything else, which it refuses.
  if (!scheme) return probeRtsp(rawUrl, opts);
  const started = performance.now();
  const result = (ok: boolean, { reason, why }: { reason: string; why?: ProbeMiss['why'] }, status = 0, answered?: boolean): ProbeResult => ({
    ok,
    status,
    reason,
    ...(ok ? {} : { why }),
    codecs: [],
    latencyMs: Math.round(performance.now() - started),
    ...(answered === undefined ? {} : { answered }),
  });
  let target;
  try {
    target = pullUrl(rawUrl, opts);
  } catch (err) {
    // The address checks' words (pull-url.ts) are the log's; the user reads that the address is wrong.
    return result(false, err instanceof PullUrlError ? { reason: err.message, why: BAD_URL.why } : BAD_URL);
  }
  const timeoutMs = opts.timeoutMs ?? 3000;
  if (scheme === 'http' || scheme === 'https') {
    const r = await probeHttpStream(target.url, { timeoutMs, signal: opts.signal, onWait: opts.onWait, pinFor: opts.pinFor });
    return result(r.ok, r, r.status);
  }
  const r = await probeRtmp(new URL(target.url), { timeoutMs, signal: opts.signal });
  return result(r.ok, r, 0, r.answered);
}
