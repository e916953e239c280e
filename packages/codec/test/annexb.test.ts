import { describe, expect, it } from 'vitest';
import { addEmulationPrevention, fromHex, h264NalType, joinAnnexB, removeEmulationPrevention, splitAnnexB, toHex } from '../src/index.js';
import { fixture, fixturesOf } from './fixtures.js';

describe('splitAnnexB', () => {
  const cases: { name: string; stream: string; nalus: string[] }[] = [
    { name: '4-byte start codes', stream: '00000001 6742 00000001 68ce', nalus: ['6742', '68ce'] },
    { name: '3-byte start codes', stream: '000001 6742 000001 68ce', nalus: ['6742', '68ce'] },
    { name: 'mixed, with leading garbage', stream: 'ffee 000001 6742 00000001 68ce 000001 65', nalus: ['6742', '68ce', '65'] },
    { name: 'trailing zeros dropped', stream: '00000001 6742 0000 00000001 68ce 00', nalus: ['6742', '68ce'] },
    { name: 'empty units skipped', stream: '00000001 00000001 000001 6742', nalus: ['6742'] },
    { name: 'emulation prevention kept', stream: '000001 6742000003010203', nalus: ['6742000003010203'] },
    { name: 'no start code', stream: '6742ce', nalus: [] },
    { name: 'nothing', stream: '', nalus: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(splitAnnexB(fromHex(c.stream)).map(toHex)).toEqual(c.nalus);
    });
  }

  it('returns views into the input, not copies', () => {
    const data = fromHex('00000001 6742 000001 68ce');
    const [a] = splitAnnexB(data);
    expect(a.buffer).toBe(data.buffer);
  });

  for (const name of fixturesOf('.h264').concat(fixturesOf('.h265'))) {
    it(`${name}: split then join gives back the stream`, () => {
      const data = fixture(name);
      const nalus = splitAnnexB(data);
      expect(nalus.length).toBeGreaterThan(3);
      // ffmpeg writes 4-byte start codes before parameter sets and the first unit, 3-byte ones elsewhere.
      expect(splitAnnexB(joinAnnexB(nalus)).map(toHex)).toEqual(nalus.map(toHex));
      if (name.endsWith('.h264')) expect(nalus.slice(0, 2).map(h264NalType)).toContain(7);
    });
  }
});

describe('emulation prevention', () => {
  const cases = [
    { rbsp: '000000', ebsp: '00000300' },
    { rbsp: '000001', ebsp: '00000301' },
    { rbsp: '000002', ebsp: '00000302' },
    { rbsp: '000003', ebsp: '00000303' },
    { rbsp: '000004', ebsp: '000004' },
    { rbsp: '0000', ebsp: '000003' },
    { rbsp: '00000000', ebsp: '000003000003' },
    { rbsp: '6742c00a', ebsp: '6742c00a' },
  ];
  for (const c of cases) {
    it(`${c.rbsp} <-> ${c.ebsp}`, () => {
      expect(toHex(addEmulationPrevention(fromHex(c.rbsp)))).toBe(c.ebsp);
      expect(toHex(removeEmulationPrevention(fromHex(c.ebsp)))).toBe(c.rbsp);
    });
  }
  it('returns the input itself when there is nothing to remove', () => {
    const x = fromHex('6742c00a');
    expect(removeEmulationPrevention(x)).toBe(x);
  });
});
