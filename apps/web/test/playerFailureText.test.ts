/**
 * Why the browser's player gave up is said in the console's language: it showed the console's own
 * English ("no media received", "WebSocket closed (1006)", "player fell behind") under the picture of
 * a Chinese console, and the server's close reasons ("stream not open") as they came.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { stoppedCloseReason } from '@opencvr/shared';
import { setLang } from '../src/i18n';
import { failureText } from '../src/components/player/failureText';
import { whepRefusal } from '../src/components/player/webrtc';

afterEach(() => setLang('zh-CN'));

describe('failureText', () => {
  it('says the console’s own failures in Chinese by default and in English when chosen', () => {
    expect(failureText.noMedia(10)).toBe('10 秒内没有收到视频数据');
    expect(failureText.fellBehind()).toBe('播放跟不上视频流');
    expect(failureText.closed(1006, '')).toBe('与服务器的视频连接已断开（1006）');
    setLang('en-US');
    expect(failureText.noMedia(10)).toBe('No video data for 10 s');
    expect(failureText.closed(1006, '')).toBe('The video connection to the server closed (1006)');
  });

  it('translates the server’s known close reasons; any other by its close code', () => {
    expect(failureText.closed(1011, 'stream not open')).toBe('服务器上的视频流未打开');
    expect(failureText.closed(1011, 'playback session gone')).toBe('回放会话已结束');
    // a connection outliving its play token (routes/media/token-expiry.ts)
    expect(failureText.closed(1008, 'play token expired')).toBe('播放地址已过期');
    expect(failureText.closed(4000, 'something new')).toBe('与服务器的视频连接已断开（4000）');
    setLang('en-US');
    expect(failureText.closed(1000, 'stream stopped')).toBe('The stream stopped on the server');
    expect(failureText.closed(1008, 'play token expired')).toBe('The play address expired');
  });

  it('says why a WS-FLV stream stopped as the WS-fMP4 state message does: its catalogue reason from the close reason', () => {
    expect(failureText.closed(1000, stoppedCloseReason({ key: 'streamChannelDisabled' }))).toBe('通道未开启，直播已停止');
    expect(failureText.closed(1000, stoppedCloseReason({ key: 'streamStoppedByRequest' }))).toBe('直播已按请求停止');
    // Without a reason, or one this console does not know (a newer server): the plain words.
    expect(stoppedCloseReason()).toBe('stream stopped');
    expect(failureText.closed(1000, 'stream stopped (noSuchReason)')).toBe('与服务器的视频连接已断开（1000）');
    setLang('en-US');
    expect(failureText.closed(1000, 'stream stopped (streamChannelDisabled)')).toBe('The channel is not enabled: the live stream stopped');
  });

  it('says a WS-FLV stop’s reason with its vars when its state message gave them (the close reason alone cannot hold them)', () => {
    const why = { key: 'tlsCertWrongHost' as const, vars: { host: 'cam.example', names: 'other.example' } };
    expect(stoppedCloseReason(why)).toBe('stream stopped');
    expect(failureText.closed(1000, stoppedCloseReason(why), why)).toBe('服务器的 TLS 证书不属于 cam.example（证书上的名称：other.example）');
    setLang('en-US');
    expect(failureText.closed(1000, stoppedCloseReason(why), why)).toBe("the server's TLS certificate is not for cam.example (it names other.example)");
    expect(failureText.closed(1000, stoppedCloseReason(why))).toBe('The stream stopped on the server');
  });

  it('keeps a browser’s or a library’s error code as written inside the sentence', () => {
    expect(failureText.media('MEDIA_ERR_DECODE')).toBe('浏览器无法解码视频（MEDIA_ERR_DECODE）');
    expect(failureText.library('HLS', 'manifestLoadError')).toBe('HLS 播放出错（manifestLoadError）');
    expect(failureText.webrtc('failed')).toBe('WebRTC 连接失败');
  });

  it('has every text in both languages', async () => {
    const zh = (await import('../src/i18n/live.zh-CN')).default as { player: { failure: Record<string, string> } };
    const en = (await import('../src/i18n/live.en-US')).default as { player: { failure: Record<string, string> } };
    expect(Object.keys(en.player.failure).sort()).toEqual(Object.keys(zh.player.failure).sort());
    for (const [k, v] of Object.entries(zh.player.failure)) expect(v.replace(/\{\{\w+\}\}|FLV|WebRTC/g, ''), k).not.toMatch(/[A-Za-z]{2,}/);
  });
});

describe('a refused WebRTC offer', () => {
  it("shows the server's reason (asked in the console's language), else says so with the status", async () => {
    const json = new Response(JSON.stringify({ code: 415, msg: 'offer 中没有 packetization-mode=1 的 H.264' }), { status: 415 });
    expect(await whepRefusal(json)).toBe('offer 中没有 packetization-mode=1 的 H.264');
    expect(await whepRefusal(new Response('bad gateway', { status: 502 }))).toBe('服务器拒绝了 WebRTC 播放请求（502）');
    setLang('en-US');
    expect(await whepRefusal(new Response('', { status: 502 }))).toBe('The server refused the WebRTC request (502)');
  });
});
