/**
 * The addresses the ffmpeg pull source takes (pull-url.ts): which schemes, the channel credentials
 * put in, what is refused, and reasons cleaned of credentials; and its ffmpeg command line and input
 * script (the address on stdin), pinned.
 */
import { describe, expect, it } from 'vitest';
import { pullArgs, pullInputScript } from '../../src/media/ffmpeg/args.js';
import { PULL_PROTOCOLS, pullSchemeOf, pullUrl, PullUrlError } from '../../src/media/ingest/pull-url.js';

describe('pullUrl', () => {
  it('takes rtmp(s) and http(s), not rtsp(s) (the native client’s) or anything else', () => {
    expect(['rtmp://h/a', 'RTMPS://h/a', 'http://h/x.flv', 'https://h/x.m3u8'].map(pullSchemeOf)).toEqual(['rtmp', 'rtmps', 'http', 'https']);
    // rtsp:// and rtsps:// are the native RTSP client's (TLS included), never ffmpeg's.
    expect(['rtsp://h/s', 'rtsps://h/s', 'file:///etc/passwd', 'concat:a|b', '-i', 'udp://h:1'].map(pullSchemeOf)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('puts the channel’s credentials in the URL unless it has its own, and redacts them from texts', () => {
    const u = pullUrl('rtmp://10.0.0.5/live/cam1', { username: 'admin', password: 'p@ss:w/rd' });
    expect(u.url).toBe('rtmp://admin:p%40ss%3Aw%2Frd@10.0.0.5/live/cam1');
    expect(u.display).toBe('rtmp://10.0.0.5/live/cam1');
    expect(u.redact(`${u.url}: Connection refused`)).toBe('rtmp://10.0.0.5/live/cam1: Connection refused');
    expect(u.redact('auth failed for admin with p@ss:w/rd')).toBe('auth failed for *** with ***');
    // ffmpeg's RTMP client takes them as written (its Adobe login hashes them so): as they are where it can split them out.
    expect(pullUrl('rtmp://h/live/x', { username: 'pub@site', password: 'S3cret+p@ss:w' }).url).toBe('rtmp://pub@site:S3cret+p@ss:w@h/live/x');
    expect(pullUrl('rtmps://u:S3cret%2Bpw@h/live/x').url).toBe('rtmps://u:S3cret+pw@h/live/x');
    expect(pullUrl('http://h/x.flv', { username: 'cam', password: 'S3cret+pw' }).url).toBe('http://cam:S3cret%2Bpw@h/x.flv');
    expect(pullUrl('rtmp://h/live/x', { username: 'pub', password: '50%/off' }).url).toBe('rtmp://pub:50%25%2Foff@h/live/x');
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
  it('copies video and AAC into one fMP4 fragment per picture on stdout; the address is read on stdin, never on the command line', () => {
    expect(pullArgs({ protocols: PULL_PROTOCOLS.rtmp, audio: 'copy' }).join(' ')).toBe(
      '-hide_banner -nostats -loglevel warning -fflags +nobuffer -f concat -safe 0 -auto_convert 0 -protocol_whitelist pipe,rtmp,tcp -i pipe:0 ' +
        '-map 0:v:0? -map 0:a:0? -c:v copy -c:a copy -sn -dn -f mp4 -movflags +empty_moov+default_base_moof -frag_duration 1 -flush_packets 1 pipe:1',
    );
  });

  it('audio encoded to AAC; no audio at all', () => {
    expect(pullArgs({ protocols: PULL_PROTOCOLS.rtmps, audio: 'aac' }).join(' ')).toBe(
      '-hide_banner -nostats -loglevel warning -fflags +nobuffer -f concat -safe 0 -auto_convert 0 -protocol_whitelist pipe,rtmps,tcp,tls -i pipe:0 ' +
        '-map 0:v:0? -map 0:a:0? -c:v copy -c:a aac -b:a 64k -sn -dn -f mp4 -movflags +empty_moov+default_base_moof -frag_duration 1 -flush_packets 1 pipe:1',
    );
    expect(pullArgs({ protocols: PULL_PROTOCOLS.https, audio: 'none' }).join(' ')).toBe(
      '-hide_banner -nostats -loglevel warning -fflags +nobuffer -f concat -safe 0 -auto_convert 0 -protocol_whitelist pipe,http,https,tcp,tls,crypto,httpproxy -i pipe:0 ' +
        '-map 0:v:0? -c:v copy -sn -dn -f mp4 -movflags +empty_moov+default_base_moof -frag_duration 1 -flush_packets 1 pipe:1',
    );
  });
});

describe('pullInputScript', () => {
  it('one file, its address quoted, with the options of its opening: rw_timeout', () => {
    const u = pullUrl('rtmp://10.0.0.5/live/cam1', { username: 'admin', password: 'p@ss' });
    expect(pullInputScript({ url: u.url })).toBe("ffconcat version 1.0\nfile 'rtmp://admin:p@ss@10.0.0.5/live/cam1'\noption fflags +nobuffer\noption rw_timeout 10000000\n");
  });

  it('an HLS retry starts its live playlist at the first segment not played yet (live_start_index)', () => {
    expect(pullInputScript({ url: 'http://h/live.m3u8', hlsLiveStartIndex: -2 }).split('\n')).toContain('option live_start_index -2');
    expect(pullInputScript({ url: 'http://h/live.m3u8' })).not.toContain('live_start_index');
  });

  it('a quote in the address cannot end the file name early (closed, escaped, reopened)', () => {
    const u = pullUrl("rtmp://h/live/it's?x='1'");
    expect(u.url).toContain("'");
    expect(pullInputScript({ url: u.url }).split('\n')[1]).toBe(`file 'rtmp://h/live/it'\\''s?x='\\''1'\\'''`);
  });
});
