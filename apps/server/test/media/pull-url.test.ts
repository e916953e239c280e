/**
 * The addresses the ffmpeg pull source takes (pull-url.ts): which schemes, the channel credentials
 * put in, what is refused, and reasons cleaned of credentials; and its ffmpeg command line, pinned.
 */
import { describe, expect, it } from 'vitest';
import { pullArgs } from '../../src/media/ffmpeg/args.js';
import { PULL_PROTOCOLS, pullSchemeOf, pullUrl, PullUrlError } from '../../src/media/ingest/pull-url.js';

describe('pullUrl', () => {
  it('takes rtmp(s), http(s) and rtsps, not rtsp (the native client’s) or anything else', () => {
    expect(['rtmp://h/a', 'RTMPS://h/a', 'http://h/x.flv', 'https://h/x.m3u8', 'rtsps://h/s'].map(pullSchemeOf)).toEqual(['rtmp', 'rtmps', 'http', 'https', 'rtsps']);
    expect(['rtsp://h/s', 'file:///etc/passwd', 'concat:a|b', '-i', 'udp://h:1'].map(pullSchemeOf)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('puts the channel’s credentials in the URL unless it has its own, and redacts them from texts', () => {
    const u = pullUrl('rtmp://10.0.0.5/live/cam1', { username: 'admin', password: 'p@ss:w/rd' });
    expect(u.url).toBe('rtmp://admin:p%40ss%3Aw%2Frd@10.0.0.5/live/cam1');
    expect(u.display).toBe('rtmp://10.0.0.5/live/cam1');
    expect(u.redact(`${u.url}: Connection refused`)).toBe('rtmp://10.0.0.5/live/cam1: Connection refused');
    expect(u.redact('auth failed for admin with p@ss:w/rd')).toBe('auth failed for *** with ***');
    const own = pullUrl('http://me:mine123@h/x.flv', { username: 'admin', password: 'other' });
    expect(own.url).toBe('http://me:mine123@h/x.flv');
    expect(own.redact('http://me:mine123@h/x.flv: 401 Unauthorized')).toBe('http://h/x.flv: 401 Unauthorized');
  });

  it('refuses what is not a pull address, with a reason', () => {
    const refused = (s: string) => {
      try {
        pullUrl(s);
      } catch (err) {
        expect(err).toBeInstanceOf(PullUrlError);
        return (err as Error).message;
      }
      return 'taken';
    };
    expect(refused('file:///etc/passwd')).toMatch(/file:\/\/ is not pulled through ffmpeg/);
    expect(refused('rtsp://cam/s')).toMatch(/rtsp:\/\/ is not pulled/);
    expect(refused('concat:rtmp://a/x|rtmp://b/y')).toMatch(/not a URL|is not pulled/);
    expect(refused('-i')).toMatch(/not a URL/);
    expect(refused('rtmp://h/a b')).toMatch(/spaces or control characters/);
    expect(refused('rtmp://h/a\u0000')).toMatch(/spaces or control characters/);
    expect(refused('rtmp:///live/x')).toMatch(/no host|not a URL/);
    expect(refused('rtmp://-f/live')).toMatch(/no host/);
  });
});

describe('pullArgs', () => {
  it('copies video and AAC into one fMP4 fragment per picture on stdout', () => {
    expect(pullArgs({ url: 'rtmp://h/live/x', protocols: PULL_PROTOCOLS.rtmp, audio: 'copy' }).join(' ')).toBe(
      '-hide_banner -nostats -loglevel warning -fflags +nobuffer -rw_timeout 10000000 -protocol_whitelist rtmp,tcp -i rtmp://h/live/x ' +
        '-map 0:v:0? -map 0:a:0? -c:v copy -c:a copy -sn -dn -f mp4 -movflags +empty_moov+default_base_moof -frag_duration 1 -flush_packets 1 pipe:1',
    );
  });

  it('RTSPS over TCP with audio encoded to AAC; no audio at all', () => {
    expect(pullArgs({ url: 'rtsps://h/s', protocols: PULL_PROTOCOLS.rtsps, rtspOverTcp: true, audio: 'aac' }).join(' ')).toBe(
      '-hide_banner -nostats -loglevel warning -fflags +nobuffer -timeout 10000000 -rtsp_transport tcp -protocol_whitelist rtsp,rtsps,tcp,tls -i rtsps://h/s ' +
        '-map 0:v:0? -map 0:a:0? -c:v copy -c:a aac -b:a 64k -sn -dn -f mp4 -movflags +empty_moov+default_base_moof -frag_duration 1 -flush_packets 1 pipe:1',
    );
    expect(pullArgs({ url: 'https://h/x.m3u8', protocols: PULL_PROTOCOLS.https, audio: 'none' }).join(' ')).toBe(
      '-hide_banner -nostats -loglevel warning -fflags +nobuffer -rw_timeout 10000000 -protocol_whitelist http,https,tcp,tls,crypto -i https://h/x.m3u8 ' +
        '-map 0:v:0? -c:v copy -sn -dn -f mp4 -movflags +empty_moov+default_base_moof -frag_duration 1 -flush_packets 1 pipe:1',
    );
  });
});
