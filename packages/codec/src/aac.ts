/**
 * AAC helpers: the AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1), ADTS headers (for sources that send
 * them) and the RFC 6381 mp4a.40.X codec string.
 */
import { BitReader, BitWriter } from './bits.js';
import { CodecError } from './errors.js';

export const AAC_SAMPLE_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350] as const;

export const AacObjectType = { main: 1, lc: 2, ssr: 3, ltp: 4, sbr: 5, ps: 29 } as const;

export interface AudioSpecificConfig {
  /** audioObjectType: 2 = AAC-LC, 5 = SBR (HE-AAC), 29 = PS (HE-AACv2). For SBR/PS, the core type is in `coreObjectType`. */
  objectType: number;
  coreObjectType: number;
  /** 15 means an explicit rate. */
  sampleRateIndex: number;
  sampleRate: number;
  /** With SBR/PS signalled explicitly, the output rate. */
  extensionSampleRate?: number;
  channelConfig: number;
  /** Channels for configs 1..7 (7 is 7.1: 8 channels); 0 for a program_config_element. */
  channels: number;
  /** 1024 samples per frame, or 960 when frameLengthFlag is set. */
  frameLength: number;
}

const channelsOf = (config: number): number => (config === 7 ? 8 : config <= 6 ? config : 0);

function readObjectType(r: BitReader): number {
  const t = r.u(5);
  return t === 31 ? 32 + r.u(6) : t;
}

function readRate(r: BitReader): { index: number; rate: number } {
  const index = r.u(4);
  if (index === 15) return { index, rate: r.u(24) };
  if (index >= AAC_SAMPLE_RATES.length) throw new CodecError('bad-value', `aac: sampling frequency index ${index}`);
  return { index, rate: AAC_SAMPLE_RATES[index] };
}

export function parseAudioSpecificConfig(bytes: Uint8Array): AudioSpecificConfig {
  if (bytes.length < 2) throw new CodecError('truncated', 'aac config: needs at least two bytes');
  const r = new BitReader(bytes);
  const objectType = readObjectType(r);
  if (objectType === 0) throw new CodecError('bad-value', 'aac config: object type 0');
  const { index, rate } = readRate(r);
  if (rate === 0) throw new CodecError('bad-value', 'aac config: sample rate 0');
  const channelConfig = r.u(4);
  let coreObjectType = objectType;
  let extensionSampleRate: number | undefined;
  if (objectType === AacObjectType.sbr || objectType === AacObjectType.ps) {
    extensionSampleRate = readRate(r).rate;
    coreObjectType = readObjectType(r);
  }
  let frameLength = 1024;
  // GASpecificConfig for the general audio types: the frame length flag comes first.
  if ([1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23].includes(coreObjectType) && r.bitsLeft > 0) {
    if (r.flag()) frameLength = 960;
  }
  return {
    objectType,
    coreObjectType,
    sampleRateIndex: index,
    sampleRate: rate,
    ...(extensionSampleRate !== undefined ? { extensionSampleRate } : {}),
    channelConfig,
    channels: channelsOf(channelConfig),
    frameLength,
  };
}

/** A two-byte AudioSpecificConfig (five with a rate outside the table). */
export function buildAudioSpecificConfig(init: { objectType: number; sampleRate: number; channels: number }): Uint8Array {
  const { objectType, sampleRate, channels } = init;
  if (objectType < 1 || objectType > 30) throw new CodecError('bad-value', `aac config: object type ${objectType}`);
  const channelConfig = channels === 8 ? 7 : channels;
  if (channelConfig < 1 || channelConfig > 7) throw new CodecError('bad-value', `aac config: ${channels} channels`);
  if (!Number.isInteger(sampleRate) || sampleRate <= 0 || sampleRate >= 2 ** 24) {
    throw new CodecError('bad-value', `aac config: sample rate ${sampleRate}`);
  }
  const w = new BitWriter().u(5, objectType);
  const index = (AAC_SAMPLE_RATES as readonly number[]).indexOf(sampleRate);
  if (index >= 0) w.u(4, index);
  else w.u(4, 15).u(24, sampleRate);
  return w.u(4, channelConfig).u(3, 0).finish();
}

