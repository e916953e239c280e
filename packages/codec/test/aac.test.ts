import { describe, expect, it } from 'vitest';
import {
  aacCodecString,
  adtsToAudioSpecificConfig,
  aacTrack,
  buildAudioSpecificConfig,
  CodecError,
  fromHex,
  parseAdtsHeader,
  parseAudioSpecificConfig,
  splitAdts,
  stripAdts,
  toHex,
} from '../src/index.js';
import { fixture, fixturesOf, PROBES } from './fixtures.js';

/** The DecoderSpecificInfo (tag 5) inside ffmpeg's esds box. */
function dsiOf(esdsHex: string): string {
  const b = Buffer.from(esdsHex, 'hex');
  for (let i = 0; i + 5 < b.length; i++) {
    if (b[i] === 5 && b[i + 1] === 0x80 && b[i + 2] === 0x80 && b[i + 3] === 0x80) return b.subarray(i + 5, i + 5 + b[i + 4]).toString('hex');
  }
  throw new Error('no DecoderSpecificInfo');
}

describe('ADTS fixtures against ffprobe and ffmpeg’s esds', () => {
  for (const name of fixturesOf('.aac')) {
    const probe = PROBES[name];
    it(name, () => {
      const { frames, rest } = splitAdts(fixture(name));
      expect(rest.length).toBe(0);
      expect(frames.length).toBe(Number(probe.nb_read_frames));
      const h = frames[0].header;
      expect([h.sampleRate, h.channelConfig, h.objectType]).toEqual([Number(probe.sample_rate), probe.channels, 2]);
      const asc = adtsToAudioSpecificConfig(h);
      expect(toHex(asc)).toBe(dsiOf(probe.esds!));
      expect(aacTrack(asc)).toMatchObject({ codec: 'aac', sampleRate: Number(probe.sample_rate), channels: probe.channels, codecString: 'mp4a.40.2' });
      const whole = fixture(name).subarray(0, h.frameLength);
      expect(stripAdts(whole)).toEqual(frames[0].data);
    });
  }
});

describe('AudioSpecificConfig', () => {
  const cases = [
    { hex: '1210', objectType: 2, sampleRate: 44100, channels: 2 },
    { hex: '1190', objectType: 2, sampleRate: 48000, channels: 2 },
    { hex: '1588', objectType: 2, sampleRate: 8000, channels: 1 },
    { hex: '1408', objectType: 2, sampleRate: 16000, channels: 1 },
    // 00010 1111 (explicit) 0000 0000 0001 0111 0111 0000 (6000) 0010 000
    { hex: '17800bb810', objectType: 2, sampleRate: 6000, channels: 2 },
  ];
  for (const c of cases) {
    it(c.hex, () => {
      const bytes = fromHex(c.hex);
      const asc = parseAudioSpecificConfig(bytes);
      expect([asc.objectType, asc.sampleRate, asc.channels]).toEqual([c.objectType, c.sampleRate, c.channels]);
      expect(toHex(buildAudioSpecificConfig(asc))).toBe(c.hex);
    });
  }
  it('HE-AAC with explicit SBR: object type 5, core AAC-LC, output rate', () => {
    // 00101 (SBR) 0110 (24000) 0010 (stereo) 0011 (extension 48000) 00010 (core AAC-LC) 000
    const asc = parseAudioSpecificConfig(fromHex('2b118800'));
    expect(asc).toMatchObject({ objectType: 5, coreObjectType: 2, sampleRate: 24000, extensionSampleRate: 48000, channels: 2 });
    expect(aacCodecString(asc.objectType)).toBe('mp4a.40.5');
  });
  it('frameLengthFlag gives 960-sample frames', () => {
    expect(parseAudioSpecificConfig(fromHex('1214')).frameLength).toBe(960);
  });
  it('errors are typed', () => {
    expect(() => parseAudioSpecificConfig(fromHex('12'))).toThrow(CodecError);
    expect(() => parseAudioSpecificConfig(fromHex('0000'))).toThrow(CodecError);
    expect(() => parseAudioSpecificConfig(fromHex('17'))).toThrow(CodecError);
    expect(() => buildAudioSpecificConfig({ objectType: 2, sampleRate: 44100, channels: 9 })).toThrow(CodecError);
  });
});

describe('ADTS', () => {
  it('a header with CRC is 9 bytes', () => {
    const h = parseAdtsHeader(fromHex('fff050802e7ffc 0000'));
    expect(h).toMatchObject({ headerLength: 9, objectType: 2, sampleRate: 44100, channelConfig: 2, frameLength: 0x173 });
  });
  it('skips garbage between frames and keeps an incomplete tail', () => {
    const frame = fromHex('fff15080013ffc aabb');
    const data = fromHex(`00ff ${toHex(frame)} 1234 ${toHex(frame)} fff150`);
    const { frames, rest } = splitAdts(data);
    expect(frames.map((f) => toHex(f.data))).toEqual(['aabb', 'aabb']);
    expect(toHex(rest)).toBe('fff150');
  });
  it('stripAdts leaves raw frames alone', () => {
    const raw = fromHex('21 1b 94');
    expect(stripAdts(raw)).toBe(raw);
  });
});
