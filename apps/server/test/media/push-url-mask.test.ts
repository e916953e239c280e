/**
 * What logs show of a CDN push address (push-url-mask.ts): the host and app, never the stream key
 * or a password, also inside ffmpeg's own words.
 */
import { describe, expect, it } from 'vitest';
import { maskedPushUrl, maskPushUrl } from '../../src/media/ffmpeg/push-url-mask.js';

describe('maskedPushUrl', () => {
  it('keeps the scheme, host and app; the stream key, its query and a user part go', () => {
    expect(maskedPushUrl('rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl')).toBe('rtmp://a.rtmp.youtube.com/live2/***');
    expect(maskedPushUrl('rtmps://u:pw@10.0.0.1:443/app/key?token=t')).toBe('rtmps://10.0.0.1:443/app/***');
    expect(maskedPushUrl('rtmp://h/app?key=k')).toBe('rtmp://h/app/***');
    expect(maskedPushUrl('rtmp://h/app')).toBe('rtmp://h/app');
    expect(maskedPushUrl('not a url')).toBe('***');
  });
});

describe('maskPushUrl', () => {
  it('masks the address in ffmpeg’s words, and the key or password met elsewhere', () => {
    const url = 'rtmp://pub:pa55word@127.0.0.1:1935/live/SECRETKEY';
    expect(maskPushUrl(`exited with code 1: ${url}: Connection refused`, url)).toBe('exited with code 1: rtmp://127.0.0.1:1935/live/***: Connection refused');
    expect(maskPushUrl('stream SECRETKEY refused for pa55word', url)).toBe('stream *** refused for ***');
  });
});
