/** Test-only ADTS reader: raw AAC frames and the AudioSpecificConfig of the first header. */
export interface Adts {
  frames: Uint8Array[];
  config: Uint8Array;
  sampleRate: number;
  channels: number;
  objectType: number;
}

const RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

export function readAdts(bytes: Uint8Array): Adts {
  const frames: Uint8Array[] = [];
  let first: { objectType: number; rateIndex: number; channels: number } | undefined;
  for (let p = 0; p + 7 <= bytes.length; ) {
    if (bytes[p] !== 0xff || (bytes[p + 1] & 0xf0) !== 0xf0) throw new Error(`ADTS sync lost at ${p}`);
    const protectionAbsent = bytes[p + 1] & 1;
    const objectType = (bytes[p + 2] >> 6) + 1;
    const rateIndex = (bytes[p + 2] >> 2) & 0xf;
    const channels = ((bytes[p + 2] & 1) << 2) | (bytes[p + 3] >> 6);
    const length = ((bytes[p + 3] & 3) << 11) | (bytes[p + 4] << 3) | (bytes[p + 5] >> 5);
    const header = protectionAbsent ? 7 : 9;
    first ??= { objectType, rateIndex, channels };
    frames.push(bytes.subarray(p + header, p + length));
    p += length;
  }
  if (!first) throw new Error('no ADTS frame');
  const config = new Uint8Array([
    (first.objectType << 3) | (first.rateIndex >> 1),
    ((first.rateIndex & 1) << 7) | (first.channels << 3),
  ]);
  return { frames, config, sampleRate: RATES[first.rateIndex], channels: first.channels, objectType: first.objectType };
}
