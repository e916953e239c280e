/**
 * Byte fixtures made by fixtures/make.sh (Debian ffmpeg 5.1: libx264, libx265, native aac encoder) and
 * ffprobe's answer for each (fixtures/ffprobe.json, written by the same script). Parameter sets seen
 * in real SDP answers are kept as base64 with their source.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export interface Probe {
  codec_name: string;
  profile: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  level?: number;
  r_frame_rate: string;
  sample_rate?: string;
  channels?: number;
  nb_read_frames: string;
  /** key_frame of each frame, as 0/1 characters. */
  keyframes: string;
  avcC?: string;
  hvcC?: string;
  esds?: string;
}

export const PROBES: Record<string, Probe> = JSON.parse(fs.readFileSync(path.join(dir, 'ffprobe.json'), 'utf8'));

export const fixture = (name: string): Uint8Array => new Uint8Array(fs.readFileSync(path.join(dir, name)));

export const fixturesOf = (ext: string): string[] => Object.keys(PROBES).filter((n) => n.endsWith(ext));

export const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));

/** SPS from SDP answers: size known from the source, not from a probe. */
export const SDP_SPS = [
  {
    name: 'GStreamer 1.22 x264enc (apps/server/test/fixtures/rtsp-camera.py: 320x240 at 15/1)',
    sps: 'Z0LADNoFB+wFqDAwNSgAAAMACAAAAwD0eKFV',
    width: 320,
    height: 240,
    profileIdc: 66,
    levelIdc: 12,
    codecString: 'avc1.42c00c',
  },
  {
    name: 'Hikvision camera (webrtc-streamer issue 138, a=x-dimensions:1280,720)',
    sps: 'Z00AH52oFAFum4CAgKAAAAMAIAAABlCA',
    width: 1280,
    height: 720,
    profileIdc: 77,
    levelIdc: 31,
    codecString: 'avc1.4d001f',
  },
];
