/** A WebSocket viewer of the media tests: what a live or playback output sends, collected. */
import WebSocket from 'ws';

export interface WsReceived {
  /** Binary messages (fMP4 fragments, FLV tags) in order. */
  binary: Buffer[];
  /** Text messages, parsed as JSON (init, stats, errors). */
  text: { type: string; [k: string]: unknown }[];
}

/**
 * Opens `url` and collects until `enough` holds after a message or `ms` passed (what came by then is
 * the answer), then closes; an upgrade the server refuses rejects with `HTTP <status>`.
 */
export function collectWs(url: string, enough: (binary: Buffer[], text: WsReceived['text']) => boolean, ms = 20000): Promise<WsReceived> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const got: WsReceived = { binary: [], text: [] };
    const done = () => {
      clearTimeout(timer);
      ws.close();
      resolve(got);
    };
    const timer = setTimeout(done, ms);
    ws.on('message', (data, isBinary) => {
      if (isBinary) got.binary.push(data as Buffer);
      else got.text.push(JSON.parse(String(data)));
      if (enough(got.binary, got.text)) done();
    });
    ws.on('unexpected-response', (_r, res) => {
      clearTimeout(timer);
      reject(new Error(`HTTP ${res.statusCode}`));
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** The HTTP status a WebSocket upgrade is answered with: 101 when it opens (closed at once), -1 on a socket error. */
export function upgradeStatus(url: string): Promise<number> {
  return new Promise<number>((resolve) => {
    const s = new WebSocket(url);
    s.on('unexpected-response', (_r, res) => resolve(res.statusCode ?? 0));
    s.on('open', () => (s.close(), resolve(101)));
    s.on('error', () => resolve(-1));
  });
}
