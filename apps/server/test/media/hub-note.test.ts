/**
 * SourceSink.note: what a live stream plays without (an RTMP channel whose audio could not be encoded)
 * is the live hub's reason and why, told to subscribers as a live state; '' clears it, and the next
 * connection starts without it. A note from a source the hub has left is ignored.
 */
import { describe, expect, it } from 'vitest';
import { videoTrackFromParameterSets } from '@opencvr/codec';
import type { Reason } from '@opencvr/shared';
import { StreamHub, type HubOptions } from '../../src/media/hub.js';
import { fakeSources } from './fake-source.js';

const opts: HubOptions = { onDemand: false, graceMs: 1000, retryMinMs: 0, retryMaxMs: 0, maxGopUnits: 100 };
const SPS = Uint8Array.of(0x67, 0x42, 0xc0, 0x1e, 0xd9, 0x00, 0xa0, 0x47, 0xfe, 0xc8);
const PPS = Uint8Array.of(0x68, 0xce, 0x3c, 0x80);
const picture = (n: number) => ({ kind: 'video' as const, dts: n * 3600, pts: n * 3600, keyframe: true, nalus: [Uint8Array.of(0x65, 0x88, n)] });
const missing: Reason = { key: 'streamAudioEncoderMissing', vars: { codec: 'MP3' } };

describe('StreamHub: a source’s note', () => {
  it('given before the first unit, it is the live state’s reason; subscribers hear it; "" clears it', () => {
    const { sources, open } = fakeSources();
    const hub = new StreamHub('k', open, opts);
    const states: [string, string, Reason | undefined][] = [];
    hub.subscribe({ tracks: () => undefined, unit: () => undefined, state: (s, r, w) => states.push([s, r, w]) });
    const sink = sources[0].sink!;
    sink.tracks([videoTrackFromParameterSets('h264', { sps: SPS, pps: PPS })]);
    sink.note!('no ffmpeg', missing);
    expect(hub.state).toBe('connecting');
    expect(hub.why).toBeUndefined();
    sink.unit(0, picture(0));
    expect([hub.state, hub.reason, hub.why]).toEqual(['live', 'no ffmpeg', missing]);
    sink.note!('');
    expect([hub.state, hub.reason, hub.why]).toEqual(['live', '', undefined]);
    sink.note!('ffmpeg ended', { key: 'streamAudioEncoderFailed', vars: { codec: 'MP3' } });
    expect(hub.why?.key).toBe('streamAudioEncoderFailed');
    expect(states.slice(-3)).toEqual([
      ['live', 'no ffmpeg', missing],
      ['live', '', undefined],
      ['live', 'ffmpeg ended', { key: 'streamAudioEncoderFailed', vars: { codec: 'MP3' } }],
    ]);
    hub.stop();
  });

  it('the next connection starts without it; the old source’s note is ignored', async () => {
    const { sources, open } = fakeSources();
    const hub = new StreamHub('k', open, opts);
    const first = sources[0].sink!;
    first.tracks([videoTrackFromParameterSets('h264', { sps: SPS, pps: PPS })]);
    first.note!('no ffmpeg', missing);
    first.unit(0, picture(0));
    first.failed('connection reset', { key: 'streamReset' });
    await new Promise((r) => setTimeout(r, 10));
    expect(sources).toHaveLength(2);
    const second = sources[1].sink!;
    first.note!('late', missing);
    second.tracks([videoTrackFromParameterSets('h264', { sps: SPS, pps: PPS })]);
    second.unit(0, picture(1));
    expect([hub.state, hub.reason, hub.why]).toEqual(['live', '', undefined]);
    hub.stop();
  });
});
