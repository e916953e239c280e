/** LL-HLS playlist syntax (golden text) and the segmenter's window: cuts, parts, discontinuities, waits. */
import { describe, expect, it } from 'vitest';
import { authSuffix, renderPlaylist, type PlaylistModel } from '../../src/media/outputs/hls-playlist.js';
import { FIRST_MSN, HlsSegmenter } from '../../src/media/outputs/hls-segmenter.js';

const at = new Date('2025-01-02T03:04:05.000Z');

describe('renderPlaylist', () => {
  it('writes version, target, server control, part info, map, segments, parts and the preload hint with the token', () => {
    const m: PlaylistModel = {
      targetDuration: 2,
      partTarget: 0.5,
      mediaSequence: 7,
      discontinuitySequence: 0,
      segments: [
        { msn: 7, duration: 2, uri: 'seg_7.m4s', discontinuity: false, map: 'init.mp4', programDateTime: at },
        {
          msn: 8,
          duration: 1.96667,
          uri: 'seg_8.m4s',
          discontinuity: false,
          map: 'init.mp4',
          parts: [
            { duration: 0.5, uri: 'part_8_0.m4s', independent: true },
            { duration: 0.46667, uri: 'part_8_1.m4s', independent: false },
          ],
        },
        {
          msn: 9,
          uri: 'seg_9.m4s',
          discontinuity: false,
          map: 'init.mp4',
          parts: [{ duration: 0.5, uri: 'part_9_0.m4s', independent: true }],
        },
      ],
      preloadHint: 'part_9_1.m4s',
    };
    expect(renderPlaylist(m, 'play_token=abc.def')).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:9',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5',
        '#EXT-X-PART-INF:PART-TARGET=0.5',
        '#EXT-X-MEDIA-SEQUENCE:7',
        '#EXT-X-MAP:URI="init.mp4?play_token=abc.def"',
        '#EXT-X-PROGRAM-DATE-TIME:2025-01-02T03:04:05.000Z',
        '#EXTINF:2.0,',
        'seg_7.m4s?play_token=abc.def',
        '#EXT-X-PART:DURATION=0.5,URI="part_8_0.m4s?play_token=abc.def",INDEPENDENT=YES',
        '#EXT-X-PART:DURATION=0.46667,URI="part_8_1.m4s?play_token=abc.def"',
        '#EXTINF:1.96667,',
        'seg_8.m4s?play_token=abc.def',
        '#EXT-X-PART:DURATION=0.5,URI="part_9_0.m4s?play_token=abc.def",INDEPENDENT=YES',
        '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part_9_1.m4s?play_token=abc.def"',
        '',
      ].join('\n'),
    );
  });

  it('a new init after the first segment: DISCONTINUITY and a second MAP; discontinuity sequence when one slid out', () => {
    const text = renderPlaylist({
      targetDuration: 3,
      partTarget: 1,
      mediaSequence: 3,
      discontinuitySequence: 2,
      segments: [
        { msn: 3, duration: 2, uri: 'seg_3.m4s', discontinuity: true, map: 'init_1.mp4' },
        { msn: 4, duration: 2.5, uri: 'seg_4.m4s', discontinuity: true, map: 'init_2.mp4' },
      ],
    });
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:9',
        '#EXT-X-TARGETDURATION:3',
        '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0',
        '#EXT-X-PART-INF:PART-TARGET=1.0',
        '#EXT-X-MEDIA-SEQUENCE:3',
        '#EXT-X-DISCONTINUITY-SEQUENCE:2',
        '#EXT-X-MAP:URI="init_1.mp4"',
        '#EXTINF:2.0,',
        'seg_3.m4s',
        '#EXT-X-DISCONTINUITY',
        '#EXT-X-MAP:URI="init_2.mp4"',
        '#EXTINF:2.5,',
        'seg_4.m4s',
        '',
      ].join('\n'),
    );
  });

  it('authSuffix carries play_token first, else token, URL-encoded', () => {
    expect(authSuffix({ play_token: 'a b', token: 't' })).toBe('play_token=a%20b');
    expect(authSuffix({ token: 'xyz' })).toBe('token=xyz');
    expect(authSuffix({})).toBe('');
    expect(authSuffix(undefined)).toBe('');
  });
});

const frag = (duration: number, keyframe: boolean) => ({
  data: Uint8Array.of(duration * 10, keyframe ? 1 : 0),
  duration,
  keyframe,
});
const opts = { targetSegment: 2, partTarget: 0.5, windowSegments: 3, partSegments: 1, maxSegment: 10 };

