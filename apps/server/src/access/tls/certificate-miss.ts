/**
 * A refused server certificate as a reason of its own (expired, self-signed, from an unknown
 * authority, for another host): what a CDN push's state and a channel's status say, for every TLS
 * client that checks certificates as a browser does (rtmps://: rtmp/tls-connect.ts).
 */
import type tls from 'node:tls';
import type { Reason } from '@opencvr/shared';

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
  if (/^(CERT_|UNABLE_TO_|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED|HOSTNAME_MISMATCH|ERROR_IN_CERT_)/.test(code)) {
    return { reason, why: { key: 'tlsCertRejected', vars: { code } } };
  }
  return undefined;
}
