/**
 * In-process publish/subscribe for live state pushed to consoles (news, alarms, catalog progress,
 * CDN pushes). The websocket route subscribes each connection.
 */
import { EventEmitter } from 'node:events';
import type { EventMessage } from '@opencvr/shared';
import type { CdnPushChange } from './media/cdn.js';

/**
 * What goes on the bus: the socket's messages, except a CDN push's change, which carries the push's
 * snapshot (whole address, catalogue reason) for each socket to mask and render in its language.
 */
export type BusMessage = Exclude<EventMessage, { topic: 'cdn' }> | { topic: 'cdn'; payload: CdnPushChange };

export class EventBus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish(msg: BusMessage) {
    this.emitter.emit('event', msg);
  }
  subscribe(fn: (msg: BusMessage) => void): () => void {
    this.emitter.on('event', fn);
    return () => this.emitter.off('event', fn);
  }
}
