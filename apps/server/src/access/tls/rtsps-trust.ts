/**
 * Which rtsps:// cameras we talk to (the native pull, rtsp-source.ts; the stream checker's probe,
 * rtsp/probe.ts). Cameras present certificates they signed themselves, for a name or address nobody
 * dials: checked as a browser checks a website, nearly every camera would be refused; not checked at
 * all, anyone on the path gets the Digest exchange (weak) and the pictures. So, per channel:
 *
 * - trusted by authority: the chain checks against the system's authorities and RTSPS_CA_FILE's (a
 *   site's private CA) and the certificate names the host: taken, nothing pinned;
 * - otherwise trust on first use: the certificate's SHA-256 fingerprint is pinned with the channel
 *   (channels.tls_pin) at the first connection that answers DESCRIBE; later connections with another
 *   certificate are refused (tlsCertChanged) before a single request is sent, so the credentials
 *   never reach it. The pin goes when an administrator changes the channel's address.
 *
 * The check runs after the handshake (rejectUnauthorized off, socket.authorized read): one
 * connection decides both ways, and a refusal is our reason, not a TLS alert the camera sees.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { Reason } from '@opencvr/shared';
import { trustedAuthorities } from './authorities.js';

/** Where the pins are kept (channels.tls_pin: services/inventory/tls-pins.ts). */
export interface TlsPins {
  /** The channel's pinned fingerprint ('AB:CD:…', SHA-256), '' when none. */
  pinned(channel: number): Promise<string>;
  /** Pins `fingerprint` unless the channel has one already; answers the pin in force afterwards. */
  pin(channel: number, fingerprint: string): Promise<string>;
}

interface Log {
  info(o: object, m: string): void;
}

/** How a camera's certificate was taken, or why it was not. */
export type RtspsPeer =
  | { trusted: 'authority' }
  | { trusted: 'pin'; fingerprint: string }
  /** No pin yet: pinFirstUse() once the camera has answered as a camera. */
  | { trusted: 'first-use'; fingerprint: string; channel?: number }
  | { refused: { reason: string; why: Reason } };

let trust: { context: tls.SecureContext; pins?: TlsPins; log?: Log } | undefined;

/**
 * The deployment's trust (buildApp: RTSPS_CA_FILE, the database's pins). Throws with the file's
 * problem when RTSPS_CA_FILE cannot be read or holds no certificate: the server does not start.
 */
export function setRtspsTrust(t: { caFile?: string }, pins?: TlsPins, log?: Log): void {
  trust = { context: trustedAuthorities(t.caFile, { setting: 'RTSPS_CA_FILE', scheme: 'rtsps://' }), pins, log };
}

/** A TLS connection to an rtsps:// camera; checkPeer() once it is secure. `onread` as net.connect's. */
export function connectRtsps(host: string, port: number, onread?: net.OnReadOpts): tls.TLSSocket {
  trust ??= { context: trustedAuthorities(undefined, { setting: 'RTSPS_CA_FILE', scheme: 'rtsps://' }) };
  return tls.connect({
    host,
    port,
    servername: net.isIP(host) ? undefined : host,
    secureContext: trust.context,
    // Decided in checkPeer(): an unknown authority is a first use, not an error.
    rejectUnauthorized: false,
    ...(onread ? { onread } : {}),
  });
}

/** The camera's certificate against the policy, after 'secureConnect'; `channel` keys its pin (none: nothing pinned). */
export async function checkPeer(socket: tls.TLSSocket, channel?: number): Promise<RtspsPeer> {
  // authorized: the chain checks and the certificate names the host (Node's checkServerIdentity).
  if (socket.authorized) return { trusted: 'authority' };
  const fingerprint = socket.getPeerCertificate()?.fingerprint256;
  if (!fingerprint) return { refused: { reason: 'TLS: the camera sent no certificate', why: { key: 'tlsCertRejected', vars: { code: 'NO_CERTIFICATE' } } } };
  const pins = trust?.pins;
  const pinned = channel !== undefined && pins ? await pins.pinned(channel) : '';
  if (!pinned) return { trusted: 'first-use', fingerprint, channel };
  if (pinned === fingerprint) return { trusted: 'pin', fingerprint };
  return { refused: certificateChanged(pinned, fingerprint) };
}

/**
 * Pins a first-use certificate once the camera answered DESCRIBE. Another connection may have pinned
 * a different one meanwhile (the probe and the pull at once): then this one is refused too.
 */
export async function pinFirstUse(peer: RtspsPeer): Promise<{ reason: string; why: Reason } | undefined> {
  if (!('trusted' in peer) || peer.trusted !== 'first-use' || peer.channel === undefined || !trust?.pins) return undefined;
  const inForce = await trust.pins.pin(peer.channel, peer.fingerprint);
  if (inForce !== peer.fingerprint) return certificateChanged(inForce, peer.fingerprint);
  trust.log?.info({ channel: peer.channel, fingerprint: peer.fingerprint }, 'rtsps: camera certificate pinned at first use');
  return undefined;
}

/** A certificate other than the pinned one, as refused: a camera's, or a stream server's (https-trust.ts). */
export function certificateChanged(
  pinned: string,
  presented: string,
  key: 'tlsCertChanged' | 'tlsServerCertChanged' = 'tlsCertChanged',
): { reason: string; why: Reason } {
  return {
    reason: `TLS certificate changed: SHA-256 ${presented}, pinned ${pinned}`,
    why: { key, vars: { pinned, presented } },
  };
}
