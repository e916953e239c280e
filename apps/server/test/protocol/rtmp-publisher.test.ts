/**
 * The RTMP publisher on real sockets (access/rtmp/publisher.ts) against the RTMP server double: the
 * publish sequence and what arrives (@setDataFrame onMetaData, the sequence headers, the tags at
 * their timestamps, FCUnpublish and deleteStream on close), the Adobe and Limelight logins with a
 * password that has "/ ? # % +" in it (percent-encoded in the address, as a URL must carry them),
 * a wrong password, a refused publish (BadName), a server that closes mid-stream, and H.265 as
 * enhanced RTMP ('hvc1'). The fixture streams are the fmp4 package's live captures.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeAmf0, FlvMuxer } from '@opencvr/flv';
import { Fmp4StreamReader } from '@opencvr/fmp4';
import { RtmpType } from '../../src/access/rtmp/chunks.js';
import { openRtmpPublish, RtmpPublishError } from '../../src/access/rtmp/publisher.js';
import { startRtmpServer, type RtmpServerDouble } from '../fixtures/rtmp-server.js';
import { makeTestCerts } from '../fixtures/tls-certs.js';
import { setRtmpsTrust } from '../../src/access/rtmp/tls-connect.js';
import { until } from '../helpers/index.js';

let server: RtmpServerDouble | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A fixture capture as FLV: the header blob, then one write per unit (as FlvOutput writes). */
function flvWrites(fixture: 'live-h264-aac.mp4' | 'live-h265.mp4'): { writes: Uint8Array[]; units: number } {
  const events = new Fmp4StreamReader().push(fs.readFileSync(new URL(`../../../../packages/fmp4/test/fixtures/${fixture}`, import.meta.url)));
  const init = events[0];
  if (init.type !== 'init') throw new Error('fixture without init');
  const mux = new FlvMuxer(init.tracks.map((t) => t.track));
  const writes = [mux.header()];
  let units = 0;
  for (const e of events) {
    if (e.type !== 'unit') continue;
    units++;
    for (const tag of mux.push(e.unit, e.index)) writes.push(tag);
  }
  return { writes, units };
}

/** The password of the login tests: each character ffmpeg's RTMP client got wrong. */
const PASSWORD = 'p/w?x#y%z+1';
const withLogin = (url: string) => url.replace('rtmp://', `rtmp://pub:${encodeURIComponent(PASSWORD)}@`);

