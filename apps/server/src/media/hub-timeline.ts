/**
 * A hub's media clock across source sessions. Every source starts a clock of its own (the RTSP
 * client counts from its session's start, an RTMP or PS stream from what its encoder says), so a
 * camera that dropped and came back would send times that start over, and every output would have
 * to start a new timeline: a live player a new MediaSource (a black flash and a fresh start-up),
 * WebRTC a jump of its RTP timestamps, FLV tags that go back.
 *
 * Instead the hub shifts every unit of a later session by one offset, chosen at that session's
 * first unit: the new media starts where the delivered media ended plus the real time the source
 * was away (wall clock), so times only go forward and keep pace with the wall clock. One offset in
 * seconds for every track (each in its own clock) keeps audio and video in step as the source set
 * them. The first session is left as it is (no copy per unit). An output that wants no hole (the
 * live fMP4 player) closes it itself; the clock here stays true.
 */
import type { AccessUnit } from '@opencvr/codec';

/** Step assumed after a track's last unit when it had only one (a frame at 25 fps). */
const DEFAULT_STEP_S = 0.04;
/** A step between two units of a track longer than this is a pause, not the track's frame step. */
const MAX_STEP_S = 1;

export class HubTimeline {
  /** Seconds added to the current session's times; undefined until its first unit. */
  private shift?: number;
  /** Sessions that delivered a unit (the first is not shifted). */
  private delivered = false;
  /** Hub time (s) where the delivered media ends: a unit's latest time plus its track's step. */
  private end = 0;
  /** When (wall clock, ms) the last unit was delivered. */
  private endAt = 0;
  /** The end of the sessions before this one: no unit of this session goes before it. */
  private floor = 0;
  /** Per track of this session: its last unit's time and step (s, hub clock). */
  private lastTime: number[] = [];
  private lastStep: number[] = [];

  /** A new source session starts (the hub connects again): its clock is its own. */
  session(): void {
    this.shift = undefined;
    this.floor = this.end;
    this.lastTime = [];
    this.lastStep = [];
  }

  /** Seconds the current session's times are shifted by (0 before its first unit and in the first session). */
  get offset(): number {
    return this.shift ?? 0;
  }

  /**
   * The unit on the hub's clock: the unit itself while the offset is 0, else a shifted copy (the
   * source's unit is lent and may be its own to read again). `clockRate`: the track's ticks a second.
   */
  map(track: number, clockRate: number, unit: AccessUnit, now: number): AccessUnit {
    const own = unit.kind === 'video' ? Math.min(unit.pts, unit.dts) : unit.pts;
    if (this.shift === undefined) {
      const gap = Math.max(0, now - this.endAt) / 1000;
      this.shift = this.delivered ? this.end + gap - own / clockRate : 0;
      this.delivered = true;
    } else if (this.lastTime[track] === undefined && own / clockRate + this.shift < this.floor) {
      // A track that starts earlier than the one that set the offset: all move forward, none goes back.
      this.shift = this.floor - own / clockRate;
    }
    const ticks = Math.round(this.shift * clockRate);
    const out: AccessUnit = ticks === 0 ? unit : unit.kind === 'video' ? { ...unit, pts: unit.pts + ticks, dts: unit.dts + ticks } : { ...unit, pts: unit.pts + ticks };
    this.advance(track, out, clockRate, now);
    return out;
  }

  private advance(track: number, unit: AccessUnit, clockRate: number, now: number) {
    const time = (unit.kind === 'video' ? unit.dts : unit.pts) / clockRate;
    const latest = (unit.kind === 'video' ? Math.max(unit.pts, unit.dts) : unit.pts) / clockRate;
    const prev = this.lastTime[track];
    const step = prev !== undefined && time > prev && time - prev <= MAX_STEP_S ? time - prev : (this.lastStep[track] ?? DEFAULT_STEP_S);
    this.lastTime[track] = time;
    this.lastStep[track] = step;
    if (latest + step > this.end) this.end = latest + step;
    this.endAt = now;
  }
}
