/**
 * SSRC of GB/T 28181-2016 (9.2.1 / annex F convention): ten decimal digits,
 *   digit 1      0 live, 1 history (playback and download);
 *   digits 2-6   digits 4-8 of the SIP domain ID (the realm, e.g. 3402000000 → 20000);
 *   digits 7-10  a counter, unique among the sessions in use.
 * The y= line of the INVITE carries it; devices are meant to put the same value in their RTP.
 */
import { ManscdpError } from './errors.js';

export type SsrcKind = 'live' | 'history';

const PER_KIND = 10000;

/** The 32-bit RTP SSRC number of a y= value (1-10 digits; some devices drop leading zeros). */
export function ssrcNumber(y: string): number {
  const t = y.trim();
  if (!/^\d{1,10}$/.test(t) || Number(t) > 0xffffffff)
    throw new ManscdpError('bad-sdp', `SSRC "${t.slice(0, 20)}" is not a decimal 32-bit number`);
  return Number(t);
}

/** The 10-digit y= text of an SSRC number (leading zeros put back). */
export function ssrcText(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff)
    throw new ManscdpError('bad-argument', `SSRC ${n} is not a 32-bit number`);
  return String(n).padStart(10, '0');
}

export function ssrcKind(y: string): SsrcKind {
  return ssrcText(ssrcNumber(y)).startsWith('1') ? 'history' : 'live';
}

/** Hands out SSRCs per the convention and takes them back; pure (no clock, no I/O). */
export class SsrcAllocator {
  private readonly domainDigits: string;
  private readonly used: Record<SsrcKind, Set<number>> = { live: new Set(), history: new Set() };
  private readonly next: Record<SsrcKind, number> = { live: 1, history: 1 };

  /** `domain` is the realm (10 digits) or the platform's 20-digit SIP ID, whose first 10 digits are the domain. */
  constructor(domain: string) {
    const d = domain.trim();
    if (!/^\d{8,20}$/.test(d))
      throw new ManscdpError(
        'bad-argument',
        `SIP domain "${d.slice(0, 24)}" needs at least 8 digits for the SSRC convention`,
      );
    this.domainDigits = d.slice(3, 8);
  }

  /** The 10-digit SSRC for a new session; a ManscdpError when all 9,999 of that kind are in use. */
  allocate(kind: SsrcKind): string {
    const used = this.used[kind];
    if (used.size >= PER_KIND - 1)
      throw new ManscdpError('bad-argument', `all ${PER_KIND - 1} ${kind} SSRCs are in use`);
    let c = this.next[kind];
    while (used.has(c)) c = c >= PER_KIND - 1 ? 1 : c + 1;
    used.add(c);
    // Round-robin rather than lowest-free, so a just-released SSRC is not reused while late RTP of
    // the old session may still arrive.
    this.next[kind] = c >= PER_KIND - 1 ? 1 : c + 1;
    return this.text(kind, c);
  }

  /** Gives an SSRC back; false when it was not one of ours in use. */
  release(ssrc: string): boolean {
    const parsed = this.parse(ssrc);
    return parsed ? this.used[parsed.kind].delete(parsed.counter) : false;
  }

  /** Marks an SSRC as in use (e.g. one restored after a restart); false when it is not of this domain. */
  reserve(ssrc: string): boolean {
    const parsed = this.parse(ssrc);
    if (!parsed) return false;
    this.used[parsed.kind].add(parsed.counter);
    return true;
  }

  isInUse(ssrc: string): boolean {
    const parsed = this.parse(ssrc);
    return parsed ? this.used[parsed.kind].has(parsed.counter) : false;
  }

  inUse(kind: SsrcKind): number {
    return this.used[kind].size;
  }

  private text(kind: SsrcKind, counter: number): string {
    return `${kind === 'live' ? '0' : '1'}${this.domainDigits}${String(counter).padStart(4, '0')}`;
  }

  private parse(ssrc: string): { kind: SsrcKind; counter: number } | undefined {
    const t = ssrc.trim();
    if (!/^[01]\d{9}$/.test(t) || t.slice(1, 6) !== this.domainDigits) return undefined;
    const counter = Number(t.slice(6));
    if (counter < 1) return undefined;
    return { kind: t[0] === '0' ? 'live' : 'history', counter };
  }
}
