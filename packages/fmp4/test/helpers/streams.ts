/** Fixture streams as tracks and access units (see ../fixtures/make.sh for how they were made). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  aacTrack,
  adtsToAudioSpecificConfig,
  g711Track,
  splitAdts,
  splitAnnexB,
  videoTrackFromParameterSets,
  type AudioAccessUnit,
  type AudioTrack,
  type VideoAccessUnit,
  type VideoCodec,
  type VideoTrack,
} from '@opencvr/codec';
import { accessUnits, nalType } from './annexb.js';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));

export interface VideoStream {
  track: VideoTrack;
  units: VideoAccessUnit[];
}

export function videoStream(codec: VideoCodec, name: string): VideoStream {
  const aus = accessUnits(codec, splitAnnexB(fixture(name)));
  const timing = fs
    .readFileSync(path.join(FIXTURES, name.replace(/\.\w+$/, '.timing.csv')), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const [pts, dts, flags] = l.split(',');
      return { pts: Number(pts), dts: Number(dts), key: flags.startsWith('K') };
    });
  if (timing.length !== aus.length)
    throw new Error(`${name}: ${aus.length} access units, ${timing.length} timing rows`);
  const all = aus.flat();
  const ps = (t: number) => {
    const nal = all.find((n) => nalType(codec, n) === t);
    if (!nal) throw new Error(`${name}: no NAL unit of type ${t}`);
    return nal;
  };
  const track = videoTrackFromParameterSets(codec, {
    sps: ps(codec === 'h264' ? 7 : 33),
    pps: ps(codec === 'h264' ? 8 : 34),
    vps: codec === 'h265' ? ps(32) : undefined,
  });
  const units = aus.map((nalus, i): VideoAccessUnit => ({
    kind: 'video',
    nalus,
    ...timing[i],
    keyframe: timing[i].key,
  }));
  for (const u of units) delete (u as { key?: boolean }).key;
  return { track, units };
}

export interface AudioStream {
  track: AudioTrack;
  units: AudioAccessUnit[];
}

/** AAC frames from ADTS, pts = start + 1024 per frame. */
export function aacStream(name: string, start = 0): AudioStream {
  const { frames } = splitAdts(fixture(name));
  return {
    track: aacTrack(adtsToAudioSpecificConfig(frames[0].header)),
    units: frames.map((f, i) => ({ kind: 'audio', pts: start + i * 1024, data: f.data })),
  };
}

/** G.711 A-law 8 kHz mono cut into 20 ms packets (160 bytes), as RTP would carry it. */
export function alawStream(name: string, start = 0): AudioStream {
  const bytes = fixture(name);
  const units: AudioAccessUnit[] = [];
  for (let p = 0; p < bytes.length; p += 160)
    units.push({ kind: 'audio', pts: start + p, data: bytes.subarray(p, p + 160) });
  return { track: g711Track('pcma', 8000, 1), units };
}
