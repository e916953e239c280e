/**
 * RTMP's message times on one continuous timeline. They are 32-bit milliseconds shared by audio and
 * video: they wrap after 49.7 days, the two tracks interleave (audio may come a little behind the
 * video), and a publisher that restarts behind a relaying server starts again near 0, or anywhere.
 * Outputs need times that keep going forward, so:
 * - the distance from the newest time seen is taken modulo 2^32 (a wrap is one more step forward);
 * - a step of more than JUMP_MS either way is a new timeline, joined STEP_MS after the newest;
 * - a track going back on itself (which one publisher never does) is the same: a restart.
 */

/** Further than this from the newest time, either way: not the same timeline. */
const JUMP_MS = 10_000;
/** Where a new timeline joins: a frame after the newest time given. */
const STEP_MS = 40;

export class RtmpTimeline {
  /** The newest raw time seen, and where it is on the output timeline. */
  private headRaw?: number;
  private headMs = 0;

  /**
   * The output time (ms) of a message at `raw`; `trackLast`: the output time of the track's previous
   * message, so that no track goes back.
   */
  at(raw: number, trackLast?: number): number {
    raw >>>= 0;
    if (this.headRaw === undefined) {
      this.headRaw = raw;
      this.headMs = raw;
      return raw;
    }
    // Signed 32-bit distance: a wrap from 0xffffffff to 0 is +1.
    const d = (raw - this.headRaw) | 0;
    if (d > JUMP_MS || d < -JUMP_MS) return this.rebase(raw, trackLast);
    const ms = this.headMs + d;
    if (trackLast !== undefined && ms < trackLast) return this.rebase(raw, trackLast);
    if (d > 0) {
      this.headRaw = raw;
      this.headMs = ms;
    }
    return ms;
  }

  private rebase(raw: number, trackLast = this.headMs): number {
    this.headRaw = raw;
    this.headMs = Math.max(this.headMs, trackLast) + STEP_MS;
    return this.headMs;
  }
}