describe('HlsSegmenter', () => {
  it('cuts segments before a keyframe part once ~the target is reached; lists parts of the last ones only', () => {
    const s = new HlsSegmenter(opts);
    s.addPart(frag(0.5, true)); // before any init: ignored
    s.setInit(Uint8Array.of(1));
    for (let gop = 0; gop < 6; gop++) {
      // GOP of 1 s: two parts, keyframe on the first
      s.addPart(frag(0.5, true));
      s.addPart(frag(0.5, false));
    }
    // 6 s in 1 s GOPs → segments of 2 s (cut at every second keyframe): 1,2 complete, 3 being written
    const m = s.model();
    expect(m.segments.map((x) => [x.msn, x.duration, x.parts?.length])).toEqual([
      [1, 2, undefined],
      [2, 2, 4],
      [3, undefined, 4],
    ]);
    expect(m.mediaSequence).toBe(FIRST_MSN);
    expect(m.preloadHint).toBe('part_3_4.m4s');
    expect(m.targetDuration).toBe(2);
    expect(s.segment(2)!.data).toEqual(Buffer.concat(s.segment(2) ? [0, 1, 2, 3].map((i) => s.part(2, i)!.data) : []));
    expect(s.segment(3)).toBeUndefined(); // not complete yet
    expect(s.part(3, 3)).toBeDefined();
  });

  it("a stream's first segment is 1, not 0: hls.js loads the parts of a segment 0 again and again", () => {
    // hls.js 1.7.4's fragment tracker reads the sequence number of the part it appends as `sn || -1`:
    // the parts of segment 0 count as none, segment 0 is unregistered as evicted while they append, and
    // its parts are loaded again (from the browser's cache) until the playlist stops listing them.
    const s = new HlsSegmenter(opts);
    s.setInit(Uint8Array.of(1));
    s.addPart(frag(0.5, true));
    const text = renderPlaylist(s.model());
    expect(text).toContain('#EXT-X-MEDIA-SEQUENCE:1\n');
    expect(text).toContain('URI="part_1_0.m4s"');
    expect(text).not.toMatch(/part_0_|seg_0\./);
    expect(s.part(1, 0)).toBeDefined();
    expect(s.part(0, 0)).toBeUndefined();
  });

  it('keeps a window of complete segments and counts discontinuities that slide out', () => {
    const s = new HlsSegmenter(opts);
    s.setInit(Uint8Array.of(1));
    const seg = () => {
      s.addPart(frag(1, true));
      s.addPart(frag(1, false));
    };
    seg();
    seg();
    s.setInit(Uint8Array.of(2)); // camera back with other tracks
    seg();
    seg();
    seg();
    let m = s.model();
    expect(m.segments.map((x) => [x.msn, x.discontinuity, x.map])).toEqual([
      [2, false, 'init.mp4'],
      [3, true, 'init_1.mp4'],
      [4, false, 'init_1.mp4'],
      [5, false, 'init_1.mp4'],
    ]);
    expect(m.mediaSequence).toBe(2);
    expect(m.discontinuitySequence).toBe(0);
    seg();
    m = s.model();
    expect(m.segments[0]).toMatchObject({ msn: 3, discontinuity: true });
    expect(m.discontinuitySequence).toBe(1); // its tag is no longer written
    expect(s.init(0)).toEqual(Uint8Array.of(1));
    expect(s.init(1)).toEqual(Uint8Array.of(2));
    expect(renderPlaylist(m)).not.toContain('#EXT-X-DISCONTINUITY\n');
  });

  it('a new init near the end: a new player starts at its first segment (EXT-X-START), not on the segments before it', () => {
    const s = new HlsSegmenter({ ...opts, windowSegments: 6 });
    s.setInit(Uint8Array.of(1));
    const gop = () => {
      s.addPart(frag(1, true));
      s.addPart(frag(1, false));
    };
    gop();
    gop();
    gop();
    expect(s.model().startOffset).toBeUndefined(); // one init: the player's own live start
    expect(s.initPending).toBe(false);
    s.setInit(Uint8Array.of(2)); // the camera back with another codec
    expect(s.model().startOffset).toBeUndefined(); // nothing of it yet: the route waits for its first part
    expect(s.initPending).toBe(true);
    s.addPart(frag(1, true));
    expect(s.initPending).toBe(false);
    let m = s.model();
    expect(m.startOffset).toBe(-1);
    expect(renderPlaylist(m)).toContain('#EXT-X-START:TIME-OFFSET=-1.0,PRECISE=YES\n');
    s.addPart(frag(1, false));
    gop();
    expect(s.model().startOffset).toBe(-4); // from its first segment's start to the end of the last part
    gop();
    m = s.model();
    expect(m.startOffset).toBeUndefined(); // 3 target durations of it: any live start is inside it
    expect(renderPlaylist(m)).not.toContain('EXT-X-START');
  });

  it('a long GOP makes long segments and raises the target duration; no keyframe for maxSegment cuts anyway', () => {
    const s = new HlsSegmenter({ ...opts, maxSegment: 6 });
    s.setInit(Uint8Array.of(1));
    s.addPart(frag(0.5, true));
    for (let i = 0; i < 7; i++) s.addPart(frag(0.5, false));
    s.addPart(frag(0.5, true)); // 4 s GOP
    expect(s.model().targetDuration).toBe(4);
    for (let i = 0; i < 14; i++) s.addPart(frag(0.5, false));
    expect(s.model().segments.map((x) => x.duration)).toEqual([4, 6, undefined]); // the last one is still being written
  });

  it('has() and waitFor(): blocking reloads resolve when the part lands, or time out', async () => {
    const s = new HlsSegmenter(opts);
    s.setInit(Uint8Array.of(1));
    s.addPart(frag(0.5, true));
    expect(s.has(1, 0)).toBe(true);
    expect(s.has(1, 1)).toBe(false);
    expect(s.has(1)).toBe(false);
    const wait = s.waitFor(() => s.has(1, 1), 1000);
    s.addPart(frag(0.5, false));
    await expect(wait).resolves.toBe(true);
    await expect(s.waitFor(() => s.has(5), 20)).resolves.toBe(false);
    const pending = s.waitFor(() => false, 10_000);
    s.close();
    await expect(pending).resolves.toBe(false);
  });
});
