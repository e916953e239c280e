/**
 * A hub's source says why it failed where it fails, twice: its own words (the hub's reason, the log's)
 * and the catalogue reason the user reads, so no table reads English back into a reason. The RTSP
 * source against small RTSP servers on loopback that refuse, answer an error status, close, or
 * send what is not RTSP; the hub hands the reason to its viewers and keeps it; a stop says why too.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../helpers/index.js';
import type { Reason } from '@opencvr/shared';
import { RtspSource } from '../../src/media/ingest/rtsp-source.js';
import { StreamHub, type MediaSource } from '../../src/media/hub.js';
import { freePort } from '../fixtures/camera.js';

const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** An RTSP server that answers every request the same way (`answer` gets the method), or does `onConnect` with the socket. */
async function rtspServer(answer: (method: string) => string | undefined, onConnect?: (s: net.Socket) => void): Promise<string> {
  const server = net.createServer((sock) => {
    sock.on('error', () => undefined);
    sockets.add(sock);
    if (onConnect) return onConnect(sock);
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
        const req = buf.slice(0, end);
        buf = buf.slice(end + 4);
        const cseq = /CSeq: *(\d+)/i.exec(req)?.[1] ?? '0';
        const status = answer(req.split(' ')[0]);
        if (status) sock.write(`RTSP/1.0 ${status}\r\nCSeq: ${cseq}\r\n\r\n`);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `rtsp://127.0.0.1:${(server.address() as net.AddressInfo).port}/stream`;
}

/** The first failure of an RTSP source on `url`: its words and its reason. */
function firstFailure(url: string, opts: ConstructorParameters<typeof RtspSource>[1] = {}): Promise<{ words: string; why?: Reason }> {
  const source = new RtspSource(url, { timeoutMs: 5000, ...opts });
  return new Promise((resolve) => {
    source.start({
      tracks: () => undefined,
      unit: () => undefined,
      failed: (words, why) => {
        source.stop();
        resolve({ words, why });
      },
    });
  });
}

describe('the RTSP source says why in words and as a catalogue reason', () => {
  it('nothing listening: connection refused / streamRefused', async () => {
    expect(await firstFailure(`rtsp://127.0.0.1:${await freePort()}/x`)).toEqual({ words: 'connection refused', why: { key: 'streamRefused' } });
  });

  it('an error status: the method, the status and the camera’s own phrase', async () => {
    const url = await rtspServer(() => '404 Stream Not Found');
    expect(await firstFailure(url)).toEqual({
      words: 'DESCRIBE: 404 Stream Not Found',
      why: { key: 'streamAnswered', vars: { method: 'DESCRIBE', status: 404, phrase: 'Stream Not Found' } },
    });
  });

  it('401 with no way to log in: streamUnauthorized', async () => {
    const url = await rtspServer(() => '401 Unauthorized');
    expect(await firstFailure(url)).toEqual({ words: 'DESCRIBE: 401 Unauthorized', why: { key: 'streamUnauthorized' } });
  });

  it('a camera that closes the connection: streamClosed', async () => {
    const url = await rtspServer(() => undefined, (s) => s.end());
    expect(await firstFailure(url)).toEqual({ words: 'connection closed by the camera', why: { key: 'streamClosed' } });
  });

  it('bytes that are not RTSP: streamBadData, the parser’s words kept for the log', async () => {
    const url = await rtspServer(() => undefined, (s) => s.on('data', () => s.write('HELLO THIS IS NOT RTSP\r\n\r\n')));
    const got = await firstFailure(url);
    expect(got.words).toMatch(/^bad data from the camera: /);
    expect(got.why).toEqual({ key: 'streamBadData' });
  });

  it('an error without a reason of its own (no UDP port pair for RTP): streamSourceFailed, the words for the log', async () => {
    const sdp = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\na=control:trackID=1\r\n';
    const url = await rtspServer(
      () => undefined,
      (sock) =>
        sock.on('data', (d) => {
          const cseq = /CSeq: *(\d+)/i.exec(d.toString('latin1'))?.[1] ?? '0';
          sock.write(`RTSP/1.0 200 OK\r\nCSeq: ${cseq}\r\nContent-Type: application/sdp\r\nContent-Length: ${sdp.length}\r\n\r\n${sdp}`);
        }),
    );
    const got = await firstFailure(url, { transport: 'udp', udpPorts: { min: 40000, max: 40001 } });
    expect(got).toEqual({ words: 'no RTP port pair fits 40000-40001', why: { key: 'streamSourceFailed' } });
  });
});

describe('the hub keeps the reason beside the words', () => {
  it('hands it to its viewers with the state, tells the same words once, and a stop gives one too', async () => {
    const sinks: Parameters<MediaSource['start']>[0][] = [];
    const hub = new StreamHub('k', () => ({ start: (s) => void sinks.push(s), stop: () => undefined }), {
      onDemand: true,
      graceMs: 60_000,
      retryMinMs: 0,
      retryMaxMs: 0,
      maxGopUnits: 10,
    });
    const states: [string, string, Reason | undefined][] = [];
    const failures: string[] = [];
    hub.onFailure = (_h, words) => failures.push(words);
    hub.subscribe({ tracks: () => undefined, unit: () => undefined, state: (s, r, why) => states.push([s, r, why]) });
    sinks[0].failed('connection refused', { key: 'streamRefused' });
    expect(hub.why).toEqual({ key: 'streamRefused' });
    expect(states.at(-1)).toEqual(['retrying', 'connection refused', { key: 'streamRefused' }]);
    expect(failures).toEqual(['connection refused']);
    // The retries: the same words are not told again (the log has them once); other words are.
    await until(() => sinks.length === 2);
    sinks[1].failed('connection refused', { key: 'streamRefused' });
    await until(() => sinks.length === 3);
    sinks[2].failed('connection reset', { key: 'streamReset' });
    expect(failures).toEqual(['connection refused', 'connection reset']);
    hub.stop();
    expect(states.at(-1)).toEqual(['stopped', 'stopped', { key: 'streamStopped' }]);
  });
});
