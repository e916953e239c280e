import { describe, expect, it } from 'vitest';
import { authorizationFor, digestResponse, DigestServer, header, parseAuthValue, parseSip } from '../src/index.js';
import { fixture } from './fixtures.js';

describe('digest responses', () => {
  it('verifies a real Hikvision REGISTER (RFC 2069 form, no qop)', () => {
    const msg = parseSip(fixture('hikvision-ipc-register-auth.sip'));
    const a = parseAuthValue(header(msg, 'Authorization')!)!;
    expect(a.scheme).toBe('Digest');
    expect(
      digestResponse({ username: a.params.username, realm: a.params.realm, password: '123456', method: 'REGISTER', uri: a.params.uri, nonce: a.params.nonce }),
    ).toBe(a.params.response);
  });

  it('matches the RFC 2617 §3.5 example (qop=auth)', () => {
    expect(
      digestResponse({
        username: 'Mufasa',
        realm: 'testrealm@host.com',
        password: 'Circle Of Life',
        method: 'GET',
        uri: '/dir/index.html',
        nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
        qop: 'auth',
        nc: '00000001',
        cnonce: '0a4f113b',
      }),
    ).toBe('6629fae49393a05397450978507c4ef1');
  });

  it('reads the qop of a real 401', () => {
    const msg = parseSip(fixture('gosip-401-qop.sip'));
    const auth = authorizationFor(header(msg, 'WWW-Authenticate')!, { username: '34020000001320000001', password: 'x' }, 'REGISTER', 'sip:3707000008');
    expect(auth).toMatch(/qop=auth, nc=00000001, cnonce="[0-9a-f]+"/);
    expect(auth).toContain('realm="3707000008"');
  });
});

describe('DigestServer', () => {
  let now = 1_700_000_000_000;
  const server = new DigestServer({ realm: '3402000000', nonceTtlSeconds: 60, now: () => now });
  const uri = 'sip:34020000002000000001@3402000000';
  const creds = { username: '34020000001320000001', password: '12345678' };

  it('accepts a response computed from its challenge, with and without qop', () => {
    const ch = server.challenge();
    expect(ch).toMatch(/^Digest realm="3402000000", nonce="[0-9a-f]+", algorithm=MD5$/);
    expect(server.verify(authorizationFor(ch, creds, 'REGISTER', uri)!, 'REGISTER', '12345678')).toBe('ok');
    const withQop = ch.replace('algorithm=MD5', 'algorithm=MD5, qop="auth"');
    expect(server.verify(authorizationFor(withQop, creds, 'REGISTER', uri)!, 'REGISTER', '12345678')).toBe('ok');
    const sess = ch.replace('algorithm=MD5', 'algorithm=MD5-sess');
    expect(server.verify(authorizationFor(sess, creds, 'REGISTER', uri)!, 'REGISTER', '12345678')).toBe('ok');
  });

  it('refuses a wrong password, another method, a forged nonce and another realm', () => {
    const auth = authorizationFor(server.challenge(), creds, 'REGISTER', uri)!;
    expect(server.verify(auth, 'REGISTER', 'wrong')).toBe('bad-response');
    expect(server.verify(auth, 'MESSAGE', '12345678')).toBe('bad-response');
    const forged = authorizationFor('Digest realm="3402000000", nonce="0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab"', creds, 'REGISTER', uri)!;
    expect(server.verify(forged, 'REGISTER', '12345678')).toBe('bad-nonce');
    const other = new DigestServer({ realm: '3402000000', now: () => now }).challenge();
    expect(server.verify(authorizationFor(other, creds, 'REGISTER', uri)!, 'REGISTER', '12345678')).toBe('bad-nonce');
    const realm = authorizationFor(server.challenge().replace('realm="3402000000"', 'realm="9999999999"'), creds, 'REGISTER', uri)!;
    expect(server.verify(realm, 'REGISTER', '12345678')).toBe('bad-response');
    expect(server.verify('Basic abc', 'REGISTER', '12345678')).toBe('malformed');
    expect(server.verify('Digest username="a"', 'REGISTER', '12345678')).toBe('malformed');
  });

  it('says stale once the nonce is older than its lifetime', () => {
    const auth = authorizationFor(server.challenge(), creds, 'REGISTER', uri)!;
    now += 61_000;
    expect(server.verify(auth, 'REGISTER', '12345678')).toBe('stale');
    expect(server.challenge(true)).toContain('stale=TRUE');
  });

  it('names the user of an Authorization', () => {
    expect(DigestServer.username('Digest username="34020000001320000001", realm="x"')).toBe('34020000001320000001');
    expect(DigestServer.username('Basic xyz')).toBeUndefined();
  });
});
