/**
 * The RTMP publisher's pure parts: the command sequence of a publish (access/rtmp/publish.ts) as an
 * ingest server sees it, with the Adobe and Limelight logins, refusals, acknowledgements and pings;
 * and FLV tags turned back into message payloads (flv-messages.ts) on bytes written out by hand from
 * the FLV specification. A server's bytes are not trusted: random commands never make the session
 * throw, and random bytes make flvMessages return tags or throw RtmpError, nothing else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Amf0EcmaArray, decodeAmf0, encodeAmf0, FlvMuxer, type Amf0Value } from '@opencvr/flv';
import { encodeChunks, RtmpError, RtmpType, u32Payload, type RtmpMessage } from '../../src/access/rtmp/chunks.js';
import { PUBLISH_CHUNK_SIZE, PublishCsid, RtmpPublishSession, type PublishTarget } from '../../src/access/rtmp/publish.js';
import { flvMessages } from '../../src/access/rtmp/flv-messages.js';
import { adobeResponse } from '../../src/access/rtmp/auth.js';
import fs from 'node:fs';
import { Fmp4StreamReader } from '@opencvr/fmp4';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const target = (o: Partial<PublishTarget> = {}): PublishTarget => ({ app: 'live', stream: 'key?sign=1', tcUrl: 'rtmp://cdn.example/live', auth: '', ...o });
const fromServer = (streamId: number, ...values: Amf0Value[]): RtmpMessage => ({ csid: 3, type: RtmpType.commandAmf0, streamId, timestamp: 0, payload: encodeAmf0(...values) });
const commands = (ms: RtmpMessage[]) => ms.map((m) => decodeAmf0(m.payload));

/** A session taken to createStream's answer: what it sent on the way. */
function upToPublish(session: RtmpPublishSession) {
  session.opening();
  const afterConnect = session.receive(fromServer(0, '_result', 1, { fmsVer: 'FMS/3,0,1,123' }, { level: 'status', code: 'NetConnection.Connect.Success' }));
  const afterCreate = session.receive(fromServer(0, '_result', 4, null, 7));
  return { afterConnect, afterCreate };
}

