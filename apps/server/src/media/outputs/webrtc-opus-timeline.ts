/**
 * The Opus packets' RTP timestamps on the hub's clock. ffmpeg reads ADTS on stdin, which carries no
 * times, so its Opus timestamps count samples: where the hub's audio has a hole (a camera away for
 * N seconds, whose later times the hub moves on by N: hub-timeline.ts) they ran on without one while
 * the video's jumped by N. Each RTCP sender report maps a stream's latest RTP timestamp to the time
 * it was sent, so the audio's mapping moved by N and Chromium's lip sync mixed the reports from
 * before and after for ~20 s: in Debian's Chromium after a 5 s outage the audio/video playout offset
 * swung to +2.7 s and the video's delay grew by ~0.6 s (docs/architecture.md, WebRTC audio).
 *
 * Here each AAC frame written to ffmpeg is noted by its place in ffmpeg's input (seconds of audio
 * written before it in this run) and its hub time; where the hub time runs ahead of the input by more
 * than GAP_S a new segment starts. An Opus packet at output place p (its timestamp less the run's
 * first, 48 kHz ticks) takes the shift of the segment it falls in: while the input has no hole the
 * timestamps are ffmpeg's own (the first is kept as it is), and a hole adds its length from the
 * packet after it on. A restarted ffmpeg (a new SSRC and random base) carries on the same clock.
 */

const RATE = 48000;
/** A hub time ahead of the input's place by more than this (s) is a hole; less is rounding or jitter. */
export const GAP_S = 0.05;
/** A packet belongs to a segment that starts within half a 20 ms packet after it (codec delays are a few ms). */
const SLACK_TICKS = 480;
const U32 = 0x1_0000_0000;

interface Segment {
  /** Where it starts in the run's input (48 kHz ticks). */
  at: number;
  /** Its hub time less its input place (48 kHz ticks, rounded once). */
  shift: number;
  /** Its hub time less its input place (s), to tell the next hole. */
  lead: number;
}

/** One ffmpeg process: its input so far, and its output's SSRC and first timestamp once seen. */
interface Run {
  segments: Segment[];
  /** Seconds of audio written. */
  written: number;
  ssrc?: number;
  base?: number;
}

export class OpusTimeline {
  /** The last two runs (a late packet of the one before may still come in). */
  private runs: Run[] = [];
  /** Output timestamp = origin + segment shift + output place (mod 2^32); set by the first packet. */
  private origin?: number;

  /** A new ffmpeg starts: its input begins at 0 and its packets come with a new SSRC. */
  run(): void {
    this.runs = [...this.runs.slice(-1), { segments: [], written: 0 }];
  }

  /** An AAC frame written to the current ffmpeg: its hub time and its length (s). */
  input(hubSeconds: number, durationSeconds: number): void {
    const run = this.runs.at(-1);
    if (!run) return;
    const lead = hubSeconds - run.written;
    const last = run.segments.at(-1);
    // Only a hole forward starts a segment: a hub time behind the input would send timestamps back.
    if (!last || lead - last.lead > GAP_S) run.segments.push({ at: Math.round(run.written * RATE), shift: Math.round(lead * RATE), lead });
    run.written += durationSeconds;
  }

  /** The timestamp to send for ffmpeg's packet (its SSRC and timestamp); undefined: a packet of no known run. */
  output(ssrc: number, timestamp: number): number | undefined {
    let run = this.runs.find((r) => r.ssrc === ssrc);
    if (!run) {
      run = this.runs.at(-1);
      if (!run || run.ssrc !== undefined || !run.segments.length) return undefined;
      run.ssrc = ssrc;
      run.base = timestamp;
    }
    const place = toSigned((timestamp - run.base!) >>> 0);
    let i = run.segments.length - 1;
    while (i > 0 && run.segments[i].at > place + SLACK_TICKS) i--;
    const seg = run.segments[i];
    // Segments behind the one in use are done with (output only goes forward).
    if (i > 0) run.segments.splice(0, i);
    this.origin ??= timestamp - seg.shift - place;
    return (((this.origin + seg.shift + place) % U32) + U32) % U32;
  }
}

/** A 32-bit difference as signed (a packet just before the run's first). */
function toSigned(d: number): number {
  return d >= U32 / 2 ? d - U32 : d;
}
