/** stsd sample entries: avc1+avcC, hvc1+hvcC, mp4a+esds, and G.711 as 'alaw' / 'ulaw'. */
import { buildAvcC, buildHvcC, type AudioTrack, type Track, type VideoTrack } from '@opencvr/codec';
import type { BoxWriter } from './box.js';

export function sampleEntry(w: BoxWriter, track: Track): void {
  if (track.kind === 'video') visualEntry(w, track);
  else audioEntry(w, track);
}

function visualEntry(w: BoxWriter, t: VideoTrack): void {
  let config: Uint8Array;
  if (t.codec === 'h264') config = buildAvcC([t.sps], [t.pps]);
  else {
    if (!t.vps) throw new Error('h265 track without a VPS');
    config = buildHvcC({ vps: [t.vps], sps: [t.sps], pps: [t.pps] });
  }
  w.box(t.codec === 'h264' ? 'avc1' : 'hvc1');
  w.zeros(6).u16(1); // reserved, data_reference_index
  w.u16(0).u16(0).zeros(12); // pre_defined, reserved, pre_defined[3]
  w.u16(t.width).u16(t.height);
  w.u32(0x00480000).u32(0x00480000); // 72 dpi
  w.u32(0).u16(1); // reserved, frame_count
  w.zeros(32); // compressorname
  w.u16(0x0018).u16(0xffff); // depth, pre_defined = -1
  w.box(t.codec === 'h264' ? 'avcC' : 'hvcC')
    .bytes(config)
    .end();
  w.end();
}

function audioEntry(w: BoxWriter, t: AudioTrack): void {
  const type = t.codec === 'aac' ? 'mp4a' : t.codec === 'pcma' ? 'alaw' : 'ulaw';
  w.box(type);
  w.zeros(6).u16(1); // reserved, data_reference_index
  w.zeros(8); // reserved (version 0 sound entry)
  w.u16(t.channels).u16(16); // channelcount, samplesize
  w.u16(0).u16(0); // pre_defined, reserved
  w.u32(t.sampleRate <= 0xffff ? t.sampleRate * 0x10000 : 0); // 16.16; the mdhd timescale carries larger rates
  if (t.codec === 'aac') esds(w, t.config);
  w.end();
}

/** Length of an MPEG-4 descriptor, in the shortest expandable form. */
function descriptor(w: BoxWriter, tag: number, length: number): void {
  w.u8(tag);
  const groups: number[] = [];
  let n = length;
  do {
    groups.unshift(n & 0x7f);
    n >>>= 7;
  } while (n > 0);
  groups.forEach((g, i) => w.u8(i < groups.length - 1 ? g | 0x80 : g));
}

const descriptorSize = (length: number) =>
  1 + (length < 0x80 ? 1 : length < 0x4000 ? 2 : length < 0x200000 ? 3 : 4) + length;

function esds(w: BoxWriter, asc: Uint8Array): void {
  const decSpecific = descriptorSize(asc.length);
  const decConfig = descriptorSize(13 + decSpecific);
  const sl = descriptorSize(1);
  w.fullBox('esds', 0, 0);
  descriptor(w, 0x03, 3 + decConfig + sl); // ES_Descriptor
  w.u16(0).u8(0); // ES_ID, flags
  descriptor(w, 0x04, 13 + decSpecific); // DecoderConfigDescriptor
  w.u8(0x40); // objectTypeIndication: MPEG-4 Audio
  w.u8((0x05 << 2) | 1); // streamType audio, upStream 0, reserved 1
  w.u24(0).u32(0).u32(0); // bufferSizeDB, maxBitrate, avgBitrate
  descriptor(w, 0x05, asc.length); // DecoderSpecificInfo: AudioSpecificConfig
  w.bytes(asc);
  descriptor(w, 0x06, 1); // SLConfigDescriptor
  w.u8(0x02);
  w.end();
}
