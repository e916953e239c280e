import { describe, expect, it } from 'vitest';
import { authorization, chooseChallenge, md5hex, parseWwwAuthenticate, type Challenge } from '../src/index.js';

describe('MD5 (RFC 1321 appendix A.5 test suite)', () => {
  const vectors: [string, string][] = [
    ['', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['a', '0cc175b9c0f1b6a831c399e269772661'],
    ['abc', '900150983cd24fb0d6963f7d28e17f72'],
    ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
    ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'd174ab98d277d9f5a5611c2c9f419d9f'],
    ['12345678901234567890123456789012345678901234567890123456789012345678901234567890', '57edf4a22be3c955ac49da2e2107b67a'],
  ];
  for (const [input, hex] of vectors) it(JSON.stringify(input.slice(0, 20)), () => expect(md5hex(input)).toBe(hex));
});

describe('WWW-Authenticate', () => {
  const table: [string, string, Challenge[]][] = [
    [
      'GStreamer digest (captured here)',
      'Digest realm="GStreamer RTSP Server", nonce="51f22f4ab5abc1b9"',
      [{ scheme: 'Digest', params: { realm: 'GStreamer RTSP Server', nonce: '51f22f4ab5abc1b9' } }],
    ],
    [
      'Hikvision digest (github.com/google/ExoPlayer/issues/9800)',
      'Digest realm="IP Camera(C1214)", nonce="0191a41d87c28cd52b3e9c8adc99291c", stale="FALSE"',
      [{ scheme: 'Digest', params: { realm: 'IP Camera(C1214)', nonce: '0191a41d87c28cd52b3e9c8adc99291c', stale: 'FALSE' } }],
    ],
    [
      'IP Webcam with qop (github.com/Ullaakut/cameradar/issues/197)',
      'Digest realm="IP Webcam", nonce="1558451085", qop="auth"',
      [{ scheme: 'Digest', params: { realm: 'IP Webcam', nonce: '1558451085', qop: 'auth' } }],
    ],
    [
      'RFC 7616 3.9.1 MD5 challenge',
      'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
      [
        {
          scheme: 'Digest',
          params: {
            realm: 'http-auth@example.org',
            qop: 'auth, auth-int',
            algorithm: 'MD5',
            nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
            opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
          },
        },
      ],
    ],
    [
      'two challenges in one value',
      'Digest realm="a", nonce="n1", Basic realm="a"',
      [
        { scheme: 'Digest', params: { realm: 'a', nonce: 'n1' } },
        { scheme: 'Basic', params: { realm: 'a' } },
      ],
    ],
    ['escaped quote', 'Basic realm="say \\"hi\\""', [{ scheme: 'Basic', params: { realm: 'say "hi"' } }]],
  ];
  for (const [name, value, want] of table) it(name, () => expect(parseWwwAuthenticate(value)).toEqual(want));

  it('prefers Digest over Basic, and skips SHA-256 and auth-int only', () => {
    const [d, b] = parseWwwAuthenticate('Digest realm="a", nonce="n", Basic realm="a"');
    expect(chooseChallenge([b, d])).toBe(d);
    const sha = parseWwwAuthenticate('Digest realm="a", nonce="n", algorithm=SHA-256')[0];
    expect(chooseChallenge([sha, b])).toBe(b);
    const authInt = parseWwwAuthenticate('Digest realm="a", nonce="n", qop="auth-int"')[0];
    expect(chooseChallenge([authInt])).toBeUndefined();
  });
});

describe('Authorization', () => {
  it('RFC 2617 3.5 example (qop=auth)', () => {
    const [c] = parseWwwAuthenticate(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    const v = authorization(c, { username: 'Mufasa', password: 'Circle Of Life', method: 'GET', uri: '/dir/index.html', cnonce: '0a4f113b', nc: 1 });
    expect(v).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(v).toContain('qop=auth, nc=00000001, cnonce="0a4f113b"');
    expect(v).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
  });

  it('RFC 7616 3.9.1 example (MD5)', () => {
    const [c] = parseWwwAuthenticate(
      'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
    );
    const v = authorization(c, {
      username: 'Mufasa',
      password: 'Circle of Life',
      method: 'GET',
      uri: '/dir/index.html',
      cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
      nc: 1,
    });
    expect(v).toContain('response="8ca523f5e9506fed4657c9700eebdbec"');
    expect(v).toContain('algorithm=MD5');
  });

  it('RFC 2069-style digest without qop (as GStreamer and Hikvision send)', () => {
    const [c] = parseWwwAuthenticate('Digest realm="r", nonce="n"');
    const v = authorization(c, { username: 'u', password: 'p', method: 'DESCRIBE', uri: 'rtsp://h/cam' })!;
    const ha1 = md5hex('u:r:p');
    const ha2 = md5hex('DESCRIBE:rtsp://h/cam');
    expect(v).toBe(`Digest username="u", realm="r", nonce="n", uri="rtsp://h/cam", response="${md5hex(`${ha1}:n:${ha2}`)}"`);
  });

  it('Basic (RFC 7617 example)', () => {
    const [c] = parseWwwAuthenticate('Basic realm="WallyWorld"');
    expect(authorization(c, { username: 'Aladdin', password: 'open sesame', method: 'DESCRIBE', uri: '*' })).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
  });
});
