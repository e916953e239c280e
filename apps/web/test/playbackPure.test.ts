/** Playback pure parts: calendar flags, timeline geometry, the recordings breadcrumb, file names, gaps. */
import { describe, expect, it } from 'vitest';
import { addRecord, cutRecords, emptyBreadcrumb } from '../src/features/playback/breadcrumb';
import { daysInMonth, monthGrid, parseDay, recordedDays, secondsOfDay, shiftMonth, stampAt, today } from '../src/features/playback/day';
import { fileNameOf } from '../src/features/playback/download';
import { DAY, MIN_SPAN, follow, followPlayhead, mergeRanges, rangeAtOrAfter, replayFrom, rangeBoxes, timeToX, xToTime, zoomAt, zoomCentre, zoomStep } from '../src/features/playback/timeline';
import { dayRanges } from '../src/features/playback/useDayRecords';
import { gapTarget, holeSkip, mediaStep, positionOf, withRate, type Anchor } from '../src/features/playback/usePlayback';

describe('calendar', () => {
  it('flags the recorded days of the monthly string', () => {
    const flags = '0100000000000000000000000000011';
    expect([...recordedDays(flags, '202401')]).toEqual(['20240102', '20240130', '20240131']);
    // February 2023 has 28 days: characters beyond are ignored; a short string flags what it has.
    expect(recordedDays('1'.repeat(31), '202302').size).toBe(28);
    expect([...recordedDays('001', '202403')]).toEqual(['20240303']);
    expect(recordedDays(undefined, '202403').size).toBe(0);
    expect(recordedDays('', '202403').size).toBe(0);
  });

  it('months and days', () => {
    expect(daysInMonth('202402')).toBe(29);
    expect(shiftMonth('202401', -1)).toBe('202312');
    expect(shiftMonth('202412', 1)).toBe('202501');
    expect(parseDay('20240230')).toBeUndefined();
    expect(parseDay('2024')).toBeUndefined();
    expect(today(new Date(2024, 0, 5, 23, 59))).toBe('20240105');
    const grid = monthGrid('202405'); // 1 May 2024 is a Wednesday
    expect(grid).toHaveLength(42);
    expect(grid[0]).toEqual({ day: '20240429', date: 29, inMonth: false });
    expect(grid[2]).toEqual({ day: '20240501', date: 1, inMonth: true });
    expect(stampAt('20240501', 3661)).toBe('20240501010101');
    expect(secondsOfDay('20240501', '20240501010101')).toBe(3661);
  });
});

