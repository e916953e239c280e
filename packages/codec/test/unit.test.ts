import { describe, expect, it } from 'vitest';
import { copyUnit, copyUnitInto, unitByteLength, type AccessUnit } from '../src/index.js';

describe('unit copies', () => {
  const video: AccessUnit = { kind: 'video', pts: 10, dts: 5, keyframe: true, damaged: true, nalus: [Uint8Array.of(0x67, 1, 2), Uint8Array.of(0x65, 9)] };
  const audio: AccessUnit = { kind: 'audio', pts: 3, data: Uint8Array.of(7, 8, 9) };

  it('counts payload bytes', () => {
    expect(unitByteLength(video)).toBe(5);
    expect(unitByteLength(audio)).toBe(3);
  });

  it('copyUnit: equal units whose bytes are their own (one buffer for a video unit)', () => {
    for (const u of [video, audio]) {
      const c = copyUnit(u);
      expect(c).toEqual(u);
      if (c.kind === 'video' && u.kind === 'video') {
        expect(c.nalus[0].buffer).toBe(c.nalus[1].buffer);
        expect(c.nalus.some((n, i) => n.buffer === u.nalus[i].buffer)).toBe(false);
      } else if (c.kind === 'audio' && u.kind === 'audio') expect(c.data.buffer).not.toBe(u.data.buffer);
    }
  });

  it('copyUnitInto: the bytes land at the given offset, back to back; the rest is untouched', () => {
    const into = new Uint8Array(12).fill(0xaa);
    const c = copyUnitInto(video, into, 4);
    expect(c).toEqual(video);
    expect(Array.from(into)).toEqual([0xaa, 0xaa, 0xaa, 0xaa, 0x67, 1, 2, 0x65, 9, 0xaa, 0xaa, 0xaa]);
  });
});
