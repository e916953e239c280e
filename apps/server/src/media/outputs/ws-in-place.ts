/**
 * Binary WebSocket messages written in place: the frame header goes into free bytes left before the
 * payload in its own buffer, and header and payload leave in one socket write.
 *
 * The `ws` library frames a message as a separate header buffer and the payload, and writes the two
 * corked (cork, write, write, uncork: Node's writev path, with its request and chunk objects). Live
 * video sends a message per frame per viewer; at 64 streams that machinery was about a quarter of
 * what the hub allocated (bench live, sampling heap profile). The live fMP4 output leaves
 * WS_HEADROOM bytes before each fragment (LiveFragmenter's headroom), so the frame can be finished
 * where it lies and written as one buffer, the way `ws` itself writes a message that fits one buffer.
 *
 * Only while `ws` has nothing of its own waiting (it queues messages while compressing or reading a
 * Blob; the server negotiates no compression): otherwise the message goes through `ws`, keeping order.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** Bytes a server's binary frame header takes at most (unmasked: 2, 4 or 10). */
export const WS_HEADROOM = 10;

const OPEN = 1;

/** The parts of `ws`'s WebSocket (8.x) this needs: its socket and its sender's queue. */
interface WsInternals {
  _socket?: Socket;
  _sender?: { _state: number; _queue: unknown[] };
}

/** Bytes of a server's binary frame header for a payload of `length` bytes. */
export const frameHeaderLength = (length: number): number => (length < 126 ? 2 : length < 0x10000 ? 4 : 10);

/** Writes the header of one final, unmasked binary frame of `length` bytes at buf[at]. */
export function writeBinaryFrameHeader(buf: Uint8Array, at: number, length: number): void {
  buf[at] = 0x82;
  if (length < 126) {
    buf[at + 1] = length;
  } else if (length < 0x10000) {
    buf[at + 1] = 126;
    buf[at + 2] = length >>> 8;
    buf[at + 3] = length & 0xff;
  } else {
    buf[at + 1] = 127;
    const high = Math.floor(length / 0x1_0000_0000);
    const low = length >>> 0;
    for (let i = 0; i < 4; i++) {
      buf[at + 2 + i] = (high >>> (24 - 8 * i)) & 0xff;
      buf[at + 6 + i] = (low >>> (24 - 8 * i)) & 0xff;
    }
  }
}

/**
 * Sends `payload` (with WS_HEADROOM free bytes before it in its buffer) as one binary message of
 * `ws`; `done` once the socket has written it (or failed), after which the buffer may be reused.
 */
export function sendInPlace(ws: WebSocket, payload: Uint8Array, done: (err?: Error | null) => void): void {
  const { _socket: socket, _sender: sender } = ws as unknown as WsInternals;
  if (ws.readyState !== OPEN || !socket || !sender || sender._state !== 0 || sender._queue.length > 0 || payload.byteOffset < WS_HEADROOM) {
    ws.send(payload, done);
    return;
  }
  const header = frameHeaderLength(payload.length);
  const frame = Buffer.from(payload.buffer, payload.byteOffset - header, header + payload.length);
  writeBinaryFrameHeader(frame, 0, payload.length);
  socket.write(frame, done);
}