/** RFC 6381: mp4a.40.X with X the audio object type (2 = AAC-LC, 5 = HE-AAC, 29 = HE-AACv2). */
export const aacCodecString = (objectType: number): string => `mp4a.40.${objectType}`;

export interface AdtsHeader {
  /** 7, or 9 with a CRC. */
  headerLength: number;
  /** Header included. */
  frameLength: number;
  objectType: number;
  sampleRateIndex: number;
  sampleRate: number;
  channelConfig: number;
  /** Raw data blocks in the frame (usually 1). */
  rawBlocks: number;
}

/** The ADTS header at `offset`; throws when there is no syncword or too few bytes for the header. */
export function parseAdtsHeader(data: Uint8Array, offset = 0): AdtsHeader {
  if (data.length - offset < 7) throw new CodecError('truncated', 'adts: header needs 7 bytes');
  const b = (i: number) => data[offset + i];
  if (b(0) !== 0xff || (b(1) & 0xf6) !== 0xf0) throw new CodecError('bad-value', 'adts: no syncword');
  const protectionAbsent = b(1) & 1;
  const objectType = (b(2) >> 6) + 1;
  const sampleRateIndex = (b(2) >> 2) & 0xf;
  if (sampleRateIndex >= AAC_SAMPLE_RATES.length) throw new CodecError('bad-value', `adts: sampling frequency index ${sampleRateIndex}`);
  const channelConfig = ((b(2) & 1) << 2) | (b(3) >> 6);
  const frameLength = ((b(3) & 3) << 11) | (b(4) << 3) | (b(5) >> 5);
  const headerLength = protectionAbsent ? 7 : 9;
  if (frameLength < headerLength) throw new CodecError('bad-value', `adts: frame length ${frameLength}`);
  return {
    headerLength,
    frameLength,
    objectType,
    sampleRateIndex,
    sampleRate: AAC_SAMPLE_RATES[sampleRateIndex],
    channelConfig,
    rawBlocks: (b(6) & 3) + 1,
  };
}

export interface AdtsFrame {
  header: AdtsHeader;
  /** The raw AAC frame (a view, no copy). */
  data: Uint8Array;
}

/**
 * Splits a run of ADTS frames. Bytes that do not start with a syncword are skipped up to the next one;
 * an incomplete last frame is returned in `rest`.
 */
export function splitAdts(data: Uint8Array): { frames: AdtsFrame[]; rest: Uint8Array } {
  const frames: AdtsFrame[] = [];
  let at = 0;
  while (at + 7 <= data.length) {
    let header: AdtsHeader;
    try {
      header = parseAdtsHeader(data, at);
    } catch (err) {
      if (!(err instanceof CodecError)) throw err;
      at++;
      continue;
    }
    if (at + header.frameLength > data.length) break;
    frames.push({ header, data: data.subarray(at + header.headerLength, at + header.frameLength) });
    at += header.frameLength;
  }
  return { frames, rest: data.subarray(at) };
}

/** One AAC frame without its ADTS header when it has one that spans it exactly; else the input. */
export function stripAdts(frame: Uint8Array): Uint8Array {
  if (frame.length < 7 || frame[0] !== 0xff || (frame[1] & 0xf6) !== 0xf0) return frame;
  try {
    const h = parseAdtsHeader(frame);
    return h.frameLength === frame.length ? frame.subarray(h.headerLength) : frame;
  } catch (err) {
    if (!(err instanceof CodecError)) throw err;
    return frame;
  }
}

/** The AudioSpecificConfig an ADTS header implies. */
export function adtsToAudioSpecificConfig(h: AdtsHeader): Uint8Array {
  return buildAudioSpecificConfig({ objectType: h.objectType, sampleRate: h.sampleRate, channels: h.channelConfig === 7 ? 8 : h.channelConfig });
}