describe('timeline geometry', () => {
  it('maps time to x and back at several zoom levels', () => {
    const full = { start: 0, span: DAY };
    expect(timeToX(43200, full, 1000)).toBe(500);
    expect(xToTime(250, full, 1000)).toBe(21600);
    const hour = { start: 3600 * 10, span: 3600 };
    expect(timeToX(36000 + 900, hour, 800)).toBe(200);
    expect(xToTime(400, hour, 800)).toBe(36000 + 1800);
    const fiveMin = { start: 50000, span: 300 };
    expect(xToTime(600, fiveMin, 600)).toBe(50300);
    expect(timeToX(50150, fiveMin, 600)).toBe(300);
    // Outside the day is clamped.
    expect(xToTime(-10, full, 1000)).toBe(0);
    expect(xToTime(2000, full, 1000)).toBe(DAY);
  });

  it('zooms around the pointer down to minutes and back out to the day', () => {
    const v = zoomAt({ start: 0, span: DAY }, 0.5, 43200);
    expect(v).toEqual({ start: 21600, span: 43200 });
    expect(timeToX(43200, v, 1000)).toBe(500); // the anchor stays in place
    let z = { start: 0, span: DAY };
    for (let i = 0; i < 40; i++) z = zoomAt(z, 0.5, 80000);
    expect(z.span).toBe(MIN_SPAN);
    expect(z.start + z.span).toBeLessThanOrEqual(DAY);
    expect(zoomAt(z, 1e6, 100).span).toBe(DAY);
    expect(zoomStep({ start: 0, span: DAY }, 1, 43200)).toEqual({ start: 21600, span: 43200 });
    expect(zoomStep({ start: 0, span: 3600 }, -1, 100)).toEqual({ start: 0, span: 7200 });
    expect(follow({ start: 0, span: 3600 }, 7200)).toEqual({ start: 5400, span: 3600 });
  });

  it('merges ranges and clips them to the view', () => {
    expect(mergeRanges([[50, 60], [0, 10], [10, 20], [30, 40], [35, 45]])).toEqual([[0, 20], [30, 45], [50, 60]]);
    expect(mergeRanges([[0, 10], [12, 20]], 2)).toEqual([[0, 20]]);
    expect(mergeRanges([[5, 5]])).toEqual([]);
    const boxes = rangeBoxes([[0, 3600], [7200, 7300]], { start: 1800, span: 3600 }, 1000);
    expect(boxes).toEqual([{ left: 0, width: 500 }]);
    expect(rangeAtOrAfter([[10, 20], [30, 40]], 25)).toEqual([30, 40]);
    expect(rangeAtOrAfter([[10, 20], [30, 40]], 15)).toEqual([10, 20]);
    expect(rangeAtOrAfter([[10, 20]], 25)).toBeUndefined();
  });

  it('turns querydaily ranges into seconds of the day, clipped', () => {
    const r = dayRanges(
      [
        { name: 'a', startAt: '20240501080000', endAt: '20240501080030', duration: 30, important: 0 },
        { name: 'b', startAt: '20240430235900', endAt: '20240501000100', duration: 120, important: 1 },
      ],
      '20240501',
    );
    expect(r.map((x) => [x.name, x.start, x.end])).toEqual([
      ['b', 0, 60],
      ['a', 28800, 28830],
    ]);
  });
});

describe('the view and the playing playhead', () => {
  const v = { start: 7 * 3600, span: 600 };
  it('follows a playhead that plays out of sight, jumps, or has just started', () => {
    expect(followPlayhead(v, 7 * 3600 + 601, 7 * 3600 + 600)).toEqual({ start: 7 * 3600 + 301, span: 600 });
    expect(followPlayhead(v, 9 * 3600, 7 * 3600 + 100)).toEqual({ start: 9 * 3600 - 300, span: 600 });
    expect(followPlayhead(v, 5 * 3600, undefined)).toEqual({ start: 5 * 3600 - 300, span: 600 });
    expect(followPlayhead(v, 7 * 3600 + 100, 7 * 3600 + 99)).toBe(v);
  });
  it('stays where the user panned it while the playhead plays on out of sight', () => {
    // Panned to 07:10-07:20 while playing at 07:05: the view stays there (it snapped back at once).
    const panned = { start: 7 * 3600 + 600, span: 600 };
    expect(followPlayhead(panned, 7 * 3600 + 301, 7 * 3600 + 300)).toBe(panned);
    // At 16x a look sees the playhead 4 s further: still playing, not a seek.
    expect(followPlayhead(panned, 7 * 3600 + 304, 7 * 3600 + 300)).toBe(panned);
  });
});

describe('play again after the end', () => {
  it('starts the range the playback ended in from its start', () => {
    const ranges: [number, number][] = [
      [100, 200],
      [300, 400],
    ];
    expect(replayFrom(ranges, 400.6)).toBe(300);
    // Measured: the playhead ended 1.3 s past the index's end of the range.
    expect(replayFrom(ranges, 401.3)).toBe(300);
    expect(replayFrom(ranges, 150)).toBe(100);
    expect(replayFrom(ranges, 250)).toBe(100);
    expect(replayFrom(ranges, undefined)).toBe(100);
    expect(replayFrom([], 5)).toBeUndefined();
  });
});

