/**
 * Initialisation segment: ftyp + moov with one trak per track (track_ID = index + 1), empty sample
 * tables and an mvex/trex per track so all samples arrive in fragments.
 */
import type { Track } from '@opencvr/codec';
import { BoxWriter } from './box.js';
import { sampleEntry } from './sample-entry.js';

/** Media timescale of a track: 90 kHz for video, the sample rate for audio. */
export const timescaleOf = (t: Track): number => (t.kind === 'video' ? 90000 : t.sampleRate);

const MATRIX = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000];

export function initSegment(tracks: readonly Track[]): Uint8Array {
  if (!tracks.length) throw new Error('init segment needs at least one track');
  const paramBytes = tracks.reduce(
    (n, t) => n + (t.kind === 'video' ? t.sps.length + t.pps.length + (t.vps?.length ?? 0) : t.config.length),
    0,
  );
  const w = new BoxWriter(1024 + 640 * tracks.length + paramBytes);

  const brands = ['iso6', 'isom', 'mp41'];
  if (tracks.some((t) => t.kind === 'video' && t.codec === 'h264')) brands.push('avc1');
  w.box('ftyp').fourcc('iso6').u32(0);
  for (const b of brands) w.fourcc(b);
  w.end();

  w.box('moov');
  w.fullBox('mvhd', 0, 0);
  w.u32(0).u32(0); // creation, modification time
  w.u32(1000).u32(0); // timescale, duration (unknown: fragmented)
  w.u32(0x00010000).u16(0x0100).zeros(10); // rate 1.0, volume 1.0, reserved
  for (const m of MATRIX) w.u32(m);
  w.zeros(24); // pre_defined
  w.u32(tracks.length + 1); // next_track_ID
  w.end();
  tracks.forEach((t, i) => trak(w, t, i + 1));
  w.box('mvex');
  tracks.forEach((_, i) => {
    w.fullBox('trex', 0, 0)
      .u32(i + 1)
      .u32(1)
      .u32(0)
      .u32(0)
      .u32(0)
      .end();
  });
  w.end();
  w.end();
  return w.finish();
}

function trak(w: BoxWriter, t: Track, id: number): void {
  const video = t.kind === 'video';
  w.box('trak');
  w.fullBox('tkhd', 0, 0x000003); // enabled, in movie
  w.u32(0).u32(0).u32(id).u32(0).u32(0); // creation, modification, track_ID, reserved, duration
  w.zeros(8)
    .u16(0)
    .u16(video ? 0 : 1); // reserved, layer, alternate_group
  w.u16(video ? 0 : 0x0100).u16(0); // volume, reserved
  for (const m of MATRIX) w.u32(m);
  w.u32(video ? t.width * 0x10000 : 0).u32(video ? t.height * 0x10000 : 0); // 16.16
  w.end();

  w.box('mdia');
  w.fullBox('mdhd', 0, 0).u32(0).u32(0).u32(timescaleOf(t)).u32(0);
  w.u16(0x55c4).u16(0); // language 'und', pre_defined
  w.end();
  const name = video ? 'VideoHandler' : 'SoundHandler';
  w.fullBox('hdlr', 0, 0)
    .u32(0)
    .fourcc(video ? 'vide' : 'soun')
    .zeros(12);
  for (let i = 0; i < name.length; i++) w.u8(name.charCodeAt(i));
  w.u8(0).end();

  w.box('minf');
  if (video) w.fullBox('vmhd', 0, 1).u16(0).u16(0).u16(0).u16(0).end();
  else w.fullBox('smhd', 0, 0).u16(0).u16(0).end();
  w.box('dinf').fullBox('dref', 0, 0).u32(1);
  w.fullBox('url ', 0, 1).end(); // media data in this file
  w.end(); // dref
  w.end(); // dinf
  w.box('stbl');
  w.fullBox('stsd', 0, 0).u32(1);
  sampleEntry(w, t);
  w.end();
  w.fullBox('stts', 0, 0).u32(0).end();
  w.fullBox('stsc', 0, 0).u32(0).end();
  w.fullBox('stsz', 0, 0).u32(0).u32(0).end();
  w.fullBox('stco', 0, 0).u32(0).end();
  w.end(); // stbl
  w.end(); // minf
  w.end(); // mdia
  w.end(); // trak
}

/** MSE type for the tracks, e.g. `video/mp4; codecs="avc1.64001f,mp4a.40.2"`. */
export function mimeType(tracks: readonly Track[]): string {
  const kind = tracks.some((t) => t.kind === 'video') ? 'video' : 'audio';
  return `${kind}/mp4; codecs="${tracks.map((t) => t.codecString).join(',')}"`;
}
