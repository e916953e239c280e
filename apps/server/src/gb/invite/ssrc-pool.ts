/**
 * SSRCs of the platform's media sessions (GB/T 28181-2016 9.2.1 convention: 0 live / 1 history,
 * domain digits 4-8, a counter), one allocator per SIP domain: the realm may change in the settings
 * while sessions made under the old one are still running, and each SSRC goes back to the allocator
 * it came from.
 */
import { SsrcAllocator, type SsrcKind } from '@opencvr/manscdp';

export interface HeldSsrc {
  /** The 10-digit y= value. */
  text: string;
  /** Gives it back (idempotent). */
  release(): void;
}

export class SsrcPool {
  private readonly allocators = new Map<string, SsrcAllocator>();

  /** A fresh SSRC of the kind under the realm; a ManscdpError when all 9,999 are in use. */
  allocate(kind: SsrcKind, realm: string): HeldSsrc {
    let a = this.allocators.get(realm);
    if (!a) this.allocators.set(realm, (a = new SsrcAllocator(realm)));
    const text = a.allocate(kind);
    let held = true;
    return {
      text,
      release: () => {
        if (!held) return;
        held = false;
        a.release(text);
      },
    };
  }

  /** SSRCs in use (all realms). */
  inUse(kind: SsrcKind): number {
    let n = 0;
    for (const a of this.allocators.values()) n += a.inUse(kind);
    return n;
  }
}
