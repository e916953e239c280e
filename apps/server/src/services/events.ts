/**
 * In-process publish/subscribe for live state pushed to consoles (news now; alarms and stream
 * status later). The websocket route subscribes each connection.
 */
import { EventEmitter } from 'node:events';
import type { EventMessage } from '@opencvr/shared';

export class EventBus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish(msg: EventMessage) {
    this.emitter.emit('event', msg);
  }
  subscribe(fn: (msg: EventMessage) => void): () => void {
    this.emitter.on('event', fn);
    return () => this.emitter.off('event', fn);
  }
}
