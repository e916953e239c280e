import { describe, expect, it } from 'vitest';
import { findParameterSets, g711Track, splitAnnexB, videoTrackFromParameterSets } from '../src/index.js';
import { fixture, PROBES } from './fixtures.js';

describe('in-band parameter sets to a track', () => {
  for (const [codec, name] of [
    ['h264', 'h264-high-320x180.h264'],
    ['h265', 'h265-main-320x180.h265'],
  ] as const) {
    it(name, () => {
      const nalus = splitAnnexB(fixture(name));
      let ps = findParameterSets(codec, nalus.slice(0, 1));
      expect(ps.complete).toBe(false);
      ps = findParameterSets(codec, nalus.slice(1, 6), ps);
      expect(ps.complete).toBe(true);
      const t = videoTrackFromParameterSets(codec, { sps: ps.sps!, pps: ps.pps!, vps: ps.vps });
      expect([t.width, t.height]).toEqual([PROBES[name].width, PROBES[name].height]);
    });
  }
  it('g711 tracks', () => {
    expect(g711Track('pcma')).toMatchObject({ codec: 'pcma', sampleRate: 8000, channels: 1, codecString: 'alaw', config: new Uint8Array(0) });
  });
});
