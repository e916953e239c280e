/**
 * The part shared by the H.264 and H.265 depacketisers: access units that end on the marker bit or a
 * timestamp change, fragmented units reassembled, and loss handling. A sequence gap or a fragment
 * without its start drops the broken NAL unit (never the stream) and marks the access units it may
 * have touched `damaged`.
 *
 * Bytes: payloads may be views of a reused read buffer (see Depacketiser), so every NAL unit is copied
 * once, as it arrives, into one growing assembly buffer for the access unit; when the unit is complete
 * it is copied out once and its NAL units are views of that one copy (a keyframe's own buffer, or a
 * slice of a block shared by the stream's next units: see ARENA_BYTES), or, with `lendUnits`, lent
 * from the assembly buffer itself until the next push. A packet is read by offsets (pushView) and
 * allocates nothing; an access unit allocates its few objects.
 *
 * With an AssemblyMemory (useMemory: the hub's GOP store), the unit is assembled in that memory
 * instead, and once complete it stays there: the one copy of its bytes is the one from the packets.
 */
import type { VideoAccessUnit } from '@opencvr/codec';
import { follows, NOTHING, type AssemblyMemory, type Depacketiser, type DepacketiserLimits } from './depacketiser.js';
import { viewOf, type RtpPacket, type RtpView } from './packet.js';
import { TimestampUnwrapper } from './reorder.js';

/** What a payload is, as told by the codec's classify(). */
export const Payload = {
  /** One NAL unit: the whole payload. */
  Single: 0,
  /** Aggregation packet: 16-bit size then unit, from `aggregateStart` to the end (sizes checked). */
  Aggregate: 1,
  /** A fragment of one NAL unit: `fragment*` fields describe it. */
  Fragment: 2,
} as const;
export type Payload = (typeof Payload)[keyof typeof Payload];

/** First size of the assembly buffer; it doubles up to the limits as units need. */
const INITIAL_ASSEMBLY_BYTES = 64 * 1024;
/**
 * Finished access units are carved out of shared blocks of this size rather than each given an
 * ArrayBuffer of its own: a 1080p25 stream makes 25 units a second, held by the hub's GOP cache for
 * a GOP, so each survives into V8's old generation and is freed only by a full collection; V8
 * schedules those by the external bytes allocated, and one buffer per unit also costs an allocation,
 * a zero fill and a free each. One block per ~15 P-frames cut the hub's CPU per stream by about a
 * quarter (bench live, 16 streams). A block lives while any unit in it is referenced: at most one
 * block more than the units themselves per stream.
 */
const ARENA_BYTES = 256 * 1024;
/** Units larger than this (keyframes) get their own buffer: they would leave most of a block unused. */
const ARENA_MAX_UNIT = ARENA_BYTES / 4;

/**
 * The typed-array methods of the per-packet copy, called through constants: written as a.set(...) and
 * b.subarray(...) both loads went through V8's generic LoadIC in optimised code (perf of the server at
 * 16 streams: Builtins_LoadIC ~3 % of the process, under pushView), once each per RTP packet.
 */
const setBytes = Uint8Array.prototype.set;
const subarrayOf = Uint8Array.prototype.subarray;

export abstract class NalDepacketiser implements Depacketiser<VideoAccessUnit> {
  private readonly unwrapper = new TimestampUnwrapper();
  private readonly maxUnitBytes: number;
  private readonly maxAccessUnitBytes: number;
  private readonly maxNalus: number;
  private lastSeq = -1;
  /**
   * The access unit being assembled, from `base`: its NAL units back to back, then the fragment in
   * progress. The depacketiser's own buffer (base 0), or the memory's while one is used.
   */
  private assembly: Uint8Array = new Uint8Array(0);
  private base = 0;
  private memory?: AssemblyMemory;
  /** useMemory() while a unit was in progress: the memory to switch to once it is complete. */
  private nextMemory?: AssemblyMemory;
  private switching = false;
  /** lendUnits: the buffer of the unit last lent; the two swap at each unit. */
  private spare: Uint8Array = new Uint8Array(0);
  private readonly lend: boolean;
  /** Bytes of whole NAL units in `assembly`; `nalEnds` marks where each ends. */
  private auBytes = 0;
  private nalEnds: number[] = [];
  private auActive = false;
  private auTs = 0;
  private damaged = false;
  /** Bytes of the fragmented NAL unit in progress, after the whole ones. */
  private fragmentBytes = 0;
  private inFragment = false;
  /** Where finished access units are copied to (see unitBytes); `arenaUsed` bytes of it are taken. */
  private arena = new Uint8Array(0);
  private arenaUsed = 0;

