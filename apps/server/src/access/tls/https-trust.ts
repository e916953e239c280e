/**
 * Which https:// servers we fetch streams from (the stream checker's HTTP probe,
 * http-stream-probe.ts; ffmpeg's fetches, through media/ingest/pull-gateway.ts): the policy of
 * rtsps:// cameras (rtsps-trust.ts), per channel and per host, judged before a request is sent:
 *
 * - trusted by authority: the chain checks against the system's authorities and HTTPS_CA_FILE's and
 *   the certificate names the host: taken;
 * - an authority's certificate with a defect (expired, not yet valid, for another host): refused with
 *   its own reason (certificate-miss.ts). A pin would make an expired or misdirected certificate as good
 *   as a valid one, and a web server's certificate, unlike a camera's, is meant to be renewed;
 * - no authority (self-signed, an unknown issuer): the channel address's own host is trusted on first
 *   use, its SHA-256 fingerprint pinned (channels.tls_pin) once it answered HTTP, and another one later
 *   refused (tlsServerCertChanged: tlsCertChanged's words for a server, not a camera). Another host (a redirect's, a playlist's segment server) has no pin of
 *   its own: it must be vouched for by an authority, else it is refused with its reason.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { Reason } from '@opencvr/shared';
import { trustedAuthorities } from './authorities.js';
import { certificateMiss } from './certificate-miss.js';
import { certificateChanged, type TlsPins } from './rtsps-trust.js';

export interface TlsMiss {
  reason: string;
  why: Reason;
}

/** A certificate the policy refused; the connection is already closed. */
export class TlsRefused extends Error {
  constructor(readonly miss: TlsMiss) {
    super(miss.reason);
    this.name = 'TlsRefused';
  }
}

/** Whose certificate a connection meets. */
export interface HttpsPinning {
  /** The channel whose pin the address's own host holds; none: nothing is pinned (first use is taken). */
  channel?: number;
  /** The host is the channel address's own (only its certificate can be pinned). */
  own: boolean;
}

/** How a server's certificate was taken. */
export type HttpsPeer =
  | { trusted: 'authority' }
  | { trusted: 'pin'; fingerprint: string }
  /** No pin yet: pinHttpsFirstUse() once the server has answered HTTP. */
  | { trusted: 'first-use'; fingerprint: string; channel?: number };

interface Log {
  info(o: object, m: string): void;
}

/**
 * OpenSSL's results for a chain that leads to no authority: the case for a pin. Any other failure
 * of a chain that does lead to one is that certificate's defect.
 */
const NO_AUTHORITY = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);

let trust: { context: tls.SecureContext; pins?: TlsPins; log?: Log } | undefined;

/**
 * The deployment's trust (buildApp: HTTPS_CA_FILE, the database's pins). Throws with the file's
 * problem when HTTPS_CA_FILE cannot be read or holds no certificate: the server does not start.
 */
export function setHttpsTrust(t: { caFile?: string }, pins?: TlsPins, log?: Log): void {
  trust = { context: trustedAuthorities(t.caFile, { setting: 'HTTPS_CA_FILE', scheme: 'https://' }), pins, log };
}

/**
 * A TLS connection to an https:// server whose certificate the policy took, before anything is
 * sent on it. Rejects with TlsRefused (or the socket's error, or the signal's abort).
 */
export function connectHttps(host: string, port: number, pinning: HttpsPinning, signal?: AbortSignal): Promise<{ socket: tls.TLSSocket; peer: HttpsPeer }> {
  trust ??= { context: trustedAuthorities(undefined, { setting: 'HTTPS_CA_FILE', scheme: 'https://' }) };
  const context = trust.context;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    // The brackets of an IPv6 literal (URL.hostname keeps them) are not part of the address.
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    const socket = tls.connect({
      host: bare,
      port,
      servername: net.isIP(bare) ? undefined : bare,
      secureContext: context,
      // Decided in judge(): an unknown authority is a first use, not an error.
      rejectUnauthorized: false,
    });
    const abort = () => socket.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    socket.once('error', (err) => {
      done();
      reject(err);
    });
    socket.once('secureConnect', () => {
      judge(socket, bare, pinning).then(
        (peer) => {
          done();
          if ('refused' in peer) {
            socket.destroy();
            reject(new TlsRefused(peer.refused));
          } else resolve({ socket, peer });
        },
        (err: unknown) => {
          done();
          socket.destroy();
          reject(err);
        },
      );
    });
  });
}

async function judge(socket: tls.TLSSocket, host: string, pinning: HttpsPinning): Promise<HttpsPeer | { refused: TlsMiss }> {
  // authorized: the chain checks and the certificate names the host (Node's checkServerIdentity).
  if (socket.authorized) return { trusted: 'authority' };
  const cert = socket.getPeerCertificate();
  const fingerprint = cert?.fingerprint256;
  if (!fingerprint) return { refused: { reason: 'TLS: the server sent no certificate', why: { key: 'tlsCertRejected', vars: { code: 'NO_CERTIFICATE' } } } };
  const code = String(socket.authorizationError ?? '');
  if (NO_AUTHORITY.has(code) && !pinning.own) {
    return { refused: { reason: `TLS certificate of ${host} refused: no authority vouches for it (${code}) and only the address's own host is pinned`, why: { key: 'tlsCertNotOwnHost', vars: { host } } } };
  }
  if (!NO_AUTHORITY.has(code)) {
    const err = Object.assign(new Error('verification failed'), { code, host, cert });
    return { refused: certificateMiss(err) ?? { reason: `TLS certificate refused (${code})`, why: { key: 'tlsCertRejected', vars: { code } } } };
  }
  const pins = trust?.pins;
  const pinned = pinning.channel !== undefined && pins ? await pins.pinned(pinning.channel) : '';
  if (!pinned) return { trusted: 'first-use', fingerprint, channel: pinning.channel };
  if (pinned === fingerprint) return { trusted: 'pin', fingerprint };
  return { refused: certificateChanged(pinned, fingerprint, 'tlsServerCertChanged') };
}

/**
 * Pins a first-use certificate once the server answered HTTP. Another connection may have pinned a
 * different one meanwhile (the probe and the pull at once): then this one is refused too.
 */
export async function pinHttpsFirstUse(peer: HttpsPeer): Promise<TlsMiss | undefined> {
  if (peer.trusted !== 'first-use' || peer.channel === undefined || !trust?.pins) return undefined;
  const inForce = await trust.pins.pin(peer.channel, peer.fingerprint);
  if (inForce !== peer.fingerprint) return certificateChanged(inForce, peer.fingerprint, 'tlsServerCertChanged');
  trust.log?.info({ channel: peer.channel, fingerprint: peer.fingerprint }, 'https: server certificate pinned at first use');
  return undefined;
}

/**
 * Whether `url` is on the https:// channel address's own host, the one whose certificate may be pinned
 * (an http:// address has no pin: the https:// server it redirects to needs an authority).
 */
export const ownHost = (url: URL, address: URL) => address.protocol === 'https:' && url.hostname.toLowerCase() === address.hostname.toLowerCase();
