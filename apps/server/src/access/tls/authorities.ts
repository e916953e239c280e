/**
 * The certificate authorities a TLS client of ours trusts (rtmps://: rtmp/tls-connect.ts; rtsps://:
 * rtsps-trust.ts): Node's bundled ones (Mozilla's), the system's bundle (what update-ca-certificates
 * made, so a site's CA installed the system's way counts), NODE_EXTRA_CA_CERTS, and the setting's
 * own PEM file (RTMPS_CA_FILE, RTSPS_CA_FILE: a site's private CA, or a server's own certificate).
 * Passing any `ca` replaces Node's default store, NODE_EXTRA_CA_CERTS included: hence all of them here.
 */
import fs from 'node:fs';
import tls from 'node:tls';

/** The system's bundle: Debian and Ubuntu, RHEL and Fedora, Alpine (the first that is there). */
const SYSTEM_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export interface AuthoritiesFor {
  /** The setting that named `caFile`, for its errors ("RTMPS_CA_FILE"). */
  setting: string;
  /** The scheme it is for, for a bundle that cannot be read ("rtmps://"). */
  scheme: string;
}

/**
 * One context for every connection of a scheme: the bundles are read once (some hundred
 * certificates). Throws with the file's problem when `caFile` cannot be read or holds no certificate.
 */
export function trustedAuthorities(caFile: string | undefined, what: AuthoritiesFor): tls.SecureContext {
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
      throw new Error(`${what.setting}: cannot read ${caFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    const own = certificatesIn(text);
    if (!own.length) throw new Error(`${what.setting}: ${caFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
    cas.push(...own);
  }
  try {
    return tls.createSecureContext({ ca: cas });
  } catch (err) {
    throw new Error(`${what.scheme} trust: a certificate of ${caFile ?? "the system's bundle"} could not be read (${(err as Error).message})`);
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
