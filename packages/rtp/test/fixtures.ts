/**
 * RTP captured from ffmpeg's own RTP muxer (test/fixtures/capture.mjs: the command of each capture is
 * there) and the elementary streams they were sent from (packages/codec/test/fixtures, made by its
 * make.sh, with ffprobe's answer in ffprobe.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isH264Vcl, isH265Vcl, splitAnnexB } from '@opencvr/codec';
import { parseSdp, type Sdp } from '@opencvr/rtsp';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.join(here, 'fixtures');
const codecDir = path.join(here, '../../codec/test/fixtures');

/** Packets of NAME.rtp or NAME.rtcp: each stored as a 2-byte big-endian length then its bytes. */
export function capture(file: string): Uint8Array[] {
  const b = new Uint8Array(fs.readFileSync(path.join(dir, file)));
  const out: Uint8Array[] = [];
  for (let at = 0; at + 2 <= b.length; ) {
    const n = (b[at] << 8) | b[at + 1];
    out.push(b.subarray(at + 2, at + 2 + n));
    at += 2 + n;
  }
  return out;
}

export const captureSdp = (name: string): Sdp => parseSdp(fs.readFileSync(path.join(dir, `${name}.sdp`), 'utf8'));

export const elementary = (file: string): Uint8Array => new Uint8Array(fs.readFileSync(path.join(codecDir, file)));

export const PROBES: Record<string, { width?: number; height?: number; nb_read_frames: string; keyframes: string; sample_rate?: string; channels?: number }> = JSON.parse(
  fs.readFileSync(path.join(codecDir, 'ffprobe.json'), 'utf8'),
);

export interface Frame {
  pts: number;
  nalus: Uint8Array[];
}

/**
 * Access units of an Annex-B fixture: the encoders here write one slice per picture, so a unit ends
 * after each VCL NAL unit. pts are 90 kHz ticks at `fps`, in decoding order (what RTP carries).
 */
export function accessUnits(file: string, fps = 25): Frame[] {
  const isVcl = file.endsWith('.h265') ? isH265Vcl : isH264Vcl;
  const out: Frame[] = [];
  let cur: Uint8Array[] = [];
  for (const n of splitAnnexB(elementary(file))) {
    cur.push(n);
    if (isVcl(n)) {
      out.push({ pts: out.length * (90000 / fps), nalus: cur });
      cur = [];
    }
  }
  return out;
}

export const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
