/** Fragmenter.cutHoldingLast: the recorder's cut by the wall clock while a camera is quiet. */
import { describe, expect, it } from 'vitest';
import { Fragmenter } from '../src/index.js';
import { AAC_TRACK, audio, H264_TRACK, video } from './helpers/units.js';

describe('Fragmenter.cutHoldingLast', () => {
  it('cuts all but each track’s last unit, whose duration comes from the unit after it, however late', () => {
    const f = new Fragmenter([H264_TRACK, AAC_TRACK], { maxFragmentDuration: 1.5 });
    // 10 frames at 25 fps and 16 kHz AAC beside them, then the camera is quiet
    for (let i = 0; i < 10; i++) {
      expect(f.push(video(i * 3600, i === 0), 0)).toEqual([]);
      expect(f.push(audio(Math.round((i * 3600 * 16000) / 90000)), 1)).toEqual([]);
    }
    const [cut] = f.cutHoldingLast();
    expect(cut.tracks.map((t) => t.sampleCount)).toEqual([9, 9]);
    expect(cut.tracks[0].duration).toBe(9 * 3600);
    expect(cut.keyframe).toBe(true);
    // nothing more to cut while nothing comes
    expect(f.cutHoldingLast()).toEqual([]);
    // back 3 s later: the held frame lasts until then, the timeline runs on without a jump
    const back = 9 * 3600 + 3 * 90000;
    const rest = [...f.push(video(back, false), 0), ...f.push(video(back + 3600, false), 0), ...f.flush()];
    const v = rest.flatMap((r) => r.tracks.filter((t) => t.trackId === 1));
    expect(v[0].baseDecodeTime).toBe(9 * 3600);
    expect(v.reduce((n, t) => n + t.duration, 0)).toBe(3 * 90000 + 2 * 3600);
  });
});
