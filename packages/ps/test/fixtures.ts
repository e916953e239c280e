import fs from 'node:fs';
import path from 'node:path';

const DIR = path.join(import.meta.dirname, 'fixtures');

export const fixture = (name: string): Uint8Array => new Uint8Array(fs.readFileSync(path.join(DIR, name)));

export const hexFixture = (name: string): Uint8Array =>
  Uint8Array.from(
    fs
      .readFileSync(path.join(DIR, name), 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map((h) => parseInt(h, 16)),
  );

/** `data` cut into chunks of `size` bytes (RTP payloads, TCP reads). */
export function chunks(data: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) out.push(data.subarray(at, at + size));
  return out;
}
