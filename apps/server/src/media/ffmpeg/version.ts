/**
 * What the local ffmpeg can do that depends on its version. Debian 12 ships ffmpeg 5.1, which neither
 * reads nor writes HEVC in FLV; "enhanced FLV" (HEVC with a FourCC, what the hub's FLV output writes
 * for H.265) came with ffmpeg 6.1 in both directions.
 */
import { execFile } from 'node:child_process';

export interface FfmpegVersion {
  major: number;
  minor: number;
}

/**
 * The release in `ffmpeg -version`'s first line ("ffmpeg version 5.1.9-0+deb12u1", "ffmpeg version
 * n6.1.1"); undefined for a build from git ("ffmpeg version N-113032-g...", newer than any release
 * it could be mistaken for) or text that is not ffmpeg's.
 */
export function parseFfmpegVersion(text: string): FfmpegVersion | undefined {
  const m = /^ffmpeg version n?(\d+)\.(\d+)/m.exec(text);
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

/** Whether ffmpeg of that version demuxes and muxes HEVC in FLV (a git build is taken to). */
export const hevcInFlv = (v: FfmpegVersion | undefined) => !v || v.major > 6 || (v.major === 6 && v.minor >= 1);

const probes = new Map<string, Promise<boolean>>();

/** hevcInFlv of the ffmpeg at `bin`, asked once per program; false when it cannot be run. */
export function ffmpegHasHevcInFlv(bin = 'ffmpeg'): Promise<boolean> {
  let p = probes.get(bin);
  if (!p) {
    p = new Promise((resolve) =>
      execFile(bin, ['-version'], { timeout: 10_000 }, (err, stdout) => resolve(!err && hevcInFlv(parseFfmpegVersion(stdout)))),
    );
    probes.set(bin, p);
  }
  return p;
}
