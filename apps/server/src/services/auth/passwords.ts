/**
 * Stored passwords: the console sends md5(password) as EasyCVR's does; we keep an argon2id hash of
 * that digest, so the digest alone (as leaked from a log or an old backup) is never what is stored.
 */
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id minimum (19 MiB, 2 passes) keeps a login around 20-30 ms on this machine.
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const md5Hex = (s: string) => crypto.createHash('md5').update(s, 'utf8').digest('hex');

export function hashPasswordDigest(md5hex: string): Promise<string> {
  return hash(md5hex.toLowerCase(), OPTIONS);
}

export async function verifyPasswordDigest(stored: string, md5hex: string): Promise<boolean> {
  try {
    return await verify(stored, md5hex.toLowerCase());
  } catch {
    return false;
  }
}