describe('playhead across gaps', () => {
  it('maps the media clock to the day with gap anchors', () => {
    const base = parseDay('20240501')!.getTime();
    expect(gapTarget({ type: 'gap', from: base + 100_000, to: base + 200_000 }, '20240501')).toBe(200);
    expect(gapTarget({ type: 'gap', to: '20240501000500' }, '20240501')).toBe(300);
    expect(gapTarget({ type: 'gap' }, '20240501')).toBeUndefined();
    const anchors = [
      { day: 100, media: 0 },
      { day: 500, media: 30 },
    ];
    expect(positionOf(anchors, 10)).toBe(110);
    expect(positionOf(anchors, 31)).toBe(501);
    expect(positionOf([{ day: 0, media: null }], 5)).toBeUndefined();
  });

  it('a device recording at 4x (the speed in its timestamps) moves the playhead four seconds per media second', () => {
    // Opened at 02:00:00 at 1x, first frame at media 0.5; 4x asked when 3 s of media are buffered.
    let anchors: Anchor[] = [{ day: 7200, media: 0.5 }];
    expect(positionOf(anchors, 2.5)).toBe(7202);
    anchors = withRate(anchors, 3.5, 4);
    // Up to the end of the buffer the media was sent at 1x; after it, four seconds per second.
    expect(positionOf(anchors, 3.5)).toBe(7203);
    expect(positionOf(anchors, 5.5)).toBe(7211);
    // Back to 1x later on.
    anchors = withRate(anchors, 6.5, 1);
    expect(positionOf(anchors, 7.5)).toBe(7216);
    // A 10 s step inside the buffer at 4x is 2.5 s of media.
    expect(mediaStep(withRate([{ day: 0, media: 0 }], 0, 4), 1, 10)).toBe(3.5);
    expect(mediaStep([{ day: 0, media: 0 }], 1, 10)).toBe(11);
    // Opened at speed before the first frame: the first anchor carries the rate.
    expect(positionOf(withRate([{ day: 100, media: null }], 0, 2).map((a) => ({ ...a, media: 0 })), 3)).toBe(106);
  });

  it('moves a playhead stuck in front of the hole a gap leaves in the buffer over it', () => {
    // Measured in Chromium across a camera restart: the audio and video of the two blocks leave
    // 43 ms where only one track has media, and the <video> waited at 6.5205 for good.
    const ranges: [number, number][] = [
      [0, 6.5644],
      [6.6072, 13.5964],
    ];
    expect(holeSkip(ranges, 6.5205)).toBeCloseTo(6.6082, 3);
    // Inside the hole too.
    expect(holeSkip(ranges, 6.58)).toBeCloseTo(6.6082, 3);
    // Media still ahead in the range: no jump (the player just waits for data).
    expect(holeSkip(ranges, 3)).toBeUndefined();
    // At the end of what has come so far, nothing behind it: wait.
    expect(holeSkip([[0, 6.5644]], 6.5205)).toBeUndefined();
    // A hole longer than a second is not a gap's edge: left alone.
    expect(holeSkip([[0, 5], [7, 9]], 4.9)).toBeUndefined();
  });

  it('at speed, moves a playhead that stopped further ahead of the hole over it', () => {
    // Measured in Chromium at 8× (session 25): the <video> stopped at 20.35, 0.49 s before a 50 ms
    // hole (20.84-20.89), for good; the server then sent the rest and the page said 回放结束 at the
    // first gap, the recording after it never played.
    const ranges: [number, number][] = [
      [0, 20.84],
      [20.89, 65.73],
    ];
    expect(holeSkip(ranges, 20.35, 8)).toBeCloseTo(20.891, 3);
    expect(holeSkip(ranges, 19.9, 16)).toBeCloseTo(20.891, 3);
    // At 1× that far ahead is a wait for data, not the hole.
    expect(holeSkip(ranges, 20.35)).toBeUndefined();
    // Slower than 1×: as at 1×.
    expect(holeSkip(ranges, 20.35, 0.5)).toBeUndefined();
    // Seconds of media ahead even at 8×: no jump.
    expect(holeSkip(ranges, 15, 8)).toBeUndefined();
  });
});

