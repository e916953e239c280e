import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGbOffer, ManscdpError, parseGbAnswer, SsrcAllocator, type GbOffer } from '../src/index.js';

const live: GbOffer = {
  session: 'Play',
  platformId: '34020000002000000010',
  channelId: '34020000001310000001',
  mediaIp: '192.168.6.106',
  mediaPort: 45056,
  transport: 'udp',
  ssrc: '0200001002',
};

describe('INVITE offer', () => {
  it('live over UDP has the lines a Dahua dome accepted (fixtures/README.md capture)', () => {
    expect(buildGbOffer(live).split('\r\n')).toEqual([
      'v=0',
      'o=34020000002000000010 0 0 IN IP4 192.168.6.106',
      's=Play',
      'c=IN IP4 192.168.6.106',
      't=0 0',
      'm=video 45056 RTP/AVP 96 98 97',
      'a=recvonly',
      'a=rtpmap:96 PS/90000',
      'a=rtpmap:98 H264/90000',
      'a=rtpmap:97 MPEG4/90000',
      'y=0200001002',
      'f=',
      '',
    ]);
  });

  it('playback over TCP passive: u=, t=, TCP/RTP/AVP, setup and connection', () => {
    const sdp = buildGbOffer({
      ...live,
      session: 'Playback',
      transport: 'tcp-passive',
      ssrc: '1200000001',
      startTime: 1714804996,
      endTime: 1714806986,
    });
    expect(sdp).toContain('\r\nu=34020000001310000001:0\r\n');
    expect(sdp).toContain('\r\nt=1714804996 1714806986\r\n');
    expect(sdp).toContain('\r\nm=video 45056 TCP/RTP/AVP 96 98 97\r\n');
    expect(sdp).toContain('\r\na=setup:passive\r\na=connection:new\r\n');
  });

  it('download with a speed; TCP active', () => {
    const sdp = buildGbOffer({
      ...live,
      session: 'Download',
      transport: 'tcp-active',
      ssrc: '1200000002',
      startTime: 1,
      endTime: 2,
      downloadSpeed: 4,
    });
    expect(sdp).toContain('\r\ns=Download\r\n');
    expect(sdp).toContain('\r\na=setup:active\r\n');
    expect(sdp).toContain('\r\na=downloadspeed:4\r\n');
  });

  it('refuses bad arguments', () => {
    expect(() => buildGbOffer({ ...live, mediaIp: 'example.com' })).toThrow(/not an IP/);
    expect(() => buildGbOffer({ ...live, mediaPort: 0 })).toThrow(/media port/);
    expect(() => buildGbOffer({ ...live, ssrc: '12' })).toThrow(/10 digits/);
    expect(() => buildGbOffer({ ...live, session: 'Playback' })).toThrow(/t= start < end/);
    expect(() => buildGbOffer({ ...live, downloadSpeed: 4 })).toThrow(/only for Download/);
    expect(() => buildGbOffer({ ...live, f: 'v/2\r\nm=audio' })).toThrow(/line break/);
  });
});

