/**
 * Every rtmps:// connection (the CDN push, publisher.ts; the stream checker's play, probe.ts) is
 * opened here, with the server's certificate checked as a browser checks an https:// site's: signed
 * by a trusted authority, valid today, issued for the host of the address (SNI from it too). The
 * push carries the stream key and a login; sent to whoever answers with any certificate, both were
 * an attacker's on any network between us and the CDN.
 *
 * Trusted: Node's bundled authorities (Mozilla's), the system's bundle (what update-ca-certificates
 * made, so a site's CA installed the system's way counts), NODE_EXTRA_CA_CERTS, and RTMPS_CA_FILE:
 * a PEM file for this server alone (a site's private CA, or a self-signed ingest's own certificate).
 * Passing any `ca` replaces Node's default store, NODE_EXTRA_CA_CERTS included: hence all of them here.
 * A site that can do neither sets RTMPS_INSECURE=1: any certificate is taken, said at boot and, for
 * each server whose certificate fails, once in the log with its problem.
 *
 * A refused certificate is a reason of its own (certificateMiss): expired, self-signed, from an
 * unknown authority, for another host; the push's CdnPush and the channel's status say which.
 */
import net from 'node:net';
import tls from 'node:tls';
import { trustedAuthorities } from '../tls/authorities.js';

// Where it was first written: the push, the probe and the pull import it from here.
export { certificateMiss } from '../tls/certificate-miss.js';

export interface RtmpsTrust {
  /** A PEM file of certificates trusted besides the system's (RTMPS_CA_FILE). */
  caFile?: string;
  /** Any certificate is taken (RTMPS_INSECURE=1); the failing ones are logged. */
  insecure?: boolean;
}

interface Log {
  warn(o: object, m: string): void;
}

let trust: { context: tls.SecureContext; insecure: boolean; log?: Log } | undefined;
/** Servers already logged as taken unchecked (host:port): once each, not at every check. */
const loggedInsecure = new Set<string>();

/**
 * The deployment's trust (buildApp, from RTMPS_CA_FILE and RTMPS_INSECURE). Throws with the file's
 * problem when RTMPS_CA_FILE cannot be read or holds no certificate: the server does not start.
 */
export function setRtmpsTrust(t: RtmpsTrust, log?: Log): void {
  trust = { context: secureContext(t.caFile), insecure: !!t.insecure, log };
  loggedInsecure.clear();
  if (t.insecure)
    log?.warn(
      {},
      'RTMPS_INSECURE=1: rtmps:// certificates are not checked; the CDN push sends its stream key and login to any server that answers',
    );
}

/** A TLS connection to an rtmps:// server, its certificate checked (or, RTMPS_INSECURE, logged). */
export function connectRtmps(host: string, port: number): tls.TLSSocket {
  trust ??= { context: secureContext(), insecure: false };
  const { context, insecure, log } = trust;
  const socket = tls.connect({
    host,
    port,
    servername: net.isIP(host) ? undefined : host,
    secureContext: context,
    rejectUnauthorized: !insecure,
  });
  if (insecure) {
    socket.once('secureConnect', () => {
      const where = `${host}:${port}`;
      if (socket.authorized || loggedInsecure.has(where)) return;
      loggedInsecure.add(where);
      log?.warn(
        { server: where, problem: socket.authorizationError },
        'rtmps: certificate not trusted, taken anyway (RTMPS_INSECURE=1)',
      );
    });
  }
  return socket;
}

/** One context for every connection: the bundles are read once (some hundred certificates). */
function secureContext(caFile?: string): tls.SecureContext {
  return trustedAuthorities(caFile, { setting: 'RTMPS_CA_FILE', scheme: 'rtmps://' });
}
