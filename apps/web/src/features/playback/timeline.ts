/**
 * Geometry of the 24-hour timeline: a view is a window [start, start + span) of seconds since the
 * day's midnight drawn over `width` pixels. Zoom goes from the whole day down to a few minutes,
 * keeping the second under the pointer in place.
 */
export const DAY = 86400;
export const MIN_SPAN = 5 * 60;
export const MAX_SPAN = DAY;
/** Zoom levels of the +/- buttons. */
export const ZOOM_STEPS = [DAY, 12 * 3600, 6 * 3600, 2 * 3600, 3600, 30 * 60, 10 * 60, 5 * 60];

export interface View {
  start: number;
  span: number;
}

export type Range = [number, number];

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export function clampView(v: View): View {
  const span = clamp(v.span, MIN_SPAN, MAX_SPAN);
  return { span, start: clamp(v.start, 0, DAY - span) };
}

export const timeToX = (t: number, v: View, width: number) => ((t - v.start) / v.span) * width;
export const xToTime = (x: number, v: View, width: number) => clamp(v.start + (x / width) * v.span, 0, DAY);

/** Zoom by `factor` (< 1 zooms in) keeping `anchor` (seconds) at the same x. */
export function zoomAt(v: View, factor: number, anchor: number): View {
  const span = clamp(v.span * factor, MIN_SPAN, MAX_SPAN);
  const ratio = (anchor - v.start) / v.span;
  return clampView({ span, start: anchor - ratio * span });
}

/** Pixels of a wheel event's delta by its deltaMode (0 pixels, 1 lines, 2 pages), as browsers scroll them. */
const WHEEL_UNIT_PX = [1, 40, 800];
/** A wheel delta this large (pixels) or more is one notch of a mouse wheel (Chromium: 100-120, Firefox: 3 lines). */
const WHEEL_NOTCH_PX = 50;

/**
 * The zoom factor of one wheel event: a mouse wheel's notch halves the span (down) or doubles it
 * (up), so 24 h reach minutes in eight notches; a trackpad's small deltas zoom in proportion. The
 * factor was 0.8 per event whatever its size: six notches left a 6-hour view in which a 3-minute
 * recording was a sliver of a few pixels.
 */
export function wheelZoomFactor(e: { deltaY: number; deltaMode: number }): number {
  const px = e.deltaY * (WHEEL_UNIT_PX[e.deltaMode] ?? 1);
  return 2 ** clamp(px / WHEEL_NOTCH_PX, -1, 1);
}

/** The next button zoom level in (dir 1) or out (dir -1), centred on `centre`. */
export function zoomStep(v: View, dir: 1 | -1, centre: number): View {
  let span: number;
  if (dir > 0) span = ZOOM_STEPS.find((s) => s < v.span - 1) ?? MIN_SPAN;
  else span = [...ZOOM_STEPS].reverse().find((s) => s > v.span + 1) ?? MAX_SPAN;
  return clampView({ span, start: centre - span / 2 });
}

/**
 * Where the zoom buttons zoom: the playhead, else the selection, else the middle of what is recorded
 * in view (zooming on the middle of the day, often empty, lost the recordings), else the view's middle.
 */
export function zoomCentre(v: View, head: number | undefined, selection: Range | null | undefined, ranges: readonly Range[]): number {
  if (head !== undefined) return head;
  if (selection) return (selection[0] + selection[1]) / 2;
  const end = v.start + v.span;
  const seen = ranges.filter(([a, b]) => b > v.start && a < end).map(([a, b]): Range => [Math.max(a, v.start), Math.min(b, end)]);
  if (seen.length) return (seen[0][0] + seen[seen.length - 1][1]) / 2;
  return v.start + v.span / 2;
}

/** Moves the view so `t` is visible (centred when it was outside). */
export function follow(v: View, t: number): View {
  if (t >= v.start && t <= v.start + v.span) return v;
  return clampView({ span: v.span, start: t - v.span / 2 });
}

/** A move of the playhead by more than this (seconds) between two looks is a seek, not playing. */
export const JUMP = 30;

/**
 * The view as the playhead moves from `last` to `t`: it follows a playhead that plays out of sight
 * (or jumps, or has just started), but not one the user moved the view away from, so the timeline
 * can be zoomed and panned to other recordings while one plays.
 */
export function followPlayhead(v: View, t: number, last: number | undefined): View {
  const seen = last !== undefined && last >= v.start && last <= v.start + v.span;
  if (last === undefined || seen || Math.abs(t - last) > JUMP) return follow(v, t);
  return v;
}

/** Sorted, merged ranges; ranges closer than `gap` seconds are joined. */
export function mergeRanges(ranges: Range[], gap = 0): Range[] {
  const sorted = ranges.filter(([s, e]) => e > s).map(([s, e]) => [s, e] as Range).sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1] + gap) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Ranges clipped to the view, as pixel spans (left, width ≥ 1). */
export function rangeBoxes(ranges: Range[], v: View, width: number): { left: number; width: number }[] {
  const end = v.start + v.span;
  return ranges
    .filter(([s, e]) => e > v.start && s < end)
    .map(([s, e]) => {
      const l = timeToX(Math.max(s, v.start), v, width);
      const r = timeToX(Math.min(e, end), v, width);
      return { left: l, width: Math.max(1, r - l) };
    });
}

/** A tick step that leaves at least `minPx` between labels. */
export function tickStep(v: View, width: number, minPx = 70): number {
  const steps = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600];
  return steps.find((s) => (s / v.span) * width >= minPx) ?? 21600;
}

export function ticks(v: View, width: number): number[] {
  const step = tickStep(v, width);
  const out: number[] = [];
  for (let t = Math.ceil(v.start / step) * step; t <= v.start + v.span; t += step) out.push(t);
  return out;
}

/**
 * Where the play button starts again once playback has ended at `t`: the start of the range it ended
 * in (the last one starting before `t`: the media may run a little past the index's end), else the
 * first range. Starting at `t` played the last second again and ended at once, so the button seemed
 * to do nothing.
 */
export function replayFrom(ranges: Range[], t: number | undefined): number | undefined {
  const r = t === undefined ? undefined : ranges.filter(([s]) => s <= t).pop();
  return (r ?? ranges[0])?.[0];
}

/** The range that holds `t`, or the first one after it (playback starts in the next recording). */
export function rangeAtOrAfter(ranges: Range[], t: number): Range | undefined {
  return ranges.find(([s, e]) => t >= s && t < e) ?? ranges.find(([s]) => s > t);
}
