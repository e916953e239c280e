/**
 * The FLV engine's socket loader against a real WebSocket server (the `ws` package the server uses),
 * with the `ws` client as the page's WebSocket (jsdom's undici one dispatches events jsdom refuses):
 * the bytes come through in order with their offsets, a close by the server is told with its code
 * and reason before mpegts.js hears of the end, and an abort tells nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsClient, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { IncomingMessage } from 'node:http';
import { liveStateMessage, stoppedCloseReason, stoppedStateMessage } from '@opencvr/shared';
import { flvSocketLoader } from '../src/components/player/flvSocketLoader';

/** This file's port (the flv-reason range). */
const PORT = 35_417;

let server: WebSocketServer;
/** What the test does with the next connection. */
let onConnection: (socket: ServerSocket, req: IncomingMessage) => void = () => undefined;

beforeAll(async () => {
  vi.stubGlobal('WebSocket', WsClient);
  server = new WebSocketServer({ port: PORT, host: '127.0.0.1' });
  server.on('connection', (socket, req) => onConnection(socket, req));
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
});
afterAll(async () => {
  vi.unstubAllGlobals();
  for (const c of server.clients) c.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const url = `ws://127.0.0.1:${PORT}/ws_flv/live/1_1_0.flv`;
const source = { url, duration: 0 };
const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`never: ${what}`);
};

/** A loader whose every callback is written down in `seen`, in order. */
function recordingLoader() {
  const seen: string[] = [];
  const chunks: { bytes: number[]; from: number; to?: number }[] = [];
  const Loader = flvSocketLoader(
    (code, reason, why) => seen.push(`close ${code} ${reason}${why ? ` ${JSON.stringify(why)}` : ''}`),
    (state, reason, why) => seen.push(`state ${state} ${reason}${why ? ` ${JSON.stringify(why)}` : ''}`),
  );
  const loader = new Loader({ getConfig: () => ({ url, headers: {} }), removeURLParameters: (u) => u }, {});
  loader.onDataArrival = (chunk, from, to) => {
    chunks.push({ bytes: [...new Uint8Array(chunk)], from, to });
    seen.push('data');
  };
  loader.onComplete = (from, to) => seen.push(`complete ${from} ${to}`);
  loader.onError = (type, info) => seen.push(`error ${type} ${info.msg}`);
  return { loader, seen, chunks };
}

