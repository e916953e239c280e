/**
 * SourceSink.waiting and SourceSink.ended (what the live H.264 leg tells its hub about its original):
 * waiting makes the hub 'retrying' with the given words for its subscribers, keeps the same source
 * (no retry, no new source) and goes live again with the next unit; ended stops the hub with its
 * words, for good. Calls from a source the hub has left are ignored.
 */
import { describe, expect, it } from 'vitest';
import { videoTrackFromParameterSets } from '@opencvr/codec';
import type { Reason } from '@opencvr/shared';
import { StreamHub } from '../../src/media/hub.js';
import { fakeSources, hubOptions } from './fake-source.js';

const opts = hubOptions({ onDemand: false, retryMinMs: 0, retryMaxMs: 0 });
const SPS = Uint8Array.of(0x67, 0x42, 0xc0, 0x1e, 0xd9, 0x00, 0xa0, 0x47, 0xfe, 0xc8);
const PPS = Uint8Array.of(0x68, 0xce, 0x3c, 0x80);
const picture = (n: number) => ({ kind: 'video' as const, dts: n * 3600, pts: n * 3600, keyframe: true, nalus: [Uint8Array.of(0x65, 0x88, n)] });
const refused: Reason = { key: 'streamSocketError', vars: { code: 'ECONNREFUSED' } };

function setup() {
  const { sources, open } = fakeSources();
  const hub = new StreamHub('k_h264', open, opts);
  const states: [string, string, string | undefined][] = [];
  hub.subscribe({ tracks: () => undefined, unit: () => undefined, state: (s, r, w) => states.push([s, r, w?.key]) });
  const sink = sources[0].sink!;
  sink.tracks([videoTrackFromParameterSets('h264', { sps: SPS, pps: PPS })]);
  sink.unit(0, picture(0));
  return { hub, sources, states, sink };
}

describe('StreamHub: a source whose own input is away, or over', () => {
  it('waiting: retrying with the words given, the same source kept, live again with its next unit', async () => {
    const { hub, sources, states, sink } = setup();
    expect(hub.state).toBe('live');
    sink.waiting!('connect ECONNREFUSED', refused);
    expect([hub.state, hub.reason, hub.why]).toEqual(['retrying', 'connect ECONNREFUSED', refused]);
    expect(states.at(-1)).toEqual(['retrying', 'connect ECONNREFUSED', 'streamSocketError']);
    // No retry armed: even with a zero back-off no second source is made, the first is not stopped.
    await new Promise((r) => setTimeout(r, 20));
    expect(sources).toHaveLength(1);
    expect(sources[0].stopped).toBe(false);
    sink.unit(0, picture(1));
    expect(hub.state).toBe('live');
    expect(states.at(-1)?.[0]).toBe('live');
  });

  it('ended: the hub stops with the words given and the source stopped, nothing retried', async () => {
    const { hub, sources, states, sink } = setup();
    sink.ended!('the original stream is h264, not H.265', { key: 'streamOriginalNotHevc' });
    expect([hub.state, hub.why?.key]).toEqual(['stopped', 'streamOriginalNotHevc']);
    expect(states.at(-1)).toEqual(['stopped', 'the original stream is h264, not H.265', 'streamOriginalNotHevc']);
    expect(sources[0].stopped).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(sources).toHaveLength(1);
  });

  it('a source the hub has left is not heard', () => {
    const { hub, sources, sink } = setup();
    sink.failed('gone');
    expect(hub.state).toBe('retrying');
    sink.ended!('late', { key: 'streamOriginalNotHevc' });
    sink.waiting!('late');
    expect([hub.state, hub.reason]).toEqual(['retrying', 'gone']);
    expect(sources[0].stopped).toBe(true);
  });
});