describe('device answers', () => {
  it('Dahua dome live answer (captured, fixtures/README.md)', () => {
    const a = parseGbAnswer(
      'v=0\r\no=34020000001310000001 0 0 IN IP4 192.168.6.71\r\ns=Play\r\ni=VCam Live Video\r\nc=IN IP4 192.168.6.71\r\nt=0 0\r\nm=video 9712 RTP/AVP 96\r\na=sendonly\r\na=rtpmap:96 PS/90000\r\na=streamprofile:0\r\ny=0000001002\r\nf=v/0/0/0/0/0a/0/0/0\r\n',
    );
    expect(a).toMatchObject({
      session: 'Play',
      originId: '34020000001310000001',
      connectionIp: '192.168.6.71',
      port: 9712,
      transport: 'udp',
      direction: 'sendonly',
      payloads: [{ pt: 96, encoding: 'PS', clock: 90000 }],
      ssrc: '0000001002',
      ssrcNumber: 1002,
      f: 'v/0/0/0/0/0a/0/0/0',
    });
  });

  it('Hikvision NVR playback answer: own s=, t= shifted by its time zone, filesize (captured, same post)', () => {
    const a = parseGbAnswer(
      'v=0\r\no=34020000001110000001 0 0 IN IP4 192.168.6.60\r\ns=Network Video Recorder\r\nc=IN IP4 192.168.6.60\r\nt=1714833796 1714835786\r\nm=video 62000 RTP/AVP 96\r\na=sendonly\r\na=rtpmap:96 PS/90000\r\na=username:34020000001110000001\r\na=password:zzgd1234\r\na=filesize:2124794308\r\ny=0000002000\r\nf=\r\n',
    );
    expect(a).toMatchObject({
      session: 'Network Video Recorder',
      port: 62000,
      startTime: 1714833796,
      fileSize: 2124794308,
      ssrcNumber: 2000,
      f: '',
    });
  });

  it('TCP answers with setup; media-level c= wins; LF-only lines', () => {
    const a = parseGbAnswer(
      'v=0\ns=Play\nc=IN IP4 10.0.0.1\nt=0 0\nm=video 6000 TCP/RTP/AVP 96\nc=IN IP4 10.0.0.2\na=setup:active\na=connection:new\na=rtpmap:96 PS/90000\ny=0100000001\n',
    );
    expect(a).toMatchObject({ transport: 'tcp', setup: 'active', connectionIp: '10.0.0.2', port: 6000 });
  });

  it('refuses answers that cannot be used, with the reason', () => {
    expect(() => parseGbAnswer('v=0\r\ns=Play\r\nc=IN IP4 1.2.3.4\r\n')).toThrow(/no m= line/);
    expect(() => parseGbAnswer('v=0\r\nc=IN IP4 1.2.3.4\r\nm=video 0 RTP/AVP 96\r\n')).toThrow(/refused the stream/);
    expect(() => parseGbAnswer('v=0\r\nm=video 5000 RTP/AVP 96\r\n')).toThrow(/no usable c= address/);
    expect(() => parseGbAnswer('v=0\r\nc=IN IP4 1.2.3.4\r\nm=video 5000 RTP/SAVP 96\r\n')).toThrow(/transport/);
    expect(() => parseGbAnswer('v=0\r\nc=IN IP4 1.2.3.4\r\nm=video 5000 RTP/AVP 96\r\ny=99999999999\r\n')).toThrow(
      /SSRC/,
    );
  });

  it('offer → answer round trip: what we offer parses back to the same address, port, transport and SSRC', () => {
    const alloc = new SsrcAllocator('3402000000');
    fc.assert(
      fc.property(
        fc.constantFrom('Play' as const, 'Playback' as const, 'Download' as const),
        fc.constantFrom('udp' as const, 'tcp-passive' as const, 'tcp-active' as const),
        fc.ipV4(),
        fc.integer({ min: 1, max: 65535 }),
        fc.integer({ min: 0, max: 2_000_000_000 }),
        (session, transport, ip, port, start) => {
          const ssrc = alloc.allocate(session === 'Play' ? 'live' : 'history');
          const sdp = buildGbOffer({
            ...live,
            session,
            transport,
            mediaIp: ip,
            mediaPort: port,
            ssrc,
            startTime: start,
            endTime: start + 60,
          });
          const a = parseGbAnswer(sdp);
          alloc.release(ssrc);
          expect(a).toMatchObject({
            session,
            connectionIp: ip,
            port,
            transport: transport === 'udp' ? 'udp' : 'tcp',
            ssrc,
            ssrcNumber: Number(ssrc),
            direction: 'recvonly',
          });
          expect(a.setup).toBe(transport === 'udp' ? undefined : transport === 'tcp-passive' ? 'passive' : 'active');
          if (session !== 'Play') expect([a.startTime, a.endTime]).toEqual([start, start + 60]);
          expect(a.payloads.map((p) => p.encoding)).toEqual(['PS', 'H264', 'MPEG4']);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('random text parses or throws ManscdpError', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.constantFrom(
              'm=video 1 RTP/AVP 96',
              'c=IN IP4 1.1.1.1',
              'y=',
              'a=rtpmap:96 PS/90000',
              'm=',
              'c=IN IP6 ::1',
              'a=setup:',
            ),
          ),
          { maxLength: 20 },
        ),
        (lines) => {
          try {
            parseGbAnswer(lines.join('\r\n'));
          } catch (e) {
            expect(e).toBeInstanceOf(ManscdpError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
