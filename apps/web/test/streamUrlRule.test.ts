/** The device and channel forms take the stream addresses the server takes (rules.ts isStreamUrl). */
import { describe, expect, it } from 'vitest';
import { isStreamUrl } from '../src/features/devices/rules';

describe('isStreamUrl', () => {
  it('takes rtsp(s), rtmp(s) and http(s) addresses with a host', () => {
    for (const u of ['rtsp://10.0.0.2:554/s', 'rtsps://cam/s', 'rtmp://srv/live/a', 'rtmps://srv/live/a', 'http://srv/a.flv', 'https://srv/a.m3u8', ' rtmp://srv/live/a '])
      expect(isStreamUrl(u), u).toBe(true);
  });
  it('refuses other schemes, no host, spaces inside and option-like hosts', () => {
    for (const u of ['file:///etc/passwd', 'concat:rtmp://a/x|rtmp://b/y', 'udp://h:1', '-i', 'rtmp:///live/x', 'rtmp://srv/live a', 'rtmp://-f/live', ''])
      expect(isStreamUrl(u), u).toBe(false);
  });
});
