/**
 * An H.265 recording in a browser without H.265 (Chromium on Linux, Firefox): the playback page said
 * only "当前浏览器无法解码该视频（video/mp4; codecs="hvc1…"）", a codec string and no way on. It now
 * says the recording is H.265, which this browser cannot play in the page, and that a download plays
 * in a desktop player (live video gets the server's H.264 variant; recordings are sent as stored).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { PlaybackState } from '../src/features/playback/usePlayback';
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
  vi.unstubAllGlobals();
  clearSession();
  setLang('zh-CN');
});


const HEVC = 'video/mp4; codecs="hvc1.4.10.L60.98.8"';

describe('/video/backchannel with a recording this browser cannot decode', { timeout: 30_000 }, () => {
  it('says an H.265 recording cannot play here and that a download can, in Chinese and English', async () => {
    pb.state = { phase: 'unsupported', reason: HEVC, requestId: 'r1', speed: 1 };
    openBackchannel({ name: 'Yard' });
    const status = await screen.findByTestId('playback-status');
    expect(status).toHaveTextContent('当前浏览器不支持 H.265 解码，无法在页面中回放该录像，可下载后用本地播放器观看');
    setLang('en-US');
    expect(await screen.findByText(/This browser cannot decode H\.265, so this recording cannot play in the page; download it/)).toBeInTheDocument();
  });

  it('keeps the plain message for another codec', async () => {
    pb.state = { phase: 'unsupported', reason: 'video/mp4; codecs="av01.0.04M.08"', requestId: 'r1', speed: 1 };
    openBackchannel({ name: 'Yard' });
    expect(await screen.findByTestId('playback-status')).toHaveTextContent('当前浏览器无法解码该视频（video/mp4; codecs="av01.0.04M.08"）');
  });
});
