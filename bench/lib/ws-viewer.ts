/**
 * A viewer that only reads and counts: a WebSocket (WS-fMP4 or WS-FLV) client that takes every
 * message, adds up the media bytes and drops them. The live bench's parts (bench/live/support.ts,
 * first-frame, latency, viewers) and the recording bench's viewer windows (bench/recording/run.ts
 * --viewers=1) use it: the server pays for its delivery as for a player's, the bench process next to
 * nothing beyond the socket.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

export interface CountingViewer {
  bytes: number;
  /** performance.now() of the first media message. */
  firstAt?: number;
  ready: Promise<void>;
  close(): Promise<void>;
  /** WHEP viewers: the peer connection's state (diagnostics). */
  state?: () => string;
}

/** A WebSocket viewer (fMP4 or FLV) that counts bytes; ready at its first binary message. */
export function wsViewer(url: string): CountingViewer {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  const v: CountingViewer = {
    bytes: 0,
    ready: new Promise((resolve, reject) => {
      ws.on('message', (data, binary) => {
        if (!binary) return;
        v.bytes += (data as Buffer).length;
        if (v.firstAt === undefined) {
          v.firstAt = performance.now();
          resolve();
        }
      });
      ws.on('error', reject);
      ws.on('unexpected-response', (_q, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.on('close', () => reject(new Error('closed before media')));
    }),
    close: async () => {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
    },
  };
  v.ready.catch(() => undefined);
  return v;
}
