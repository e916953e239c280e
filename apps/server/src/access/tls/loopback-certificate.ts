/**
 * The certificate the pull gateway (media/ingest/pull-gateway.ts) shows ffmpeg on loopback, where it
 * stands in for https:// servers whose real certificates it has checked itself. ffmpeg does not check
 * it (its tls_verify is off), and it vouches for nothing: made in memory once per process, its key
 * never written anywhere. Node makes no certificates; @peculiar/x509 does (werift makes its DTLS ones so).
 */
import crypto from 'node:crypto';
import * as x509 from '@peculiar/x509';

let made: Promise<{ key: string; cert: string }> | undefined;

/** A self-signed P-256 certificate for 127.0.0.1 and its key, PEM. */
export function loopbackCertificate(): Promise<{ key: string; cert: string }> {
  made ??= make();
  return made;
}

async function make() {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: crypto.randomBytes(8).toString('hex'),
      name: 'CN=OpenCVR pull gateway',
      notBefore: new Date(now - 3_600_000),
      // Valid for ten years: the process restarts long before (a new one each start).
      notAfter: new Date(now + 10 * 365 * 86_400_000),
      signingAlgorithm: algorithm,
      keys,
      extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'ip', value: '127.0.0.1' }])],
    },
    crypto.webcrypto,
  );
  const key = crypto.KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }) as string;
  return { key, cert: cert.toString('pem') };
}
