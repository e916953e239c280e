/** PS frames to the hub's tracks and units: when the tracks are announced, what is held, the clocks. */
import { describe, expect, it } from 'vitest';
import type { AccessUnit, Track } from '@opencvr/codec';
import { PsDemuxer, PsMuxer, PsTrackAssembler, StreamType } from '../src/index.js';
import { chunks, fixture } from './fixtures.js';

function assemble(data: Uint8Array, options = {}) {
  const d = new PsDemuxer();
  const a = new PsTrackAssembler(options);
  let tracks: Track[] | undefined;
  let announcements = 0;
  const units: { track: number; unit: AccessUnit }[] = [];
  const take = (frames: ReturnType<PsDemuxer['push']>) => {
    for (const f of frames) {
      const out = a.push(f, d.streamMap);
      if (out.tracks) {
        tracks = out.tracks;
        announcements++;
      }
      units.push(...out.units);
    }
  };
  for (const c of chunks(data, 1400)) take(d.push(c));
  take(d.flush());
  return { tracks, units, announcements };
}

describe('PsTrackAssembler', () => {
  it('H.264 + AAC with a PSM: both tracks at once, units from the first keyframe at time 0, audio on its own clock', () => {
    const { tracks, units, announcements } = assemble(fixture('gst-h264-aac.ps'));
    expect(announcements).toBe(1);
    expect(tracks).toMatchObject([
      { kind: 'video', codec: 'h264', width: 320, height: 240 },
      { kind: 'audio', codec: 'aac', sampleRate: 44100, channels: 1, clockRate: 44100 },
    ]);
    const video = units.filter((u) => u.track === 0).map((u) => u.unit);
    expect(video).toHaveLength(50);
    expect(video[0]).toMatchObject({ kind: 'video', keyframe: true });
    const first = Math.min(...units.map((u) => (u.unit.kind === 'video' ? u.unit.dts : (u.unit.pts * 90000) / 44100)));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(4000);
    const audio = units.filter((u) => u.track === 1).map((u) => u.unit.pts);
    expect(audio[1] - audio[0]).toBe(1024);
  });

  it('H.265 + G.711 A-law: tracks h265 and pcma at 8 kHz', () => {
    const { tracks, units } = assemble(fixture('h265-pcma.ps'));
    expect(tracks).toMatchObject([
      { kind: 'video', codec: 'h265', width: 320, height: 240 },
      { kind: 'audio', codec: 'pcma', sampleRate: 8000, clockRate: 8000 },
    ]);
    const audio = units.filter((u) => u.track === 1).map((u) => u.unit.pts);
    // Audio that came before the first keyframe was complete is not held; the rest is on the video's clock.
    expect(audio[0]).toBeGreaterThanOrEqual(0);
    expect(audio.slice(1, 4).map((t, i) => t - audio[i])).toEqual([160, 160, 160]);
  });

  it('a PSM that names audio never sent: video alone after the wait', () => {
    const mux = new PsMuxer([
      { streamId: 0xe0, streamType: StreamType.h265 },
      { streamId: 0xc0, streamType: StreamType.pcma },
    ]);
    const video = new PsDemuxer().push(fixture('h265-pcma.ps')).filter((f) => f.kind === 'video');
    const ps = Buffer.concat(
      video.map((f) => mux.frame({ streamId: 0xe0, pts: f.pts, keyframe: f.keyframe, data: f.data })),
    );
    const { tracks, units } = assemble(ps, { waitAudioTicks: 9000 });
    expect(tracks?.map((t) => t.kind)).toEqual(['video']);
    expect(units[0].unit).toMatchObject({ kind: 'video', keyframe: true, dts: 0 });
  });

  it('audio only (the PSM names no video): announced at the first frame', () => {
    const mux = new PsMuxer([{ streamId: 0xc0, streamType: StreamType.pcmu }]);
    const ps = Buffer.concat(
      [0, 1, 2].map((i) =>
        mux.frame({ streamId: 0xc0, pts: i * 1800, keyframe: i === 0, data: new Uint8Array(160).fill(0xff) }),
      ),
    );
    const { tracks, units } = assemble(ps);
    expect(tracks).toMatchObject([{ kind: 'audio', codec: 'pcmu' }]);
    expect(units.map((u) => u.unit.pts)).toEqual([0, 160, 320]);
  });
});
