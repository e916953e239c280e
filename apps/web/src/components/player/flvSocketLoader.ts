/**
 * mpegts.js's loader of a WS-FLV socket (its `customLoader`), which keeps the close code and reason.
 * mpegts.js's own WebSocketLoader reports any close as the stream's normal end and drops the
 * server's words ("stream stopped", "play token expired", "stream not open"), so an FLV viewer could
 * only be told "the FLV stream ended". This one does what that one does — binary messages passed on
 * in order with their byte offsets, a socket error an Exception, an abort silent — and tells
 * `onClose` the code and reason of a close it did not ask for, before mpegts.js hears of the end,
 * with the catalogue reason of the stopped state message the server may send just before it
 * (stoppedStateMessage: the vars a 123-byte close reason cannot hold). It asks the server for the
 * camera's state (`?state=1`, FLV_STATE_PARAM: other FLV players would fail on a text frame, so the
 * server sends none unless asked) and tells `onState` each state message (connecting, retrying with
 * the camera's reason, live) as the WS-fMP4 engine does, without the socket closing. Any other text
 * message is an error, as in mpegts.js. It imports nothing of mpegts.js (the constants are its
 * loader.js's), so it is tested without it.
 */
import type Mpegts from 'mpegts.js';
import { FLV_STATE_PARAM, reasonOfState, type LiveStateMessage, type Reason } from '@opencvr/shared';

/** mpegts.js's LoaderStatus (src/io/loader.js). */
const STATUS = { idle: 0, connecting: 1, buffering: 2, error: 3, complete: 4 } as const;
/**
 * mpegts.js's LoaderErrors.EXCEPTION: how its WebSocketLoader reports a socket error. Its d.ts types
 * an error type as the LoaderErrors object itself, hence the cast.
 */
const EXCEPTION = 'Exception' as unknown as Mpegts.LoaderErrors;

/** A close the loader did not ask for: the server's code and words, and the catalogue reason its state message gave. */
export type OnSocketClose = (code: number, reason: string, why?: Reason) => void;

/** The camera's state while the socket stays open: a state message's state, the source's words, the catalogue reason. */
export type OnSocketState = (state: FlvIngestState, reason: string, why?: Reason) => void;
export type FlvIngestState = Exclude<LiveStateMessage['state'], 'stopped' | 'unsupported'>;

/** `url` asking the server for state messages (FLV_STATE_PARAM). */
export function withStateParam(url: string): string {
  const u = new URL(url);
  u.searchParams.set(FLV_STATE_PARAM, '1');
  return u.toString();
}

/**
 * A loader class for mpegts.js's `customLoader` whose unasked-for closes are told to `onClose`, and
 * the camera's state while it plays to `onState`.
 */
export function flvSocketLoader(onClose: OnSocketClose, onState: OnSocketState = () => undefined): Mpegts.CustomLoaderConstructor {
  return class FlvSocketLoader implements Mpegts.BaseLoader {
    _status: number = STATUS.idle;
    /** The engine runs with the stash buffer off (latency): this loader never asks for it. */
    _needStash = false;
    onContentLengthKnown: Mpegts.BaseLoader['onContentLengthKnown'] = () => undefined;
    onURLRedirect: Mpegts.BaseLoader['onURLRedirect'] = () => undefined;
    onDataArrival: Mpegts.BaseLoader['onDataArrival'] = () => undefined;
    onError: Mpegts.BaseLoader['onError'] = () => undefined;
    onComplete: Mpegts.BaseLoader['onComplete'] = () => undefined;
    private ws: WebSocket | null = null;
    private received = 0;
    /** The catalogue reason of the stopped state message before the close, if one came. */
    private why?: Reason;

    get type() {
      return 'flv-socket-loader';
    }
    get status() {
      return this._status;
    }
    get needStashBuffer() {
      return this._needStash;
    }
    isWorking() {
      return this._status === STATUS.connecting || this._status === STATUS.buffering;
    }

    open(source: Mpegts.MediaSegment) {
      let ws: WebSocket;
      try {
        ws = new WebSocket(withStateParam(source.url));
      } catch (err) {
        this._status = STATUS.error;
        this.onError(EXCEPTION, { code: -1, msg: (err as Error).message });
        return;
      }
      this.ws = ws;
      ws.binaryType = 'arraybuffer';
      this._status = STATUS.connecting;
      ws.onopen = () => {
        this._status = STATUS.buffering;
      };
      ws.onmessage = (e: MessageEvent) => {
        if (typeof e.data === 'string') {
          const msg = stateMessage(e.data);
          if (msg === null) return; // a state a newer server knows and this console does not
          if (msg?.state === 'stopped') {
            this.why = msg.why;
            return;
          }
          if (msg) {
            onState(msg.state, msg.reason, msg.why);
            return;
          }
          // The server sends FLV only in binary messages, and its state messages: anything else is not this protocol.
          this._status = STATUS.error;
          this.onError(EXCEPTION, { code: -1, msg: 'unexpected text message' });
          return;
        }
        // binaryType 'arraybuffer': every binary message is one.
        const chunk = e.data as ArrayBuffer;
        const from = this.received;
        this.received += chunk.byteLength;
        this.onDataArrival(chunk, from, this.received);
      };
      ws.onerror = () => {
        this._status = STATUS.error;
        this.onError(EXCEPTION, { code: -1, msg: 'WebSocket error' });
      };
      ws.onclose = (e: CloseEvent) => {
        this.detach();
        this._status = STATUS.complete;
        onClose(e.code, e.reason, this.why);
        // Told after: the engine has stopped the player by now, unless it chose to let it end.
        this.onComplete(0, this.received - 1);
      };
    }

    abort() {
      const ws = this.ws;
      this.detach();
      if (ws && (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN)) ws.close();
      this._status = STATUS.complete;
    }

    destroy() {
      this.abort();
      this._status = STATUS.idle;
      const none = () => undefined;
      this.onContentLengthKnown = none;
      this.onURLRedirect = none;
      this.onDataArrival = none;
      this.onError = none;
      this.onComplete = none;
    }

    /** Nothing of this socket is told any more (an abort, or its close already was). */
    private detach() {
      const ws = this.ws;
      this.ws = null;
      if (!ws) return;
      ws.onopen = null;
      ws.onmessage = null;
      ws.onerror = null;
      ws.onclose = null;
    }
  };
}

const STATES = new Set<unknown>(['idle', 'connecting', 'live', 'retrying', 'stopped'] satisfies LiveStateMessage['state'][]);

/**
 * A state message (shared liveStateMessage / stoppedStateMessage) with its words and catalogue reason
 * (none when its code is one this console does not know: a newer server's); null for a state message
 * of a state this console does not know, undefined for any other text.
 */
function stateMessage(text: string): { state: FlvIngestState | 'stopped'; reason: string; why?: Reason } | null | undefined {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!msg || typeof msg !== 'object') return undefined;
  const m = msg as { type?: unknown; state?: unknown; reason?: unknown; code?: unknown; vars?: unknown };
  if (m.type !== 'state') return undefined;
  if (!STATES.has(m.state)) return null;
  return { state: m.state as FlvIngestState | 'stopped', reason: typeof m.reason === 'string' ? m.reason : '', why: reasonOfState(m) };
}
