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
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { Reason } from '@opencvr/shared';

export interface RtmpsTrust {
  /** A PEM file of certificates trusted besides the system's (RTMPS_CA_FILE). */
  caFile?: string;
  /** Any certificate is taken (RTMPS_INSECURE=1); the failing ones are logged. */
  insecure?: boolean;
}

interface Log {
  warn(o: object, m: string): void;
}

/** The system's bundle: Debian and Ubuntu, RHEL and Fedora, Alpine (the first that is there). */
const SYSTEM_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

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

/** The certificate's problem of a TLS error, in the log's words and the catalogue's; undefined for any other error. */
export function certificateMiss(
  err: NodeJS.ErrnoException & { host?: string; cert?: tls.PeerCertificate },
): { reason: string; why: Reason } | undefined {
  const code = err.code ?? '';
  const reason = `TLS certificate refused: ${err.message} (${code})`;
  switch (code) {
    case 'CERT_HAS_EXPIRED':
      return { reason, why: { key: 'tlsCertExpired' } };
    case 'CERT_NOT_YET_VALID':
      return { reason, why: { key: 'tlsCertNotYetValid' } };
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return { reason, why: { key: 'tlsCertSelfSigned' } };
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_UNTRUSTED':
      return { reason, why: { key: 'tlsCertUntrusted' } };
    case 'ERR_TLS_CERT_ALTNAME_INVALID': {
      const names = err.cert?.subjectaltname || (err.cert?.subject?.CN ? `CN=${err.cert.subject.CN}` : '?');
      return { reason, why: { key: 'tlsCertWrongHost', vars: { host: err.host ?? '?', names } } };
    }
  }
  // OpenSSL's other verification results (revoked, bad signature, not a CA, ...).
  if (
    /^(CERT_|UNABLE_TO_|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED|HOSTNAME_MISMATCH|ERROR_IN_CERT_)/.test(code)
  ) {
    return { reason, why: { key: 'tlsCertRejected', vars: { code } } };
  }
  return undefined;
}

/** One context for every connection: the bundles are read once (some hundred certificates). */
function secureContext(caFile?: string): tls.SecureContext {
  const cas: string[] = [...tls.rootCertificates];
  const system = [process.env.SSL_CERT_FILE, ...SYSTEM_BUNDLES].find((f) => f && readable(f));
  if (system) cas.push(...certificatesIn(fs.readFileSync(system, 'utf8')));
  // Node warned at start if it could not read it; nothing to add then.
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  if (extra && readable(extra)) cas.push(...certificatesIn(fs.readFileSync(extra, 'utf8')));
  if (caFile) {
    let text: string;
    try {
      text = fs.readFileSync(caFile, 'utf8');
    } catch (err) {
      throw new Error(
        `RTMPS_CA_FILE: cannot read ${caFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
    const own = certificatesIn(text);
    if (!own.length) throw new Error(`RTMPS_CA_FILE: ${caFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
    cas.push(...own);
  }
  try {
    return tls.createSecureContext({ ca: cas });
  } catch (err) {
    throw new Error(
      `rtmps:// trust: a certificate of ${caFile ?? "the system's bundle"} could not be read (${(err as Error).message})`,
    );
  }
}

function certificatesIn(pem: string): string[] {
  return pem.match(PEM_CERT) ?? [];
}

function readable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
