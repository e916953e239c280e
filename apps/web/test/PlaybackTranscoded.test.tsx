/**
 * An H.265 recording in a browser without H.265: the playback plays the server's H.264 leg
 * (URLs.WS_FMP4_H264) and says so under the picture, in Chinese and English, with the keyframes-only
 * note above 4x; where H.265 decodes (or the recording is H.264) the plain socket plays, no note.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { PlaybackState } from '../src/features/playback/usePlayback';
import { choosePlaybackUrl } from '../src/features/playback/variant';
import { clearSession } from '../src/lib/session';
import { setLang } from '../src/i18n';
import { openBackchannel } from './helpers/backchannel';
import { loginAdmin } from './helpers/dialogs';

const pb = vi.hoisted(() => ({ state: { phase: 'idle', reason: '', requestId: '', speed: 1 } as PlaybackState }));
vi.mock('../src/features/playback/usePlayback', async (importOriginal) => {
  const { idlePlayback } = await import('./helpers/playback-stub');
  return { ...(await importOriginal<typeof import('../src/features/playback/usePlayback')>()), usePlayback: () => idlePlayback(pb.state) };
});

beforeEach(() => loginAdmin());
afterEach(() => {
  clearSession();
  setLang('zh-CN');
});

const PLAIN = '/ws_m4s/playback/0123456789abcdef0123456789abcdef.mp4?play_token=t';
const H264 = '/ws_m4s/playback/0123456789abcdef0123456789abcdef_h264.mp4?play_token=t';

describe('choosePlaybackUrl', () => {
  const hevcAnswer = { URL: PLAIN, URLs: { WS_FMP4: PLAIN, WS_FMP4_H264: H264, MP4: '/x.mp4' } };
  it('plays the H.264 leg where H.265 does not decode', () => {
    expect(choosePlaybackUrl(hevcAnswer, { hevc: false })).toEqual({ url: H264, transcoded: true, hasVariant: true });
  });
  it('plays the recording as stored where H.265 decodes or it is unknown, unless a first try failed', () => {
    expect(choosePlaybackUrl(hevcAnswer, { hevc: true })).toEqual({ url: PLAIN, transcoded: false, hasVariant: true });
    expect(choosePlaybackUrl(hevcAnswer, { hevc: undefined })).toEqual({ url: PLAIN, transcoded: false, hasVariant: true });
    expect(choosePlaybackUrl(hevcAnswer, { hevc: undefined }, true)).toEqual({ url: H264, transcoded: true, hasVariant: true });
  });
  it('an H.264 recording (no leg) and a device recording (no URLs) play as they are', () => {
    expect(choosePlaybackUrl({ URL: PLAIN, URLs: { WS_FMP4: PLAIN } }, { hevc: false })).toEqual({ url: PLAIN, transcoded: false, hasVariant: false });
    expect(choosePlaybackUrl({ URL: PLAIN }, { hevc: false })).toEqual({ url: PLAIN, transcoded: false, hasVariant: false });
  });
});

describe('/video/backchannel playing an H.265 recording transcoded', { timeout: 30_000 }, () => {
  it('says the server transcodes it to H.264 and why, in Chinese and English', async () => {
    pb.state = { phase: 'playing', reason: '', requestId: 'r1', speed: 1, transcoded: true };
    openBackchannel({ name: 'Yard' });
    const note = await screen.findByTestId('playback-transcoded');
    expect(note).toHaveTextContent('浏览器不支持 H.265，服务器转码为 H.264 回放');
    expect(note).not.toHaveTextContent('关键帧');
    setLang('en-US');
    expect(await screen.findByText('H.265 transcoded to H.264 by the server (this browser cannot decode H.265)')).toBeInTheDocument();
  });

  it('above 4x says only keyframes are shown', async () => {
    pb.state = { phase: 'playing', reason: '', requestId: 'r1', speed: 16, transcoded: true };
    openBackchannel({ name: 'Yard' });
    expect(await screen.findByTestId('playback-transcoded')).toHaveTextContent('浏览器不支持 H.265，服务器转码为 H.264 回放 （4 倍速以上仅显示关键帧）');
    setLang('en-US');
    expect(await screen.findByTestId('playback-transcoded')).toHaveTextContent('(above 4x only keyframes are shown)');
  });

  it('a recording played as stored has no such note', async () => {
    pb.state = { phase: 'playing', reason: '', requestId: 'r1', speed: 1 };
    openBackchannel({ name: 'Yard' });
    await screen.findByTestId('playback-player');
    expect(screen.queryByTestId('playback-transcoded')).toBeNull();
  });
});
