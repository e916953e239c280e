/** Feeds fixture streams through a Fragmenter in arrival (time) order and collects the output. */
import type { AccessUnit, Track } from '@opencvr/codec';
import { dtsOf, Fragmenter, type Fragment, type FragmenterOptions } from '../../src/index.js';

export interface Input {
  track: Track;
  units: AccessUnit[];
}

/** Units of all inputs merged by decode time in seconds (stable per track), with their track index. */
export function arrivalOrder(inputs: Input[]): { unit: AccessUnit; track: number }[] {
  const all = inputs.flatMap((inp, track) =>
    inp.units.map((unit, i) => ({
      unit,
      track,
      i,
      t: dtsOf(unit) / (inp.track.kind === 'video' ? 90000 : inp.track.sampleRate),
    })),
  );
  all.sort((a, b) => a.t - b.t || a.track - b.track || a.i - b.i);
  return all.map(({ unit, track }) => ({ unit, track }));
}

export interface Muxed {
  init: Uint8Array;
  fragments: Fragment[];
  file: Uint8Array;
}

export function mux(inputs: Input[], opts: FragmenterOptions = {}): Muxed {
  const f = new Fragmenter(
    inputs.map((i) => i.track),
    opts,
  );
  const fragments: Fragment[] = [];
  for (const { unit, track } of arrivalOrder(inputs)) fragments.push(...f.push(unit, track));
  fragments.push(...f.flush());
  const init = f.init;
  return { init, fragments, file: concat([init, ...fragments.map((x) => x.data)]) };
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let p = 0;
  for (const part of parts) {
    out.set(part, p);
    p += part.length;
  }
  return out;
}
