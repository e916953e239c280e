/** GB28181 media: RTP receivers (UDP, TCP passive/active), PS → hub source, the port pool. */
export {
  GbMediaService,
  GB_DEVICE_TYPE,
  type GbInviter,
  type GbInviteRequest,
  type GbMediaDeps,
  type GbSourceOptions,
} from './service.js';
export {
  GbPsSource,
  type GbMediaAnswer,
  type GbMediaOffer,
  type GbPlaySession,
  type GbPsSourceOptions,
  type GbSessionStarter,
} from './ps-source.js';
export {
  RtpReceiver,
  type GbMediaTransport,
  type ReceiverHandlers,
  type ReceiverStart,
  type ReceiverStats,
  type RtpReceiverOptions,
} from './rtp-receiver.js';
export { RtpPortPool, type PortRange } from './ports.js';
