/**
 * A WebSocket the test plays the server of: `vi.stubGlobal('WebSocket', FakeWebSocket)`; every socket
 * the console opens is in `FakeWebSocket.instances` (clear it before each test).
 */
export class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  /** What the console sent, parsed as JSON. */
  sent: unknown[] = [];
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closed = false;
  constructor(public url: string) {
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  // The server's side.
  serverOpen() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  serverSend(msg: object) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(msg) }));
  }
  serverClose(code?: number) {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', code === undefined ? undefined : { code }));
  }
  /** The request_id of a stream-status socket's URL. */
  get requestId() {
    return new URL(this.url).searchParams.get('request_id');
  }
}
