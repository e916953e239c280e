/**
 * GB28181 media for the rest of the server: the RTP port pool, receivers made from the gb config
 * (RtpPortMin..RtpPortMax, MediaIP, MediaTransport/Mode, AckTimeout), and the hub source of GB
 * channels. The signalling (INVITE/BYE) is plugged in with `setInviter`; until then GB channels have
 * no source (as before). Playback and download sessions use `source()` with their own INVITE.
 */
import type { Channel, Device } from '../../db/schema.js';
import type { Reason } from '@opencvr/shared';
import type { MediaSource } from '../../media/hub.js';
import type { ConfigStore } from '../../services/config/store.js';
import type { Flow, SourceFactory } from '../../services/media/streams.js';
import { GbPsSource, type GbMediaOffer, type GbPlaySession, type GbSessionStarter } from './ps-source.js';
import { RtpPortPool } from './ports.js';
import { RtpReceiver, type GbMediaTransport, type ReceiverLog } from './rtp-receiver.js';

export const GB_DEVICE_TYPE = 'GB28181';

export interface GbInviteRequest {
  device: Device;
  channel: Channel;
  flow: Flow;
  offer: GbMediaOffer;
  /** Call when the device ends the session (its BYE, or it went offline), with why in the catalogue when known. */
  onEnded(reason: string, why?: Reason): void;
  /** Aborted when the hub's source stops (a waiting INVITE is dropped). */
  signal?: AbortSignal;
}

/** The live INVITE (s=Play), implemented by the SIP side. */
export interface GbInviter {
  invite(req: GbInviteRequest): Promise<GbPlaySession>;
}

export interface GbMediaDeps {
  config: ConfigStore;
  log?: ReceiverLog;
  /** Local address the receivers bind (default 0.0.0.0). */
  bindHost?: string;
}

export interface GbSourceOptions {
  /** Overrides the gb config's MediaTransport/MediaTransportMode. */
  transport?: GbMediaTransport;
  /** The device's own address (device.sip_local_ip), used when MediaIP and Host are empty. */
  fallbackIp?: string;
  /** false: only the agreed SSRC is played (default: a device sending another one is followed). */
  acceptOtherSsrc?: boolean;
  /** No RTP this long once media flowed fails the source (default max(AckTimeout, 10) s); a paused playback sets it long and watches itself. */
  idleTimeoutMs?: number;
  /** The sink logs a failed start's words (GbPsSourceOptions.sinkLogsFailures). */
  sinkLogsFailures?: boolean;
}

export class GbMediaService {
  private inviter?: GbInviter;
  private range = { min: 30000, max: 30500 };
  readonly pool = new RtpPortPool(() => this.range);

  constructor(private readonly deps: GbMediaDeps) {}

  /** Plugs in (or removes) the live signalling. */
  setInviter(inviter: GbInviter | undefined) {
    this.inviter = inviter;
  }

  /** For StreamService.registerSource: the live source of a GB28181 device's channel. */
  readonly sourceFactory: SourceFactory = (device, channel, flow) => {
    if (device.device_type !== GB_DEVICE_TYPE || !this.inviter) return undefined;
    const inviter = this.inviter;
    return this.source((offer, ended, signal) => inviter.invite({ device, channel, flow, offer, onEnded: ended, signal }), {
      fallbackIp: device.sip_local_ip,
      // A live source feeds a hub, which logs its failures once per distinct failure until it is live.
      sinkLogsFailures: true,
    });
  };

  /** A hub source for any INVITE (live, playback, download): the receiver is made from the gb config at start. */
  source(invite: GbSessionStarter, options: GbSourceOptions = {}): MediaSource {
    return new GbPsSource({
      invite,
      log: this.deps.log,
      openReceiver: () => this.openReceiver(options),
      noTracksTimeoutMs: 10_000,
      sinkLogsFailures: options.sinkLogsFailures,
    });
  }

  /** A bound receiver and the IP to announce, from the current gb config. */
  async openReceiver(options: GbSourceOptions = {}): Promise<{ receiver: RtpReceiver; announcedIp: string }> {
    const gb = await this.deps.config.get('gb');
    this.range = { min: Math.min(gb.RtpPortMin, gb.RtpPortMax), max: Math.max(gb.RtpPortMin, gb.RtpPortMax) };
    const transport: GbMediaTransport =
      options.transport ??
      (gb.MediaTransport === 'UDP' ? 'udp' : gb.MediaTransportMode === 'active' ? 'tcp-active' : 'tcp-passive');
    const announcedIp = gb.MediaIP || gb.Host || options.fallbackIp || '127.0.0.1';
    const receiver = await RtpReceiver.open({
      transport,
      pool: this.pool,
      bindHost: this.deps.bindHost,
      announcedIp,
      firstPacketTimeoutMs: gb.AckTimeout * 1000,
      idleTimeoutMs: options.idleTimeoutMs ?? Math.max(gb.AckTimeout, 10) * 1000,
      acceptOtherSsrc: options.acceptOtherSsrc,
      log: this.deps.log,
    });
    return { receiver, announcedIp };
  }
}