describe('openRtmpPublish', () => {
  it('publishes: @setDataFrame onMetaData, AVC and AAC headers, every tag at its time; FCUnpublish and deleteStream on close', async () => {
    server = await startRtmpServer({ app: 'live', published: [] });
    const pub = await openRtmpPublish(new URL(server.url('live/KEY?token=1')), { timeoutMs: 5000 });
    expect(server.publishes).toEqual(['KEY?token=1']);
    expect(server.commands.slice(0, 3)).toEqual(['releaseStream', 'FCPublish', 'createStream']);
    const { writes } = flvWrites('live-h264-aac.mp4');
    for (const w of writes) pub.write(w);
    const tags = writes.slice(1).length + 3; // onMetaData and two sequence headers in the first write
    await until(() => server!.received.length === tags, 5000, { what: 'every tag received' });
    const [meta, avc, aac] = server.received;
    expect(decodeAmf0(meta.payload).slice(0, 2)).toEqual(['@setDataFrame', 'onMetaData']);
    expect(meta.type).toBe(RtmpType.dataAmf0);
    expect([avc.type, avc.payload[0], avc.payload[1]]).toEqual([RtmpType.video, 0x17, 0]);
    expect([aac.type, aac.payload[0] >> 4, aac.payload[1]]).toEqual([RtmpType.audio, 10, 0]);
    const video = server.received.filter((m) => m.type === RtmpType.video);
    const times = video.map((m) => m.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeGreaterThan(900); // the capture's second
    expect(video.every((m) => m.streamId === 1)).toBe(true);
    await pub.close();
    await until(() => server!.commands.includes('deleteStream'), 5000);
    expect(server.commands).toContain('FCUnpublish');
    expect(await pub.ended).toEqual({ words: 'stopped', why: { key: 'cdnChannelStopped' } });
  });

  it.each(['adobe', 'llnw'] as const)('logs in (authmod=%s) with a password holding / ? # %% +', async (method) => {
    const login = { user: 'pub', password: PASSWORD };
    server = await startRtmpServer({ app: 'live', published: [], ...(method === 'adobe' ? { adobeAuth: login } : { llnwAuth: login }) });
    const pub = await openRtmpPublish(new URL(withLogin(server.url('live/KEY'))), { timeoutMs: 5000 });
    expect(server.connects).toHaveLength(3);
    expect(server.connects[2]).toContain('&response=');
    expect(server.publishes).toEqual(['KEY']);
    await pub.close();
  });

  it('a wrong password, a missing login, a refused or unanswered publish reject with the reason', async () => {
    server = await startRtmpServer({ app: 'live', published: [], adobeAuth: { user: 'pub', password: PASSWORD }, badNames: ['TAKEN'] });
    const wrong = await openRtmpPublish(new URL(server.url('live/KEY').replace('rtmp://', 'rtmp://pub:nope@')), { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(RtmpPublishError);
    expect(wrong).toMatchObject({ message: 'RTMP authentication failed (authmod=adobe)', auth: true });
    const none = await openRtmpPublish(new URL(server.url('live/KEY')), { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(none).toMatchObject({ message: 'RTMP authentication required (authmod=adobe)', auth: true });
    await server.close();

    server = await startRtmpServer({ app: 'live', published: [], badNames: ['TAKEN'] });
    const taken = await openRtmpPublish(new URL(server.url('live/TAKEN')), { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(taken).toMatchObject({ message: 'RTMP publish refused: NetStream.Publish.BadName', auth: false });
    const app = await openRtmpPublish(new URL(server.url('nope/KEY')), { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(app).toMatchObject({ message: 'RTMP connect refused: NetConnection.Connect.Rejected' });
    await server.close();

    server = await startRtmpServer({ app: 'live', published: [], silentPublish: true });
    const silent = await openRtmpPublish(new URL(server.url('live/KEY')), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(silent).toMatchObject({ message: 'no answer to publish within 300 ms' });
  });

  it('a server that drops the connection on publish (nginx-rtmp refusing a key in on_publish) rejects with cdnPublishDropped', async () => {
    server = await startRtmpServer({ app: 'live', published: [], dropOnPublish: true });
    const dropped = await openRtmpPublish(new URL(server.url('live/KEY')), { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(RtmpPublishError);
    expect(dropped).toMatchObject({ message: 'connection closed by the server on publish (the stream key refused?)', why: { key: 'cdnPublishDropped' }, auth: false });
    expect(server.publishes).toEqual(['KEY']);
  });

  it('a server that closes mid-stream ends the publication with that reason', async () => {
    server = await startRtmpServer({ app: 'live', published: [], closeOnceAfterMedia: 10 });
    const pub = await openRtmpPublish(new URL(server.url('live/KEY')), { timeoutMs: 5000 });
    const { writes } = flvWrites('live-h264-aac.mp4');
    for (const w of writes) pub.write(w);
    // Closed with our bytes unread: a reset, or a close when it read them all first.
    expect((await pub.ended).words).toMatch(/^(ECONNRESET|EPIPE|connection closed by the server)/);
    pub.write(writes[1]); // after the end: nothing, no throw
  });

  it('a server that stops reading ends the publication after the stall time', async () => {
    server = await startRtmpServer({ app: 'live', published: [], stopReadingAfterPublish: true });
    const pub = await openRtmpPublish(new URL(server.url('live/KEY')), { timeoutMs: 5000, stallMs: 500 });
    const { writes } = flvWrites('live-h264-aac.mp4');
    // Enough to fill both sockets' kernel buffers, so bytes stay queued here.
    while (pub.buffered() < 1024 * 1024) for (const w of writes.slice(1)) pub.write(w);
    const started = performance.now();
    expect(await pub.ended).toEqual({ words: 'the server took nothing for 500 ms', why: { key: 'cdnStalled', vars: { seconds: 0.5 } } });
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('RTMPS: the same publish inside TLS (a certificate of a CA trusted with RTMPS_CA_FILE; refusals: rtmps-trust.test.ts)', async () => {
    const certs = makeTestCerts();
    try {
      setRtmpsTrust({ caFile: certs.caFile });
      server = await startRtmpServer({ app: 'live', published: [], tls: certs.leaf });
      expect(server.url('live/KEY')).toMatch(/^rtmps:/);
      const pub = await openRtmpPublish(new URL(server.url('live/KEY')), { timeoutMs: 5000 });
      pub.write(flvWrites('live-h264-aac.mp4').writes[0]);
      await until(() => server!.received.length === 3, 5000, { what: 'the headers received' });
      await pub.close();
    } finally {
      setRtmpsTrust({});
      certs.remove();
    }
  });

  it('H.265 goes as enhanced RTMP: hvc1 sequence start, hvc1 coded frames', async () => {
    server = await startRtmpServer({ app: 'live', published: [] });
    const pub = await openRtmpPublish(new URL(server.url('live/KEY')), { timeoutMs: 5000, hevc: true });
    const { writes } = flvWrites('live-h265.mp4');
    for (const w of writes) pub.write(w);
    await until(() => server!.received.length === writes.length + 1, 5000, { what: 'every tag received' });
    const video = server.received.filter((m) => m.type === RtmpType.video);
    // IsExHeader | keyframe | SequenceStart, 'hvc1'; then CodedFrames (1).
    expect([...video[0].payload.subarray(0, 5)]).toEqual([0x90, 0x68, 0x76, 0x63, 0x31]);
    expect(video[1].payload[0] & 0x8f).toBe(0x81);
    expect(Buffer.from(video[1].payload.subarray(1, 5)).toString()).toBe('hvc1');
    await pub.close();
  });
});
