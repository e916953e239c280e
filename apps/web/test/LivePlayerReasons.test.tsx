/**
 * Why the server retries a live stream, as the player says it: the catalogue reason the live socket
 * sent beside the source's words, in the console's language (and again when the language is
 * switched); words that came without one are shown as they came, never under an older reason. The
 * same for getchannelstream's Reason, rendered by the server in the language of the moment it was
 * asked: its code (ReasonCode, ReasonVars) lets a switch render it again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import type { EngineEvents } from '../src/components/player/engine';
import { LivePlayer } from '../src/components/player/LivePlayer';
import { setLang } from '../src/i18n';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole } from './helpers/console';

const engine = vi.hoisted(() => ({ events: null as EngineEvents | null }));
vi.mock('../src/components/player/wsFmp4', () => ({
  startWsFmp4: (_video: HTMLVideoElement, _url: string, events: EngineEvents) => {
    engine.events = events;
    return { stop: () => undefined };
  },
}));

beforeEach(() => {
  engine.events = null;
  // jsdom has no MediaSource: the WS-fMP4 transport needs one to be chosen.
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = () => true;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setLang('zh-CN');
});

const open = async () => ({ URL: '/ws_m4s/live/stream_1_0.mp4', URLs: { WS_FMP4: '/ws_m4s/live/stream_1_0.mp4' }, Stream: 'stream_1_0', State: 'idle' }) as never;

async function started(opener: () => Promise<never> = open) {
  clearSession();
  captureNotices();
  renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" open={opener} />);
  await waitFor(() => expect(engine.events).not.toBeNull());
  return engine.events!;
}

const status = () => screen.getByTestId('player-status');

describe('the live player’s reconnect reason', () => {
  it('is the catalogue reason in the console’s language, not the source’s words', async () => {
    const ev = await started();
    act(() => ev.onState('retrying', 'connect timeout after 5000 ms', { key: 'streamConnectTimeout', vars: { ms: 5000 } }));
    expect(status()).toHaveTextContent('连接摄像机超时（5000 毫秒）');
    expect(status()).not.toHaveTextContent('connect timeout');
    act(() => setLang('en-US'));
    expect(status()).toHaveTextContent('The camera did not answer within 5000 ms');
  });

  it('words without a reason are shown as they came, not under the last reason', async () => {
    const ev = await started();
    act(() => ev.onState('retrying', 'connection refused', { key: 'streamRefused' }));
    expect(status()).toHaveTextContent('摄像机拒绝连接');
    act(() => ev.onState('retrying', 'a reason from a newer server'));
    expect(status()).toHaveTextContent('a reason from a newer server');
    expect(status()).not.toHaveTextContent('摄像机拒绝连接');
  });

  it('getchannelstream’s Reason follows a language switch (its code beside it)', async () => {
    const retrying = async () =>
      ({
        URL: '/ws_m4s/live/stream_1_0.mp4',
        URLs: { WS_FMP4: '/ws_m4s/live/stream_1_0.mp4' },
        Stream: 'stream_1_0',
        State: 'retrying',
        Reason: '摄像机拒绝连接',
        ReasonCode: 'streamRefused',
        ReasonVars: {},
      }) as never;
    await started(retrying);
    expect(status()).toHaveTextContent('摄像机拒绝连接');
    act(() => setLang('en-US'));
    expect(status()).toHaveTextContent('The camera refused the connection');
    expect(status()).not.toHaveTextContent('摄像机拒绝连接');
  });
});

describe('the live player’s note: what a live stream plays without', () => {
  const note = () => screen.queryByTestId('player-note');

  it('a live state with a reason (audio that could not be encoded) is shown over the playing picture in the console’s language; a live state without one clears it', async () => {
    const ev = await started();
    act(() => ev.onPlaying());
    expect(note()).toBeNull();
    act(() => ev.onState('live', 'the MP3 audio’s encoder to AAC (ffmpeg) ffmpeg not found', { key: 'streamAudioEncoderMissing', vars: { codec: 'MP3' } }));
    expect(note()).toHaveTextContent('视频正常播放，但没有声音：流的音频为 MP3，需由 ffmpeg 转为 AAC，而服务器上找不到 ffmpeg');
    act(() => setLang('en-US'));
    expect(note()).toHaveTextContent('The video plays without sound: the stream’s audio is MP3');
    act(() => ev.onState('live', ''));
    expect(note()).toBeNull();
  });

  it('getchannelstream’s Reason of a live stream is the note from the start', async () => {
    const live = async () =>
      ({
        URL: '/ws_m4s/live/stream_1_0.mp4',
        URLs: { WS_FMP4: '/ws_m4s/live/stream_1_0.mp4' },
        Stream: 'stream_1_0',
        State: 'live',
        Reason: '视频正常播放，但没有声音：流的 Speex 音频转为 AAC 失败（ffmpeg 已退出）',
        ReasonCode: 'streamAudioEncoderFailed',
        ReasonVars: { codec: 'Speex' },
      }) as never;
    const ev = await started(live);
    act(() => ev.onPlaying());
    expect(note()).toHaveTextContent('流的 Speex 音频转为 AAC 失败');
    act(() => setLang('en-US'));
    expect(note()).toHaveTextContent('encoding the stream’s Speex audio to AAC failed');
  });
});