  /** Set by classify() for Payload.Fragment. */
  protected fragmentStart = false;
  protected fragmentEnd = false;
  /** The rebuilt NAL header, big-endian in `fragmentHeaderLength` bytes (1 for H.264, 2 for H.265). */
  protected fragmentHeader = 0;
  protected fragmentHeaderLength = 1;
  /** Where the fragment's data starts in the payload's bytes. */
  protected fragmentDataStart = 0;
  /** Set by classify() for Payload.Aggregate: where the first size field is. */
  protected aggregateStart = 0;

  constructor(limits: DepacketiserLimits = {}) {
    this.maxUnitBytes = limits.maxUnitBytes ?? 4 << 20;
    this.maxAccessUnitBytes = limits.maxAccessUnitBytes ?? 16 << 20;
    this.maxNalus = limits.maxNalus ?? 1024;
    this.lend = limits.lendUnits ?? false;
  }

  /**
   * What the payload b[start, end) is; throws RtpError when it is malformed or not supported, before
   * anything changes (aggregation sizes are all checked here).
   */
  protected abstract classify(b: Uint8Array, start: number, end: number): Payload;
  protected abstract isKeyframe(nal: Uint8Array): boolean;

  push(packet: RtpPacket): readonly VideoAccessUnit[] {
    return this.pushView(viewOf(packet));
  }

  pushView(packet: RtpView): readonly VideoAccessUnit[] {
    const b = packet.bytes;
    const start = packet.payloadStart;
    const end = packet.payloadEnd;
    const kind = this.classify(b, start, end);
    let out: readonly VideoAccessUnit[] = NOTHING;
    const gap = !follows(packet.sequenceNumber, this.lastSeq);
    this.lastSeq = packet.sequenceNumber;
    const ts = this.unwrapper.unwrap(packet.timestamp);
    if (gap) {
      this.dropFragment();
      this.damaged = true;
    }
    if (this.auActive && ts !== this.auTs) {
      this.dropFragment();
      out = this.emit(out);
      this.damaged = gap;
    }
    if (!this.auActive) {
      this.auActive = true;
      this.auTs = ts;
    }
    if (kind === Payload.Fragment) {
      this.fragment(b, end);
    } else {
      if (this.inFragment) {
        this.dropFragment();
        this.damaged = true;
      }
      if (kind === Payload.Single) this.add(b, start, end);
      else {
        for (let i = this.aggregateStart; i < end; ) {
          const size = (b[i] << 8) | b[i + 1];
          this.add(b, i + 2, i + 2 + size);
          i += 2 + size;
        }
      }
    }
    if (packet.marker) {
      if (this.inFragment) {
        this.dropFragment();
        this.damaged = true;
      }
      out = this.emit(out);
    }
    return out;
  }

  useMemory(memory: AssemblyMemory | undefined): void {
    this.nextMemory = memory;
    this.switching = true;
    if (!this.auActive && this.auBytes === 0 && this.fragmentBytes === 0) this.switchMemory();
  }

  /** Between units: assemble the next one in `nextMemory` (or again in own buffers). */
  private switchMemory(): void {
    this.switching = false;
    this.memory = this.nextMemory;
    this.nextMemory = undefined;
    if (this.memory) {
      this.assembly = this.memory.bytes;
      this.base = this.memory.base;
      this.spare = new Uint8Array(0);
    } else {
      this.assembly = new Uint8Array(0);
      this.base = 0;
    }
  }

  flush(): readonly VideoAccessUnit[] {
    if (this.inFragment) {
      this.dropFragment();
      this.damaged = true;
    }
    return this.emit([]);
  }

  private fragment(b: Uint8Array, end: number): void {
    const dataStart = this.fragmentDataStart;
    const dataLength = end - dataStart;
    if (this.fragmentStart) {
      if (this.inFragment) {
        this.dropFragment();
        this.damaged = true;
      }
      const hl = this.fragmentHeaderLength;
      if (hl + dataLength > this.maxUnitBytes) {
        this.damaged = true;
        return;
      }
      this.inFragment = true;
      const at = this.reserve(hl + dataLength); // before reading this.assembly: reserve() may move it
      if (hl === 2) {
        this.assembly[at] = this.fragmentHeader >> 8;
        this.assembly[at + 1] = this.fragmentHeader & 0xff;
      } else this.assembly[at] = this.fragmentHeader;
      this.copyIn(b, dataStart, end, at + hl);
      this.fragmentBytes = hl + dataLength;
    } else if (!this.inFragment) {
      // A middle or end without its start: the unit is broken; its other fragments are ignored.
      this.damaged = true;
      return;
    } else {
      if (this.fragmentBytes + dataLength > this.maxUnitBytes) {
        this.dropFragment();
        this.damaged = true;
        return;
      }
      const at = this.reserve(dataLength); // before reading this.assembly: reserve() may grow it
      this.copyIn(b, dataStart, end, at);
      this.fragmentBytes += dataLength;
    }
    if (this.fragmentEnd) {
      const size = this.fragmentBytes;
      this.dropFragment();
      if (this.fits(size)) this.keep(size);
    }
  }