describe('recordings breadcrumb', () => {
  it('adds a node with its parents and cuts the trail to a length', () => {
    const root = { key: 'list', label: 'Playback', to: '/video/backlist/0' };
    const dev = { key: 'd:1', label: 'Dev 1', to: '/video/backlist/1' };
    const ch = { key: 'c:1:1', label: 'Cam' };
    let s = addRecord(emptyBreadcrumb(), ch, [root, dev], '20240501');
    expect(s).toEqual({ stime: '20240501', records: [root, dev, ch] });
    // Another channel of the same device: the shared parents stay, the rest is replaced.
    const ch2 = { key: 'c:1:2', label: 'Cam 2' };
    s = addRecord(s, ch2, [root, dev]);
    expect(s.records.map((c) => c.key)).toEqual(['list', 'd:1', 'c:1:2']);
    expect(s.stime).toBe('20240501');
    // A deeper node.
    s = addRecord(s, { key: 'day', label: '2024-05-01' }, [root, dev, ch2], '20240501');
    expect(s.records).toHaveLength(4);
    expect(cutRecords(s, 2).records.map((c) => c.key)).toEqual(['list', 'd:1']);
    expect(cutRecords(s, 0).records).toEqual([]);
    expect(cutRecords(s, 9)).toBe(s);
    expect(cutRecords(s, -1).records).toEqual([]);
  });
});

describe('download file name', () => {
  it('prefers filename* and decodes it', () => {
    expect(fileNameOf(`attachment; filename="cam_1.mp4"; filename*=UTF-8''%E9%97%A8%E5%8F%A3_20240501080000_20240501080020.mp4`)).toBe('门口_20240501080000_20240501080020.mp4');
    expect(fileNameOf(`attachment; filename*=utf-8'en'a%20b.mp4`)).toBe('a b.mp4');
  });
  it('falls back to filename, quoted or not, and never keeps folders', () => {
    expect(fileNameOf('attachment; filename="x \\"y\\".mp4"')).toBe('x "y".mp4');
    expect(fileNameOf('attachment; filename=plain.mp4')).toBe('plain.mp4');
    expect(fileNameOf(`attachment; filename*=UTF-8''%E0%A4%A; filename="ok.mp4"`)).toBe('ok.mp4');
    expect(fileNameOf('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameOf('attachment')).toBeUndefined();
    expect(fileNameOf(null)).toBeUndefined();
  });
});

describe('English counts', () => {
  it('says 1 range and 1 day, not 1 ranges and 1 days', async () => {
    const { default: i18n } = await import('../src/i18n');
    const en = i18n.getFixedT('en-US');
    expect(en('playback.daySummary', { count: 1, duration: '00:02:37' })).toBe('1 range, 00:02:37 in all');
    expect(en('playback.daySummary', { count: 3, duration: '00:02:37' })).toBe('3 ranges, 00:02:37 in all');
    expect(en('recording.daysValue', { count: 1 })).toBe('1 day');
    expect(en('recording.daysValue', { count: 30 })).toBe('30 days');
    expect(i18n.getFixedT('zh-CN')('recording.daysValue', { count: 30 })).toBe('30 天');
  });
});

describe('zoomCentre', () => {
  const day = { start: 0, span: DAY };
  it('zooms on the playhead, else the selection, else the recordings in view, else the middle', () => {
    expect(zoomCentre(day, 100, [7000, 7010], [[25_000, 26_000]])).toBe(100);
    expect(zoomCentre(day, undefined, [7000, 7010], [[25_000, 26_000]])).toBe(7005);
    expect(zoomCentre(day, undefined, null, [[25_200, 25_300], [25_500, 25_600]])).toBe(25_400);
    expect(zoomCentre(day, undefined, null, [])).toBe(DAY / 2);
    // only what is in view counts
    expect(zoomCentre({ start: 25_000, span: 1000 }, undefined, null, [[100, 200], [25_100, 27_000]])).toBe((25_100 + 26_000) / 2);
  });
});