describe('RtmpPublishSession', () => {
  it('opens with Set Chunk Size 4096 and an FMLE connect of type nonprivate (bytes as chunked at 128)', () => {
    const [size, connect] = new RtmpPublishSession(target({ hevc: true })).opening();
    expect(encodeChunks(size)).toEqual(hex('02 000000 000004 01 00000000 00001000'));
    expect(PUBLISH_CHUNK_SIZE).toBe(4096);
    expect(connect).toMatchObject({ csid: PublishCsid.command, type: RtmpType.commandAmf0, streamId: 0 });
    expect(decodeAmf0(connect.payload)).toEqual([
      'connect',
      1,
      { app: 'live', type: 'nonprivate', flashVer: 'FMLE/3.0 (compatible; OpenCVR)', tcUrl: 'rtmp://cdn.example/live', fourCcList: ['hvc1'] },
    ]);
    // The command's first bytes as the wire has them: string marker, length 7, "connect", number 1.
    expect(connect.payload.subarray(0, 19)).toEqual(hex('02 0007 636f6e6e656374 00 3ff0000000000000'));
  });

  it('releaseStream, FCPublish, createStream, then publish(key, live) on the new stream; media only after Publish.Start', () => {
    const session = new RtmpPublishSession(target());
    expect(session.awaiting).toBe('connect');
    const { afterConnect, afterCreate } = upToPublish(session);
    expect(session.awaiting).toBe('publish');
    expect(commands(afterConnect.send)).toEqual([
      ['releaseStream', 2, null, 'key?sign=1'],
      ['FCPublish', 3, null, 'key?sign=1'],
      ['createStream', 4, null],
    ]);
    expect(afterConnect.outcome).toBeUndefined();
    expect(afterCreate.send[0].streamId).toBe(7);
    expect(commands(afterCreate.send)).toEqual([['publish', 5, null, 'key?sign=1', 'live']]);
    expect(afterCreate.outcome).toBeUndefined();
    // FCPublish's own answer is not the one awaited.
    expect(session.receive(fromServer(0, 'onFCPublish', 0, null, { code: 'NetStream.Publish.Start' })).outcome).toBeUndefined();
    expect(session.receive(fromServer(7, 'onStatus', 0, null, { level: 'status', code: 'NetStream.Publish.Start' })).outcome).toEqual({ publishing: true, streamId: 7 });
    expect(session.awaiting).toBeUndefined();
    expect(commands(session.closing())).toEqual([
      ['FCUnpublish', 6, null, 'key?sign=1'],
      ['deleteStream', 7, null, 7],
    ]);
  });

  it('a publish refused (BadName) or a refused connect or createStream ends it with the server code', () => {
    const bad = new RtmpPublishSession(target());
    upToPublish(bad);
    expect(bad.receive(fromServer(7, 'onStatus', 0, null, { level: 'error', code: 'NetStream.Publish.BadName', description: 'already publishing' })).outcome).toEqual({
      refused: { reason: 'RTMP publish refused: NetStream.Publish.BadName', why: { key: 'cdnRefused', vars: { command: 'publish', code: 'NetStream.Publish.BadName' } } },
    });
    const connect = new RtmpPublishSession(target());
    connect.opening();
    expect(connect.receive(fromServer(0, '_error', 1, null, { level: 'error', code: 'NetConnection.Connect.Rejected', description: 'no app' })).outcome).toEqual({
      refused: { reason: 'RTMP connect refused: NetConnection.Connect.Rejected', why: { key: 'cdnRefused', vars: { command: 'connect', code: 'NetConnection.Connect.Rejected' } } },
    });
    const create = new RtmpPublishSession(target());
    create.opening();
    create.receive(fromServer(0, '_result', 1, null, { code: 'NetConnection.Connect.Success' }));
    expect(create.receive(fromServer(0, '_error', 4, null, { level: 'error', code: 'NetStream.Failed' })).outcome).toEqual({
      refused: { reason: 'RTMP createStream refused: NetStream.Failed', why: { key: 'cdnRefused', vars: { command: 'createStream', code: 'NetStream.Failed' } } },
    });
  });

  it('the Adobe login: the user first, then the response to the challenge, as the probe does; refused without credentials', () => {
    const creds = { user: 'pub', password: 'p/w?x#y%z+' };
    const first = new RtmpPublishSession(target({ creds }));
    first.opening();
    const needAuth = first.receive(fromServer(0, '_error', 1, null, { level: 'error', code: 'NetConnection.Connect.Rejected', description: '[ AccessManager.Reject ] : [ code=403 need auth; authmod=adobe ] : ' }));
    expect(needAuth.outcome).toEqual({ reconnect: '?authmod=adobe&user=pub' });
    const second = new RtmpPublishSession(target({ creds, auth: '?authmod=adobe&user=pub' }));
    expect(decodeAmf0(second.opening()[1].payload)[2]).toMatchObject({ app: 'live?authmod=adobe&user=pub', tcUrl: 'rtmp://cdn.example/live?authmod=adobe&user=pub' });
    const challenge = second.receive(
      fromServer(0, '_error', 1, null, { level: 'error', description: '[ AccessManager.Reject ] : [ authmod=adobe ] : ?reason=needauth&user=pub&salt=c2FsdA==&challenge=Y2g=&opaque=b3A=' }),
    ).outcome as { reconnect: string };
    const vars = new URLSearchParams(challenge.reconnect.slice(1).replace(/\+/g, '%2B'));
    expect(vars.get('response')).toBe(adobeResponse('pub', 'c2FsdA==', creds.password, 'b3A=', vars.get('challenge')!));
    const anonymous = new RtmpPublishSession(target());
    anonymous.opening();
    expect(anonymous.receive(fromServer(0, '_error', 1, null, { level: 'error', description: '[ AccessManager.Reject ] : [ code=403 need auth; authmod=llnw ] : ' })).outcome).toEqual({
      refused: { reason: 'RTMP authentication required (authmod=llnw)', auth: 'required', why: { key: 'cdnAuthRequired', vars: { method: 'llnw' } } },
    });
  });

  it('acknowledges once per the server window and answers pings', () => {
    const session = new RtmpPublishSession(target());
    expect(session.bytesReceived(5000)).toEqual([]); // no window told yet
    session.receive({ csid: 2, type: RtmpType.windowAckSize, streamId: 0, timestamp: 0, payload: u32Payload(10_000) });
    expect(session.bytesReceived(4000)).toEqual([]);
    const [ack] = session.bytesReceived(6000);
    expect(ack).toMatchObject({ csid: 2, type: RtmpType.acknowledgement, payload: u32Payload(15_000) });
    const { send } = session.receive({ csid: 2, type: RtmpType.userControl, streamId: 0, timestamp: 0, payload: hex('0006 0000abcd') });
    expect(send).toEqual([{ csid: 2, type: RtmpType.userControl, streamId: 0, timestamp: 0, payload: hex('0007 0000abcd') }]);
  });

  it('random server messages never make it throw', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            type: fc.constantFrom(RtmpType.commandAmf0, RtmpType.userControl, RtmpType.windowAckSize, RtmpType.dataAmf0, 99),
            payload: fc.oneof(
              fc.uint8Array({ maxLength: 64 }),
              fc.tuple(fc.constantFrom('_result', '_error', 'onStatus', 'x'), fc.integer({ min: 0, max: 6 }), fc.anything()).map(([n, tx, v]) => {
                try {
                  return encodeAmf0(n, tx, null, v as Amf0Value);
                } catch {
                  return encodeAmf0(n, tx);
                }
              }),
            ),
          }),
          { maxLength: 12 },
        ),
        (ms) => {
          const session = new RtmpPublishSession(target({ creds: { user: 'u', password: 'p' } }));
          session.opening();
          for (const m of ms) session.receive({ csid: 3, streamId: 0, timestamp: 0, ...m });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('flvMessages', () => {
  it('cuts tags into payloads at their timestamps (upper byte included), onMetaData behind @setDataFrame', () => {
    const bytes = hex(
      '464c5601 05 00000009 00000000' + // FLV header, PreviousTagSize0
        '12 000003 000000 00 000000 0a0b0c 0000000e' + // script, 3 bytes
        '09 000002 123456 01 000000 1701 0000000d', //  video at 0x01123456 ms
    );
    const out = flvMessages(bytes);
    expect(out).toEqual([
      { type: RtmpType.dataAmf0, timestamp: 0, payload: Uint8Array.from([...encodeAmf0('@setDataFrame'), 0x0a, 0x0b, 0x0c]) },
      { type: RtmpType.video, timestamp: 0x01123456, payload: hex('1701') },
    ]);
  });

  it("takes FlvMuxer's header and tags whole: onMetaData, the AVC sequence header, a keyframe", () => {
    const [init] = new Fmp4StreamReader().push(fs.readFileSync(new URL('../../../../packages/fmp4/test/fixtures/live-h264-aac.mp4', import.meta.url)));
    if (init.type !== 'init') throw new Error('fixture without init');
    const muxer = new FlvMuxer(init.tracks.map((t) => t.track));
    const [meta, seq, aac] = flvMessages(muxer.header());
    expect(aac.type).toBe(RtmpType.audio);
    expect(decodeAmf0(meta.payload)).toEqual(['@setDataFrame', 'onMetaData', new Amf0EcmaArray(muxer.metadata())]);
    expect([...seq.payload.subarray(0, 5)]).toEqual([0x17, 0, 0, 0, 0]);
  });

  it('refuses a cut tag or a foreign tag type with RtmpError', () => {
    expect(() => flvMessages(hex('09 000005 000000 00 000000 0102'))).toThrow(RtmpError);
    expect(() => flvMessages(hex('464c5601 05 000000'))).toThrow(RtmpError);
    expect(() => flvMessages(hex('07 000000 000000 00 000000 0000000b'))).toThrow(RtmpError);
  });

  it('random bytes: tags or RtmpError, nothing else', () => {
    const flvish = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.tuple(fc.constantFrom(8, 9, 18, 3), fc.integer({ min: 0, max: 40 }), fc.uint8Array({ maxLength: 40 })).map(([type, size, body]) =>
        Uint8Array.from([type, 0, 0, size, 0, 0, 1, 0, 0, 0, 0, ...body, 0, 0, 0, 0]),
      ),
    );
    fc.assert(
      fc.property(fc.array(flvish, { maxLength: 4 }), (parts) => {
        const bytes = Uint8Array.from(parts.flatMap((p) => [...p]));
        try {
          for (const m of flvMessages(bytes)) expect([8, 9, 18]).toContain(m.type);
        } catch (err) {
          if (!(err instanceof RtmpError)) throw err;
        }
      }),
      { numRuns: 500 },
    );
  });
});
