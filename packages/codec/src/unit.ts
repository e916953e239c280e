/** Access unit helpers. */
import type { AccessUnit, VideoAccessUnit } from './types.js';

/** Payload bytes of a unit (a video unit's NAL units together). */
export function unitByteLength(unit: AccessUnit): number {
  if (unit.kind === 'audio') return unit.data.byteLength;
  let n = 0;
  for (let i = 0; i < unit.nalus.length; i++) n += unit.nalus[i].byteLength;
  return n;
}

/**
 * A copy of `unit` whose bytes are `into[at, at + unitByteLength(unit))` (its NAL units back to back).
 * For whoever keeps a unit past the call that lent it (see StreamHub / Subscriber.unit).
 */
export function copyUnitInto(unit: AccessUnit, into: Uint8Array, at: number): AccessUnit {
  if (unit.kind === 'audio') {
    const data = into.subarray(at, at + unit.data.byteLength);
    data.set(unit.data);
    return { kind: 'audio', pts: unit.pts, data };
  }
  const src = unit.nalus;
  const nalus: Uint8Array[] = new Array(src.length);
  for (let i = 0; i < src.length; i++) {
    const view = into.subarray(at, at + src[i].byteLength);
    view.set(src[i]);
    nalus[i] = view;
    at += src[i].byteLength;
  }
  const out: VideoAccessUnit = { kind: 'video', pts: unit.pts, dts: unit.dts, keyframe: unit.keyframe, nalus };
  if (unit.damaged) out.damaged = true;
  return out;
}

/** A unit with bytes of its own (one buffer for all of a video unit's NAL units). */
export const copyUnit = (unit: AccessUnit): AccessUnit => copyUnitInto(unit, new Uint8Array(unitByteLength(unit)), 0);
