import { describe, expect, it } from 'vitest';
import { codecFamily, codecsOf, initSwitch } from '../src/components/player/initSwitch';

const AVC_QVGA = 'video/mp4; codecs="avc1.42c00d"';
const AVC_VGA = 'video/mp4; codecs="avc1.42c01e"';
const HEVC = 'video/mp4; codecs="hvc1.1.6.L93.b0"';

describe('a new init segment on a playing socket', () => {
  it('reads the codec strings and their family (avc1/avc3 one, hvc1/hev1 another)', () => {
    expect(codecsOf('video/mp4; codecs="avc1.64001f,mp4a.40.2"')).toEqual(['avc1.64001f', 'mp4a.40.2']);
    expect(codecsOf('video/mp4')).toEqual([]);
    expect(codecFamily('avc3.640028')).toBe(codecFamily('avc1.42c00d'));
    expect(codecFamily('hev1.1.6.L93.b0')).toBe(codecFamily('hvc1.2.4.L120.b0'));
    expect(codecFamily('hvc1.1.6.L93.b0')).not.toBe(codecFamily('avc1.42c00d'));
  });

  it('a continuing timeline with the same codec string: appended to the same SourceBuffer', () => {
    expect(initSwitch(AVC_QVGA, { mime: AVC_QVGA, continues: true }, true)).toBe('append');
    expect(initSwitch(AVC_QVGA, { mime: AVC_QVGA, continues: true }, false)).toBe('append');
  });

  it('a new avc1 profile/level (a camera that changed its size): changeType, where the browser has it', () => {
    expect(initSwitch(AVC_QVGA, { mime: AVC_VGA, continues: true }, true)).toBe('changeType');
    expect(initSwitch(`${AVC_QVGA.slice(0, -1)},mp4a.40.2"`, { mime: 'video/mp4; codecs="avc3.640028,mp4a.40.2"', continues: true }, true)).toBe('changeType');
    expect(initSwitch(AVC_QVGA, { mime: AVC_VGA, continues: true }, false)).toBe('restart');
  });

  it('a fresh MediaSource for another codec family, a track more or less, or a timeline that starts anew', () => {
    expect(initSwitch(AVC_QVGA, { mime: HEVC, continues: true }, true)).toBe('restart');
    expect(initSwitch(HEVC, { mime: AVC_QVGA, continues: true }, true)).toBe('restart');
    expect(initSwitch(AVC_QVGA, { mime: 'video/mp4; codecs="avc1.42c00d,mp4a.40.2"', continues: true }, true)).toBe('restart');
    expect(initSwitch('audio/mp4; codecs="mp4a.40.2"', { mime: 'video/mp4; codecs="mp4a.40.2"', continues: true }, true)).toBe('restart');
    // Live (no `continues`: a camera that came back starts its own times) and a seek's new run.
    expect(initSwitch(AVC_QVGA, { mime: AVC_QVGA }, true)).toBe('restart');
    expect(initSwitch(undefined, { mime: AVC_QVGA, continues: true }, true)).toBe('restart');
  });
});
