/** One reading of the drift soak's page probe (page/drift-probe.ts), as drift.ts receives it. */
export interface DriftReading {
  /** performance.now() of the reading, ms. */
  at: number;
  currentTime: number;
  playbackRate: number;
  /** Buffered ranges of the element, first start and last end (s); NaN when none. */
  bufStart: number;
  bufEnd: number;
  /** Media time (s) of the end of the newest video fragment the page received. */
  sentEnd: number;
  framesSent: number;
  /** mediaTime of the last presented frame (requestVideoFrameCallback), and when it was shown. */
  shownMediaTime: number;
  shownAt: number;
  presentedFrames: number;
  /** Times the presented-frame count started again from 0 (a new media player under the element). */
  counterResets: number;
  totalVideoFrames: number;
  droppedVideoFrames: number;
  waiting: number;
  /** Time spent stalled ('waiting' until 'playing'), ms, the current stall included. */
  stalledMs: number;
  seeks: number;
  rateChanges: number;
  /** performance.memory.usedJSHeapSize (Chromium with --enable-precise-memory-info), bytes. */
  heap: number;
}
