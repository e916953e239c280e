/**
 * A small Program Stream muxer, shaped like what GB28181 cameras send (GB/T 28181 annex C): every
 * frame starts with an MPEG-2 pack header; keyframes add a system header and a program stream map;
 * the frame follows as PES packets of at most `maxPes` bytes, the PTS (and DTS) on the first.
 * Used by the tests and the device test double; the platform itself only demuxes.
 */
import { PTS_MODULO } from './constants.js';

export interface PsMuxStream {
  /** 0xE0.. video, 0xC0.. audio. */
  streamId: number;
  /** PSM stream_type (0x1B H.264, 0x24 H.265, 0x0F AAC, 0x90 G.711A, 0x91 G.711U...). */
  streamType: number;
}

export interface PsMuxFrame {
  streamId: number;
  /** 90 kHz. */
  pts: number;
  dts?: number;
  /** Writes the system header and PSM before this frame. */
  keyframe?: boolean;
  data: Uint8Array;
}

export interface PsMuxOptions {
  /** Largest PES payload (a PES length field holds at most 65535). */
  maxPes?: number;
  /** Pack header before every frame (default true). Some devices send one per keyframe only. */
  packPerFrame?: boolean;
  /** Program stream map with keyframes (default true). */
  streamMap?: boolean;
  /** Stuffing bytes in each pack header (0-7). */
  stuffing?: number;
}

const writeTimestamp = (b: Uint8Array, at: number, prefix: number, ts: number) => {
  const t = ((ts % PTS_MODULO) + PTS_MODULO) % PTS_MODULO;
  const high = Math.floor(t / 2 ** 30);
  const mid = Math.floor(t / 2 ** 15) & 0x7fff;
  const low = t & 0x7fff;
  b[at] = (prefix << 4) | (high << 1) | 1;
  b[at + 1] = mid >> 7;
  b[at + 2] = ((mid & 0x7f) << 1) | 1;
  b[at + 3] = low >> 7;
  b[at + 4] = ((low & 0x7f) << 1) | 1;
};

export function packHeader(scr: number, muxRate = 0x3fff, stuffing = 0): Uint8Array {
  const b = new Uint8Array(14 + stuffing);
  const t = ((scr % PTS_MODULO) + PTS_MODULO) % PTS_MODULO;
  const high = Math.floor(t / 2 ** 30);
  const mid = Math.floor(t / 2 ** 15) & 0x7fff;
  const low = t & 0x7fff;
  b.set([0, 0, 1, 0xba]);
  b[4] = 0x40 | (high << 3) | 0x04 | (mid >> 13);
  b[5] = (mid >> 5) & 0xff;
  b[6] = ((mid & 0x1f) << 3) | 0x04 | (low >> 13);
  b[7] = (low >> 5) & 0xff;
  b[8] = ((low & 0x1f) << 3) | 0x04; // SCR extension 0
  b[9] = 0x01;
  b[10] = (muxRate >> 14) & 0xff;
  b[11] = (muxRate >> 6) & 0xff;
  b[12] = ((muxRate & 0x3f) << 2) | 0x03;
  b[13] = 0xf8 | stuffing;
  b.fill(0xff, 14);
  return b;
}

export function systemHeader(streams: readonly PsMuxStream[], muxRate = 0x3fff): Uint8Array {
  const b = new Uint8Array(12 + streams.length * 3);
  b.set([0, 0, 1, 0xbb]);
  const length = b.length - 6;
  b[4] = length >> 8;
  b[5] = length & 0xff;
  b[6] = 0x80 | ((muxRate >> 15) & 0x7f);
  b[7] = (muxRate >> 7) & 0xff;
  b[8] = ((muxRate & 0x7f) << 1) | 1;
  const audio = streams.filter((s) => s.streamId < 0xe0).length;
  const video = streams.length - audio;
  b[9] = (audio << 2) | 0; // audio_bound, fixed 0, CSPS 0
  b[10] = 0xe0 | video; // locks, marker, video_bound
  b[11] = 0x7f;
  streams.forEach((s, i) => {
    const at = 12 + i * 3;
    const video = s.streamId >= 0xe0;
    const size = video ? 1024 : 32; // P-STD buffer in 1024- or 128-byte units
    b[at] = s.streamId;
    b[at + 1] = 0xc0 | (video ? 0x20 : 0) | (size >> 8);
    b[at + 2] = size & 0xff;
  });
  return b;
}

export function streamMap(streams: readonly PsMuxStream[], version = 0): Uint8Array {
  const length = 6 + 4 * streams.length + 4 + 4;
  const b = new Uint8Array(6 + length);
  b.set([0, 0, 1, 0xbc]);
  b[4] = length >> 8;
  b[5] = length & 0xff;
  b[6] = 0x80 | (version & 0x1f);
  b[7] = 0x01;
  b[8] = 0;
  b[9] = 0;
  const mapLength = 4 * streams.length;
  b[10] = mapLength >> 8;
  b[11] = mapLength & 0xff;
  streams.forEach((s, i) => {
    b[12 + i * 4] = s.streamType;
    b[13 + i * 4] = s.streamId;
  });
  // CRC_32 left 0: the demuxer does not check it (devices often get it wrong).
  return b;
}

export function pesPacket(streamId: number, payload: Uint8Array, pts?: number, dts?: number): Uint8Array {
  const withDts = pts !== undefined && dts !== undefined && dts !== pts;
  const hdl = pts === undefined ? 0 : withDts ? 10 : 5;
  const length = 3 + hdl + payload.length;
  if (length > 0xffff) throw new RangeError(`PES payload of ${payload.length} bytes does not fit`);
  const b = new Uint8Array(6 + length);
  b.set([0, 0, 1, streamId, length >> 8, length & 0xff, 0x80, pts === undefined ? 0 : withDts ? 0xc0 : 0x80, hdl]);
  if (pts !== undefined) writeTimestamp(b, 9, withDts ? 3 : 2, pts);
  if (withDts) writeTimestamp(b, 14, 1, dts!);
  b.set(payload, 9 + hdl);
  return b;
}

export class PsMuxer {
  private readonly maxPes: number;
  private readonly packPerFrame: boolean;
  private readonly withMap: boolean;
  private readonly stuffing: number;

  constructor(
    readonly streams: readonly PsMuxStream[],
    options: PsMuxOptions = {},
  ) {
    this.maxPes = Math.max(1, Math.min(0xffff - 13, options.maxPes ?? 0xffff - 13));
    this.packPerFrame = options.packPerFrame ?? true;
    this.withMap = options.streamMap ?? true;
    this.stuffing = Math.max(0, Math.min(7, options.stuffing ?? 0));
  }

  /** The PS bytes of one frame. */
  frame(f: PsMuxFrame): Uint8Array {
    const parts: Uint8Array[] = [];
    if (this.packPerFrame || f.keyframe) parts.push(packHeader(f.dts ?? f.pts, 0x3fff, this.stuffing));
    if (f.keyframe) {
      parts.push(systemHeader(this.streams));
      if (this.withMap) parts.push(streamMap(this.streams));
    }
    for (let at = 0; at < f.data.length || at === 0; at += this.maxPes) {
      const chunk = f.data.subarray(at, Math.min(f.data.length, at + this.maxPes));
      parts.push(at === 0 ? pesPacket(f.streamId, chunk, f.pts, f.dts) : pesPacket(f.streamId, chunk));
      if (!f.data.length) break;
    }
    let size = 0;
    for (const p of parts) size += p.length;
    const out = new Uint8Array(size);
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}
