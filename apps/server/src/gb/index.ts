export { GbService, type DeviceStatusEvent, type GbServiceDeps, type RequestHandler } from './service.js';
export { GbRequestError, type GbMethod, type GbRequestOptions, type GbRequestResult } from './requests.js';
export type { InboundMessage, MessageHandler } from './messages.js';
export type { DeviceSession } from './registry.js';
export type { Peer } from './peer.js';
export { gbDate } from './gb-time.js';
