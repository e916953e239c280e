/**
 * Annex-B byte streams (H.264 and H.265 alike): NAL units separated by 00 00 01 or 00 00 00 01 start
 * codes, and the emulation-prevention bytes (00 00 03) that keep start codes out of a NAL unit.
 */

/**
 * The NAL units of an Annex-B stream, as views into `data` (no copies). Bytes before the first start
 * code are skipped, as are empty units and the zero bytes that trail a unit (trailing_zero_8bits and
 * the leading zero of a 4-byte start code). Never throws.
 */
export function splitAnnexB(data: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = -1;
  let i = 0;
  const n = data.length;
  while (i + 2 < n) {
    // Fast skip: a start code needs data[i+2] <= 1.
    if (data[i + 2] > 1) {
      i += 3;
      continue;
    }
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      if (start >= 0) push(out, data, start, i);
      i += 3;
      start = i;
      continue;
    }
    i++;
  }
  if (start >= 0) push(out, data, start, n);
  return out;
}

function push(out: Uint8Array[], data: Uint8Array, start: number, end: number): void {
  let e = end;
  while (e > start && data[e - 1] === 0) e--;
  if (e > start) out.push(data.subarray(start, e));
}

/** NAL units joined into an Annex-B stream with 4-byte start codes. */
export function joinAnnexB(nalus: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const n of nalus) size += 4 + n.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const n of nalus) {
    out[at + 3] = 1;
    out.set(n, at + 4);
    at += 4 + n.length;
  }
  return out;
}

/**
 * RBSP from a NAL unit's bytes: every 00 00 03 loses its 03. Returns `ebsp` itself when there is none.
 */
export function removeEmulationPrevention(ebsp: Uint8Array): Uint8Array {
  let count = 0;
  for (let i = 2; i < ebsp.length; i++) {
    if (ebsp[i] === 3 && ebsp[i - 1] === 0 && ebsp[i - 2] === 0) {
      count++;
      i += 2;
    }
  }
  if (count === 0) return ebsp;
  const out = new Uint8Array(ebsp.length - count);
  let o = 0;
  let zeros = 0;
  for (let i = 0; i < ebsp.length; i++) {
    const b = ebsp[i];
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    out[o++] = b;
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return out.subarray(0, o);
}

/** The inverse: insert 03 after every 00 00 that precedes a byte <= 3 (or ends the unit). */
export function addEmulationPrevention(rbsp: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (const b of rbsp) {
    if (zeros >= 2 && b <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  if (zeros >= 2) out.push(3);
  return Uint8Array.from(out);
}

/** The same bytes (or both absent): for parameter sets, which a camera may resend unchanged. */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Concatenate byte arrays into one new array (one copy). */
export function concatBytes(parts: readonly Uint8Array[], total?: number): Uint8Array {
  const size = total ?? parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export function fromHex(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, '');
  const out = new Uint8Array(clean.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}
