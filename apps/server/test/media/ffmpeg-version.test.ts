/** Which ffmpeg puts HEVC in FLV: the CDN push copies H.265 only through one that does. */
import { describe, expect, it } from 'vitest';
import { hevcInFlv, parseFfmpegVersion } from '../../src/media/ffmpeg/version.js';

describe('ffmpeg version', () => {
  it('reads the release from the first line of ffmpeg -version', () => {
    expect(parseFfmpegVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers\nbuilt with gcc 12')).toEqual({ major: 5, minor: 1 });
    expect(parseFfmpegVersion('ffmpeg version n6.1.1 Copyright (c) 2000-2023')).toEqual({ major: 6, minor: 1 });
    expect(parseFfmpegVersion('ffmpeg version 7.0.2-static https://johnvansickle.com/ffmpeg/')).toEqual({ major: 7, minor: 0 });
    expect(parseFfmpegVersion('ffmpeg version N-113032-g4bd2bc6d2a Copyright (c) 2000-2024')).toBeUndefined();
    expect(parseFfmpegVersion('')).toBeUndefined();
  });

  it('HEVC in FLV from 6.1 on, and in a build from git', () => {
    expect(hevcInFlv({ major: 5, minor: 1 })).toBe(false);
    expect(hevcInFlv({ major: 6, minor: 0 })).toBe(false);
    expect(hevcInFlv({ major: 6, minor: 1 })).toBe(true);
    expect(hevcInFlv({ major: 7, minor: 0 })).toBe(true);
    expect(hevcInFlv(undefined)).toBe(true);
  });
});
