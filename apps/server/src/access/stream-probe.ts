/**
 * The stream checker's probe for every address a channel may hold: rtsp:// gets the RTSP
 * OPTIONS/DESCRIBE probe; an address the ffmpeg pull source plays gets the cheapest check that tells
 * whether its server is there, without starting ffmpeg (one per channel per interval would cost more
 * than the stream): an HTTP(S) GET whose status must be 2xx (closed once the headers came: an
 * HTTP-FLV answer never ends), a TCP connection for RTMP(S) and RTSPS. A channel found reachable may
 * still fail to play (a wrong stream key): its stream's state then says why.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { probeRtsp, socketReason, type ProbeOptions, type ProbeResult } from './rtsp/probe.js';
import { pullUrl, PullUrlError, pullSchemeOf } from '../media/ingest/pull-url.js';

const DEFAULT_PORTS = { rtmp: 1935, rtmps: 443, rtsps: 322, http: 80, https: 443 } as const;

export async function probeStream(rawUrl: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const scheme = pullSchemeOf(rawUrl);
  if (!scheme) return probeRtsp(rawUrl, opts);
  const started = performance.now();
  const result = (ok: boolean, reason: string, status = 0): ProbeResult => ({ ok, status, reason, codecs: [], latencyMs: Math.round(performance.now() - started) });
  let target;
  try {
    target = pullUrl(rawUrl, opts);
  } catch (err) {
    return result(false, err instanceof PullUrlError ? err.message : 'invalid URL');
  }
  const url = new URL(target.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[scheme];
  const timeoutMs = opts.timeoutMs ?? 3000;

  return new Promise<ProbeResult>((resolve) => {
    let done = false;
    const finish = (r: ProbeResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    let close = () => undefined as void;
    const timer = setTimeout(() => {
      close();
      finish(result(false, `timeout after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => {
      close();
      finish(result(false, 'aborted'));
    };
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    if (scheme === 'http' || scheme === 'https') {
      const get = scheme === 'https' ? https.get : http.get;
      const headers: Record<string, string> = { 'User-Agent': 'OpenCVR' };
      if (url.username) headers.Authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
      url.username = '';
      url.password = '';
      // As ffmpeg, which plays it, does not check the certificate (cameras and boxes sign their own).
      const req = get(url, { headers, rejectUnauthorized: false }, (res) => {
        const status = res.statusCode ?? 0;
        res.destroy();
        finish(status >= 200 && status < 300 ? result(true, 'OK', status) : result(false, `${status} ${res.statusMessage ?? ''}`.trim(), status));
      });
      close = () => void req.destroy();
      req.on('error', (err: NodeJS.ErrnoException) => finish(result(false, socketReason(err))));
      return;
    }
    const socket = net.connect({ host, port });
    close = () => void socket.destroy();
    socket.once('connect', () => {
      socket.destroy();
      finish(result(true, 'OK'));
    });
    socket.once('error', (err: NodeJS.ErrnoException) => finish(result(false, socketReason(err))));
  });
}
