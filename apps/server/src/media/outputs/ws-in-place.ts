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
 *
 * And while nothing waits on the socket either, the frame goes to its handle directly (`_write`, see
 * canWriteDirect), not through its Writable: the kernel takes it in the call and the callback runs
 * there. The Writable's bookkeeping around each write (its state, a completion deferred to the next
 * tick) was ~4-5 % of the server's CPU at 16 streams (perf); with the ingest's changes of the same
 * session, bench/live/ab-dual.ts found the hub within noise of the build before, ~1 % less
 * (docs/architecture.md).
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** Bytes a server's binary frame header takes at most (unmasked: 2, 4 or 10). */
export const WS_HEADROOM = 10;

const OPEN = 1;

/** The parts of `ws`'s WebSocket (8.x) this needs: its socket and its sender's queue. */
interface WsInternals {
  _socket?: DirectSocket;
  _sender?: { _state: number; _queue: unknown[] };
}

/**
 * The parts of a net.Socket (Node 20-22) a direct write needs: `_write`, the Writable's own sink
 * (net's `_writeGeneric`: the handle's write, the idle timer refreshed, the completion callback called
 * at once when the kernel took every byte, else when libuv has written them, or with the error), and
 * the handle's count of bytes libuv still holds (`writeQueueSize`, 0 when nothing waits).
 */
interface DirectSocket extends Socket {
  _handle?: { writeQueueSize?: number } | null;
}

/** What the Writable gives `_write` for a Buffer chunk (not a text encoding, so not in BufferEncoding). */
const AS_BUFFER = 'buffer' as BufferEncoding;

/** A direct write's completion: a failed write destroys the socket, as the Writable does with its errors. */
function afterDirect(socket: Socket, done: (err?: Error | null) => void, err?: Error | null): void {
  if (err) socket.destroy(err);
  done(err);
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
  if (canWriteDirect(socket)) socket._write(frame, AS_BUFFER, afterDirect.bind(null, socket, done));
  else socket.write(frame, done);
}

/**
 * The frame may skip the socket's Writable and go to its handle (`_write`), when nothing is waiting
 * in either: not in the Writable (its length counts what it buffers and the write in flight), not
 * corked, and not in libuv (a direct write that did not go out at once, because the viewer reads
 * slowly). Then the bytes are in the kernel's socket buffer when `_write` returns, and the callback
 * has run: the Writable's bookkeeping for that write (its state, the completion deferred to the next
 * tick, a tick-queue entry and an object per write) is work for nothing. Anything waiting sends the
 * frame through socket.write, after what waits, in order; so a slow viewer's frames are counted in
 * `ws.bufferedAmount` (the Writable's length) from the second one on, and WsFmp4Output skips them
 * as before. Bytes libuv holds from a direct write are not in bufferedAmount: one frame at most.
 * A handle without writeQueueSize (a TLS socket's) never qualifies.
 */
function canWriteDirect(socket: DirectSocket): boolean {
  return (
    socket.writableLength === 0 &&
    socket.writableCorked === 0 &&
    !socket.connecting &&
    !socket.destroyed &&
    typeof socket._write === 'function' &&
    socket._handle?.writeQueueSize === 0
  );
}
