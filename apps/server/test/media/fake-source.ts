/**
 * What the StreamHub unit tests drive a hub with: a MediaSource the test works by hand (its sink is
 * the hub's, to call with tracks, units and states), a source factory that keeps every source the hub
 * asked for, and the hub's options with the tests' usual timings.
 */
import type { HubOptions, MediaSource, SourceSink } from '../../src/media/hub.js';

/** A source the test drives by hand: `sink` once the hub started it, `stopped` once it stopped it. */
export class FakeSource implements MediaSource {
  sink?: SourceSink;
  stopped = false;
  start(sink: SourceSink) {
    this.sink = sink;
  }
  stop() {
    this.stopped = true;
  }
}

/** A source factory for a StreamHub (`open`) and every source it made, in order (`sources`). */
export function fakeSources(): { sources: FakeSource[]; open: () => FakeSource } {
  const sources: FakeSource[] = [];
  return {
    sources,
    open: () => {
      const src = new FakeSource();
      sources.push(src);
      return src;
    },
  };
}

/** On demand, 1 s grace, back-off 100-800 ms, 100 units of GOP; `o` overrides. */
export const hubOptions = (o: Partial<HubOptions> = {}): HubOptions => ({ onDemand: true, graceMs: 1000, retryMinMs: 100, retryMaxMs: 800, maxGopUnits: 100, ...o });
