/**
 * SHA-256 certificate fingerprints as Node writes them (X509Certificate.fingerprint256,
 * getPeerCertificate().fingerprint256): 32 upper-case hex pairs joined by ':'. The pins are stored
 * so (channels.tls_pin) and compared as text, so what an administrator types is brought to that form.
 */

/** 64 hex digits, bare or as 32 pairs joined by ':' (either case). */
export const FINGERPRINT_RE = /^(?:[0-9a-f]{64}|[0-9a-f]{2}(?::[0-9a-f]{2}){31})$/i;

/** A fingerprint FINGERPRINT_RE accepts, in Node's form ('AB:CD:…'). */
export function normalFingerprint(s: string): string {
  return s
    .replace(/:/g, '')
    .toUpperCase()
    .match(/../g)!
    .join(':');
}