describe('flvSocketLoader', () => {
  it('passes the binary messages on in order and tells the close reason before the end', async () => {
    onConnection = (socket) => {
      socket.send(Buffer.from([0x46, 0x4c, 0x56]));
      socket.send(Buffer.from([1, 2]));
      socket.send(Buffer.from([3, 4, 5, 6]));
      socket.close(1000, 'stream stopped');
    };
    const { loader, seen, chunks } = recordingLoader();
    loader.open(source, { from: 0, to: -1 });
    expect(loader.isWorking()).toBe(true);
    await until('the close', () => seen.some((s) => s.startsWith('complete')));
    expect(chunks).toEqual([
      { bytes: [0x46, 0x4c, 0x56], from: 0, to: 3 },
      { bytes: [1, 2], from: 3, to: 5 },
      { bytes: [3, 4, 5, 6], from: 5, to: 9 },
    ]);
    expect(seen).toEqual(['data', 'data', 'data', 'close 1000 stream stopped', 'complete 0 8']);
    expect(loader.isWorking()).toBe(false);
    expect(loader.needStashBuffer).toBe(false);
    loader.destroy();
  });

  it("tells the token's expiry as the server closes with it", async () => {
    onConnection = (socket) => socket.close(1008, 'play token expired');
    const { loader, seen } = recordingLoader();
    loader.open(source, { from: 0, to: -1 });
    await until('the close', () => seen.length >= 2);
    expect(seen).toEqual(['close 1008 play token expired', 'complete 0 -1']);
    loader.destroy();
  });

  it('an abort closes the socket and tells nothing', async () => {
    let closedAtServer: number | undefined;
    let connected = false;
    onConnection = (socket) => {
      connected = true;
      socket.send(Buffer.from([9]));
      socket.on('close', (code) => (closedAtServer = code));
    };
    const { loader, seen, chunks } = recordingLoader();
    loader.open(source, { from: 0, to: -1 });
    await until('the first bytes', () => connected && chunks.length === 1);
    loader.abort();
    await until('the server sees the close', () => closedAtServer !== undefined);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual(['data']);
    expect(loader.isWorking()).toBe(false);
    loader.destroy();
  });

  it('the stopped state message before the close gives the close its catalogue reason with the vars (shared stoppedStateMessage)', async () => {
    const why = { key: 'tlsCertWrongHost' as const, vars: { host: 'cam.example', names: 'other.example' } };
    onConnection = (socket) => {
      socket.send(Buffer.from([0x46, 0x4c, 0x56]));
      socket.send(JSON.stringify(stoppedStateMessage(why)));
      socket.close(1000, stoppedCloseReason(why));
    };
    const { loader, seen } = recordingLoader();
    loader.open(source, { from: 0, to: -1 });
    await until('the close', () => seen.some((s) => s.startsWith('complete')));
    expect(seen).toEqual(['data', `close 1000 stream stopped ${JSON.stringify(why)}`, 'complete 0 2']);
    loader.destroy();
  });

  it('a stopped state message with a code this console does not know (a newer server) is no error; the close is told without a reason', async () => {
    onConnection = (socket) => {
      socket.send(JSON.stringify({ type: 'state', state: 'stopped', reason: 'stream stopped', code: 'noSuchReason', vars: { x: 1 } }));
      socket.close(1000, 'stream stopped');
    };
    const { loader, seen } = recordingLoader();
    loader.open(source, { from: 0, to: -1 });
    await until('the close', () => seen.some((s) => s.startsWith('complete')));
    expect(seen).toEqual(['close 1000 stream stopped', 'complete 0 -1']);
    loader.destroy();
  });

  it('asks the server for state messages (?state=1: other FLV players get none)', async () => {
    let asked: string | undefined;
    onConnection = (socket, req) => {
      asked = req.url;
      socket.close(1000, 'stream stopped');
    };
    const { loader, seen } = recordingLoader();
    loader.open({ url: `${url}?play_token=abc`, duration: 0 }, { from: 0, to: -1 });
    await until('the close', () => seen.some((s) => s.startsWith('complete')));
    expect(asked).toBe('/ws_flv/live/1_1_0.flv?play_token=abc&state=1');
    loader.destroy();
  });

  it("tells the camera's state while the socket stays open: retrying with the reason, then live, the FLV bytes going on around them", async () => {
    const why = { key: 'streamRefused' as const };
    onConnection = (socket) => {
      socket.send(JSON.stringify(liveStateMessage('live', '')));
      socket.send(Buffer.from([0x46, 0x4c, 0x56]));
      socket.send(JSON.stringify(liveStateMessage('retrying', 'connect ECONNREFUSED 127.0.0.1:23554', why)));
      socket.send(JSON.stringify(liveStateMessage('connecting', '')));
      // A state a newer server may send: not this console's, no error.
      socket.send(JSON.stringify({ type: 'state', state: 'dreaming', reason: '' }));
      socket.send(JSON.stringify(liveStateMessage('live', '')));
      socket.send(Buffer.from([1, 2]));
    };
    const { loader, seen, chunks } = recordingLoader();
    loader.open(source, { from: 0, to: -1 });
    await until('the bytes after the return', () => chunks.length === 2);
    expect(seen).toEqual([
      'state live ',
      'data',
      `state retrying connect ECONNREFUSED 127.0.0.1:23554 ${JSON.stringify(why)}`,
      'state connecting ',
      'state live ',
      'data',
    ]);
    expect(chunks[1]).toEqual({ bytes: [1, 2], from: 3, to: 5 });
    expect(loader.isWorking()).toBe(true);
    loader.destroy();
  });

  it('a text message that is no state message is an error, as any text is in mpegts.js', async () => {
    onConnection = (socket) => socket.send('{"type":"init","mime":"video/mp4"}');
    const { loader, seen } = recordingLoader();
    loader.open(source, { from: 0, to: -1 });
    await until('the error', () => seen.length >= 1);
    expect(seen[0]).toBe('error Exception unexpected text message');
    loader.destroy();
  });
});
