/** Fixture streams as tracks and access units (see ../fixtures/make.sh for how they were made). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AudioAccessUnit, AudioTrack, VideoAccessUnit, VideoCodec, VideoTrack } from '@opencvr/codec';
import { readAdts } from './adts.js';
import { accessUnits, nalType, splitNalus } from './annexb.js';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));

export interface VideoStream {
  track: VideoTrack;
  units: VideoAccessUnit[];
}

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

export function videoStream(codec: VideoCodec, name: string): VideoStream {
  const aus = accessUnits(codec, splitNalus(fixture(name)));
  const timing = fs
    .readFileSync(path.join(FIXTURES, name.replace(/\.\w+$/, '.timing.csv')), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const [pts, dts, flags] = l.split(',');
      return { pts: Number(pts), dts: Number(dts), key: flags.startsWith('K') };
    });
  if (timing.length !== aus.length) throw new Error(`${name}: ${aus.length} access units, ${timing.length} timing rows`);
  const all = aus.flat();
  const ps = (t: number) => {
    const nal = all.find((n) => nalType(codec, n) === t);
    if (!nal) throw new Error(`${name}: no NAL unit of type ${t}`);
    return nal;
  };
  const sps = ps(codec === 'h264' ? 7 : 33);
  const track: VideoTrack = {
    kind: 'video',
    codec,
    sps,
    pps: ps(codec === 'h264' ? 8 : 34),
    vps: codec === 'h265' ? ps(32) : undefined,
    width: 320,
    height: 240,
    codecString: codec === 'h264' ? `avc1.${hex2(sps[1])}${hex2(sps[2])}${hex2(sps[3])}` : 'hvc1.1.6.L60.90',
    clockRate: 90000,
  };
  const units = aus.map((nalus, i): VideoAccessUnit => ({ kind: 'video', nalus, ...timing[i], keyframe: timing[i].key }));
  for (const u of units) delete (u as { key?: boolean }).key;
  return { track, units };
}

export interface AudioStream {
  track: AudioTrack;
  units: AudioAccessUnit[];
}

/** AAC frames from ADTS, pts = start + 1024 per frame. */
export function aacStream(name: string, start = 0): AudioStream {
  const adts = readAdts(fixture(name));
  return {
    track: {
      kind: 'audio',
      codec: 'aac',
      sampleRate: adts.sampleRate,
      channels: adts.channels,
      config: adts.config,
      codecString: `mp4a.40.${adts.objectType}`,
      clockRate: adts.sampleRate,
    },
    units: adts.frames.map((data, i) => ({ kind: 'audio', pts: start + i * 1024, data })),
  };
}

/** G.711 A-law 8 kHz mono cut into 20 ms packets (160 bytes), as RTP would carry it. */
export function alawStream(name: string, start = 0): AudioStream {
  const bytes = fixture(name);
  const units: AudioAccessUnit[] = [];
  for (let p = 0; p < bytes.length; p += 160) units.push({ kind: 'audio', pts: start + p, data: bytes.subarray(p, p + 160) });
  return {
    track: { kind: 'audio', codec: 'pcma', sampleRate: 8000, channels: 1, config: new Uint8Array(0), codecString: 'alaw', clockRate: 8000 },
    units,
  };
}