  private dropFragment(): void {
    this.inFragment = false;
    this.fragmentBytes = 0;
  }

  /** Room for `n` more bytes after the whole units and the fragment in progress; returns where in `assembly`. */
  private reserve(n: number): number {
    const have = this.auBytes + this.fragmentBytes;
    if (this.base + have + n > this.assembly.length) {
      if (this.memory) {
        this.memory.ensure(have, have + n);
        this.assembly = this.memory.bytes;
        this.base = this.memory.base;
      } else {
        const grown = new Uint8Array(Math.max(have + n, this.assembly.length * 2, INITIAL_ASSEMBLY_BYTES));
        grown.set(this.assembly.subarray(0, have));
        this.assembly = grown;
      }
    }
    return this.base + have;
  }

  /** Copies b[start, end) to assembly[at...]: short runs byte by byte (no view object), long ones with set(). */
  private copyIn(b: Uint8Array, start: number, end: number, at: number): void {
    const a = this.assembly;
    if (end - start <= 64) {
      for (let i = start; i < end; i++) a[at++] = b[i];
    } else setBytes.call(a, subarrayOf.call(b, start, end), at);
  }

  /** One more NAL unit of `size` bytes keeps the access unit within its limits (else it is damaged). */
  private fits(size: number): boolean {
    if (this.nalEnds.length >= this.maxNalus || this.auBytes + size > this.maxAccessUnitBytes) {
      this.damaged = true;
      return false;
    }
    return true;
  }

  /** The `size` bytes after the whole units become one more whole unit. */
  private keep(size: number): void {
    this.auBytes += size;
    this.nalEnds.push(this.auBytes);
  }

  /** A whole NAL unit b[start, end) from one packet (single or aggregated): copied in. */
  private add(b: Uint8Array, start: number, end: number): void {
    const size = end - start;
    if (size === 0 || !this.fits(size)) return;
    const at = this.reserve(size); // before reading this.assembly: reserve() may grow it
    this.copyIn(b, start, end, at);
    this.keep(size);
  }

  /** A copy of assembly[0, n) for a finished unit: its own buffer when large, else a view into the current block. */
  private unitBytes(n: number): Uint8Array {
    if (this.lend) {
      // Lent: the unit is the assembly buffer itself, and the next unit is assembled in the other one,
      // so both units a packet may complete (timestamp change, then marker) stay whole until the next push.
      const lent = this.assembly;
      this.assembly = this.spare;
      this.spare = lent;
      return lent.subarray(0, n);
    }
    if (n > ARENA_MAX_UNIT) return this.assembly.slice(0, n);
    if (this.arenaUsed + n > this.arena.length) {
      this.arena = new Uint8Array(ARENA_BYTES);
      this.arenaUsed = 0;
    }
    const at = this.arenaUsed;
    const bytes = this.arena.subarray(at, at + n);
    bytes.set(this.assembly.subarray(0, n));
    // The next unit starts 8-aligned (nothing needs it; it keeps units apart by a few bytes at most).
    this.arenaUsed = Math.min(this.arena.length, at + ((n + 7) & ~7));
    return bytes;
  }

  /** `out` plus the unit just completed, if any (a new array: `out` may be the shared NOTHING). */
  private emit(out: readonly VideoAccessUnit[]): readonly VideoAccessUnit[] {
    if (this.nalEnds.length > 0) {
      const bytes = this.memory ? this.assembly.subarray(this.base, this.base + this.auBytes) : this.unitBytes(this.auBytes);
      const nalus: Uint8Array[] = new Array(this.nalEnds.length);
      let keyframe = false;
      for (let i = 0, start = 0; i < this.nalEnds.length; i++) {
        const nal = bytes.subarray(start, this.nalEnds[i]);
        nalus[i] = nal;
        if (!keyframe && this.isKeyframe(nal)) keyframe = true;
        start = this.nalEnds[i];
      }
      const au: VideoAccessUnit = { kind: 'video', pts: this.auTs, dts: this.auTs, keyframe, nalus };
      if (this.damaged) au.damaged = true;
      out = out.length ? [...out, au] : [au];
      if (this.memory) {
        this.memory.commit(this.auBytes);
        this.assembly = this.memory.bytes;
        this.base = this.memory.base;
      }
    }
    this.auBytes = 0;
    this.nalEnds.length = 0;
    this.auActive = false;
    this.damaged = false;
    if (this.switching) this.switchMemory();
    return out;
  }
}
