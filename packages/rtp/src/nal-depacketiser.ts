/**
 * The part shared by the H.264 and H.265 depacketisers: access units that end on the marker bit or a
 * timestamp change, fragmented units reassembled with one copy at the end, and loss handling. A
 * sequence gap or a fragment without its start drops the broken NAL unit (never the stream) and marks
 * the access units it may have touched `damaged`.
 */
import { concatBytes, type VideoAccessUnit } from '@opencvr/codec';
import { follows, type Depacketiser, type DepacketiserLimits } from './depacketiser.js';
import type { RtpPacket } from './packet.js';
import { TimestampUnwrapper } from './reorder.js';

export type NalPayload =
  | { kind: 'nalus'; nalus: Uint8Array[] }
  | { kind: 'fragment'; start: boolean; end: boolean; /** the rebuilt NAL header */ header: Uint8Array; data: Uint8Array };

export abstract class NalDepacketiser implements Depacketiser<VideoAccessUnit> {
  private readonly unwrapper = new TimestampUnwrapper();
  private readonly maxUnitBytes: number;
  private readonly maxAccessUnitBytes: number;
  private readonly maxNalus: number;
  private lastSeq = -1;
  private nalus: Uint8Array[] = [];
  private auBytes = 0;
  private auActive = false;
  private auTs = 0;
  private damaged = false;
  private fragments: Uint8Array[] = [];
  private fragmentBytes = 0;
  private inFragment = false;

  constructor(limits: DepacketiserLimits = {}) {
    this.maxUnitBytes = limits.maxUnitBytes ?? 4 << 20;
    this.maxAccessUnitBytes = limits.maxAccessUnitBytes ?? 16 << 20;
    this.maxNalus = limits.maxNalus ?? 1024;
  }

  /** Splits one RTP payload; throws RtpError when it is malformed or not supported. */
  protected abstract parse(payload: Uint8Array): NalPayload;
  protected abstract isKeyframe(nal: Uint8Array): boolean;

  push(packet: RtpPacket): VideoAccessUnit[] {
    const parsed = this.parse(packet.payload);
    const out: VideoAccessUnit[] = [];
    const gap = !follows(packet.sequenceNumber, this.lastSeq);
    this.lastSeq = packet.sequenceNumber;
    const ts = this.unwrapper.unwrap(packet.timestamp);
    if (gap) {
      this.dropFragment();
      this.damaged = true;
    }
    if (this.auActive && ts !== this.auTs) {
      this.dropFragment();
      this.emit(out);
      this.damaged = gap;
    }
    if (!this.auActive) {
      this.auActive = true;
      this.auTs = ts;
    }
    if (parsed.kind === 'nalus') {
      if (this.inFragment) {
        this.dropFragment();
        this.damaged = true;
      }
      for (const n of parsed.nalus) this.add(n);
    } else {
      this.fragment(parsed);
    }
    if (packet.marker) {
      if (this.inFragment) {
        this.dropFragment();
        this.damaged = true;
      }
      this.emit(out);
    }
    return out;
  }

  flush(): VideoAccessUnit[] {
    const out: VideoAccessUnit[] = [];
    if (this.inFragment) {
      this.dropFragment();
      this.damaged = true;
    }
    this.emit(out);
    return out;
  }

  private fragment(f: Extract<NalPayload, { kind: 'fragment' }>): void {
    if (f.start) {
      if (this.inFragment) {
        this.dropFragment();
        this.damaged = true;
      }
      this.inFragment = true;
      this.fragments = [f.header, f.data];
      this.fragmentBytes = f.header.length + f.data.length;
    } else if (!this.inFragment) {
      // A middle or end without its start: the unit is broken; its other fragments are ignored.
      this.damaged = true;
      return;
    } else {
      this.fragments.push(f.data);
      this.fragmentBytes += f.data.length;
    }
    if (this.fragmentBytes > this.maxUnitBytes) {
      this.dropFragment();
      this.damaged = true;
      return;
    }
    if (f.end) {
      const nal = concatBytes(this.fragments, this.fragmentBytes);
      this.dropFragment();
      this.add(nal);
    }
  }

  private dropFragment(): void {
    this.inFragment = false;
    this.fragments = [];
    this.fragmentBytes = 0;
  }

  private add(nal: Uint8Array): void {
    if (nal.length === 0) return;
    if (this.nalus.length >= this.maxNalus || this.auBytes + nal.length > this.maxAccessUnitBytes) {
      this.damaged = true;
      return;
    }
    this.nalus.push(nal);
    this.auBytes += nal.length;
  }

  private emit(out: VideoAccessUnit[]): void {
    if (this.nalus.length > 0) {
      const au: VideoAccessUnit = { kind: 'video', pts: this.auTs, dts: this.auTs, keyframe: this.nalus.some((n) => this.isKeyframe(n)), nalus: this.nalus };
      if (this.damaged) au.damaged = true;
      out.push(au);
    }
    this.nalus = [];
    this.auBytes = 0;
    this.auActive = false;
    this.damaged = false;
  }
}
