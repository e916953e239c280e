/**
 * Timestamps of a device playback at speed. After `PLAY Scale: 4`, a device sends its recording four
 * times faster than real time but keeps the recording's own timestamps (the PS PTS advance one
 * second per second of recording). A browser plays by timestamps: fed 4 s of timestamps per wall
 * second it would play at 1× while its buffer grows without end. So the output timeline advances by
 * the input's progression divided by the scale: out = outAnchor + (in - inAnchor) / scale, re-anchored
 * at each change of scale so the output never jumps. The browser then plays what arrives at the
 * pace it arrives, and the picture shows 4 s of recording per second (the player keeps playbackRate 1:
 * the speed is already in the timestamps). A device that thins the stream at speed (keyframes only)
 * needs nothing else: its pictures keep their own times.
 *
 * A jump of the input (a seek: PLAY Range) is re-anchored at the next picture so the output goes on
 * from where it was, a frame later. Pure: no clock.
 */
export interface RescaledTime {
  pts: number;
  dts: number;
}

/** 90 kHz: forward more than 5 s, or back more than half a second, between two pictures is a seek or a discontinuity. */
const JUMP_FORWARD = 5 * 90000;
const JUMP_BACK = 45000;
/** Output step used when re-anchoring after a jump (one frame at 25 fps). */
const FRAME = 3600;

export class Rescaler {
  private scale = 1;
  private pendingScale?: number;
  private inAnchor?: number;
  private outAnchor = 0;
  private lastIn?: number;
  private lastOut = -1;
  private rebaseNext = false;
  /** Input time of the first picture of the current run (since the start or the last seek). */
  private runFirstIn?: number;

  /** The scale in force for the pictures that follow. */
  get current(): number {
    return this.pendingScale ?? this.scale;
  }

  /** Recording time (s) from the first picture of the current run to the last one mapped. */
  get runSeconds(): number {
    return this.lastIn === undefined || this.runFirstIn === undefined ? 0 : (this.lastIn - this.runFirstIn) / 90000;
  }

  setScale(scale: number) {
    if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`scale ${scale} is not a positive number`);
    this.pendingScale = scale;
  }

  /** The next picture starts a new run (a seek was asked): it goes right after the last output. */
  rebase() {
    this.rebaseNext = true;
  }

  /** New timestamps (90 kHz) for a video unit; pts keeps its offset from dts (divided by the scale). */
  map(pts: number, dts: number): RescaledTime {
    if (this.inAnchor === undefined || this.lastIn === undefined) {
      this.start(dts, 0);
    } else {
      const jumped = dts - this.lastIn > JUMP_FORWARD || this.lastIn - dts > JUMP_BACK;
      if (this.rebaseNext || jumped) this.start(dts, this.lastOut + FRAME);
      else if (this.pendingScale !== undefined) {
        // A speed change: the output goes on from where this picture falls under the old scale.
        const at = this.outAt(dts);
        this.scale = this.pendingScale;
        this.pendingScale = undefined;
        this.inAnchor = dts;
        this.outAnchor = at;
      }
    }
    this.lastIn = dts;
    const d = Math.max(Math.round(this.outAt(dts)), this.lastOut + 1);
    // Never backwards: a repeated or reordered picture keeps the output monotonic.
    this.lastOut = d;
    return { dts: d, pts: d + Math.max(0, Math.round((pts - dts) / this.scale)) };
  }

  private start(dts: number, out: number) {
    if (this.pendingScale !== undefined) this.scale = this.pendingScale;
    this.pendingScale = undefined;
    this.rebaseNext = false;
    this.inAnchor = dts;
    this.runFirstIn = dts;
    this.outAnchor = out;
  }

  private outAt(dts: number): number {
    return this.outAnchor + (dts - this.inAnchor!) / this.scale;
  }
}
