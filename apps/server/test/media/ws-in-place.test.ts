/**
 * Binary WebSocket messages written in place (the live fMP4 output's send): the frame header is the
 * one `ws` itself makes for every payload length class; over a real `ws` server and client on
 * loopback, in-place messages arrive byte for byte and in order with messages `ws` sends (text and
 * binary); a payload without room before it, or a socket that is closing, goes through `ws`; the
 * completion callback runs once the socket has written the bytes.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { frameHeaderLength, sendInPlace, writeBinaryFrameHeader, WS_HEADROOM } from '../../src/media/outputs/ws-in-place.js';

/** ws's own framing (its types leave the Sender out). */
const { Sender } = createRequire(import.meta.url)('ws') as {
  Sender: { frame(data: Buffer, opts: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] };
};

/** `bytes` after WS_HEADROOM free bytes (filled with junk the header must overwrite) in a bigger buffer. */
function withRoom(bytes: Uint8Array): Uint8Array {
  const buf = new Uint8Array(WS_HEADROOM + bytes.length + 5).fill(0xcc);
  buf.set(bytes, WS_HEADROOM);
  return buf.subarray(WS_HEADROOM, WS_HEADROOM + bytes.length);
}

const payload = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

describe('writeBinaryFrameHeader', () => {
  it('writes the header ws frames a final unmasked binary message with, at each length boundary', () => {
    for (const n of [0, 1, 125, 126, 127, 65535, 65536, 70000, 2 ** 32 + 3]) {
      const header = Buffer.alloc(frameHeaderLength(n));
      writeBinaryFrameHeader(header, 0, n);
      if (n <= 70000) {
        const [want] = Sender.frame(Buffer.alloc(n), { fin: true, opcode: 2, mask: false, readOnly: false, rsv1: false });
        expect(header).toEqual(want);
      }
      expect(header.length).toBe(n < 126 ? 2 : n < 65536 ? 4 : 10);
      expect(header[0]).toBe(0x82);
      const decoded = n < 126 ? header[1] : n < 65536 ? header.readUInt16BE(2) : Number(header.readBigUInt64BE(2));
      expect(decoded).toBe(n);
    }
  });
});

describe('sendInPlace over a real ws connection', () => {
  let wss: WebSocketServer | undefined;
  afterEach(() => new Promise<void>((r) => (wss ? wss.close(() => r()) : r())));

  async function connect() {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((r) => wss!.once('listening', () => r()));
    const server = new Promise<WebSocket>((r) => wss!.once('connection', (ws) => r(ws)));
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    const received: (string | Buffer)[] = [];
    client.on('message', (data, isBinary) => received.push(isBinary ? Buffer.from(data as Buffer) : String(data)));
    await new Promise<void>((r) => client.once('open', () => r()));
    return { server: await server, client, received };
  }

  it('delivers in-place messages of every length class whole and in order with ws.send messages', async () => {
    const { server, client, received } = await connect();
    const sizes = [0, 1, 125, 126, 65535, 65536, 300_000];
    const expected: (string | Buffer)[] = [];
    let completed = 0;
    sizes.forEach((n, i) => {
      const p = payload(n, i);
      sendInPlace(server, withRoom(p), (err) => {
        expect(err ?? undefined).toBeUndefined();
        completed++;
      });
      expected.push(Buffer.from(p));
      server.send(`text ${i}`);
      expected.push(`text ${i}`);
      const q = payload(n + 3, i + 100);
      server.send(q);
      expected.push(Buffer.from(q));
    });
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(expected.length);
    expect(received).toEqual(expected);
    expect(completed).toBe(sizes.length);
    client.close();
  });

  it('writes the frame of an idle socket straight to its handle, not through the Writable, the callback run at once', async () => {
    const { server, client, received } = await connect();
    const socket = (server as unknown as { _socket: import('node:net').Socket })._socket;
    let viaWrite = 0;
    const write = socket.write.bind(socket);
    socket.write = ((...args: Parameters<typeof socket.write>) => {
      viaWrite++;
      return write(...args);
    }) as typeof socket.write;
    let done = 0;
    const p = payload(20_000, 3);
    sendInPlace(server, withRoom(p), () => done++);
    // The kernel took the frame during the call: done already, nothing left in the Writable.
    expect(done).toBe(1);
    expect(viaWrite).toBe(0);
    expect(socket.writableLength).toBe(0);
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    expect(received[0]).toEqual(Buffer.from(p));
    client.close();
  });

  it('keeps the frames of a slow viewer in order and counted: once a direct write waits, the next go through the Writable', async () => {
    const { server, client, received } = await connect();
    const clientSocket = (client as unknown as { _socket: import('node:net').Socket })._socket;
    // The viewer stops reading: the kernel's buffers fill and writes stay with libuv, then the Writable.
    clientSocket.pause();
    const sent: Buffer[] = [];
    let done = 0;
    let maxBuffered = 0;
    for (let i = 0; i < 200; i++) {
      const p = payload(100_000, i);
      sendInPlace(server, withRoom(p), (err) => {
        expect(err ?? undefined).toBeUndefined();
        done++;
      });
      sent.push(Buffer.from(p));
      if (i % 50 === 0) {
        server.send(`text ${i}`);
        sent.push(Buffer.from(`text ${i}`));
      }
      maxBuffered = Math.max(maxBuffered, server.bufferedAmount);
    }
    // All but about one frame's bytes are in bufferedAmount (what WsFmp4Output skips a slow viewer on).
    expect(maxBuffered).toBeGreaterThan(10_000_000);
    expect(done).toBeLessThan(200);
    clientSocket.resume();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(sent.length);
    // Compared one by one (a deep toEqual of 20 MB is slow): the first message out of place, if any.
    const firstWrong = received.findIndex((r, i) => !(typeof r === 'string' ? Buffer.from(r) : r).equals(sent[i]));
    expect(firstWrong).toBe(-1);
    await expect.poll(() => done, { timeout: 5000 }).toBe(200);
    client.close();
  }, 30_000);

  it('sends through ws a payload with no room before it, and a message on a closing socket fails like ws.send', async () => {
    const { server, client, received } = await connect();
    const tight = payload(50, 7); // byteOffset 0: no room for the header
    let done = 0;
    sendInPlace(server, tight, () => done++);
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    expect(received[0]).toEqual(Buffer.from(tight));
    expect(done).toBe(1);
    server.close();
    const errors: (Error | null | undefined)[] = [];
    sendInPlace(server, withRoom(payload(10, 1)), (err) => errors.push(err));
    await expect.poll(() => errors.length, { timeout: 5000 }).toBe(1);
    expect(errors[0]).toBeInstanceOf(Error);
    client.terminate();
  });
});
