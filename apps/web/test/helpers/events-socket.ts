/**
 * The console's events socket in jsdom: WebSocket stubbed by one that never connects, and a way for
 * the test to deliver an event to the socket opened last, as the server pushes one.
 * vi.unstubAllGlobals() undoes it.
 */
import { vi } from 'vitest';

export function stubEventsSocket() {
  class FakeWebSocket {
    static last: FakeWebSocket | undefined;
    onopen: (() => void) | null = null;
    onmessage: ((ev: { data: string }) => void) | null = null;
    onclose: (() => void) | null = null;
    constructor(public url: string) {
      FakeWebSocket.last = this;
    }
    close() {}
  }
  vi.stubGlobal('WebSocket', FakeWebSocket);
  return {
    /** Delivers `{ topic, payload }` to the socket opened last. */
    push(topic: string, payload: unknown) {
      FakeWebSocket.last!.onmessage!({ data: JSON.stringify({ topic, payload }) });
    },
  };
}
