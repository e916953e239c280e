/**
 * The live INVITE (s=Play) plugged into the GB media service (ctx.gbMedia.setInviter): the hub asks
 * for a channel's flow, the receiver is bound, and this sends the INVITE for the channel with the
 * receiver's address; flow 1 (sub stream) asks for a=streamnumber:1. Closing sends the BYE.
 */
import { streamKey } from '../../services/media/streams.js';
import type { GbInviter, GbInviteRequest } from '../media/service.js';
import type { GbPlaySession } from '../media/ps-source.js';
import type { GbInviteClient } from './client.js';

export function liveInviter(client: GbInviteClient): GbInviter {
  return {
    async invite(req: GbInviteRequest): Promise<GbPlaySession> {
      const s = await client.invite({
        deviceId: req.device.device_id,
        channelId: req.channel.channel_id,
        session: 'Play',
        offer: req.offer,
        // Devices that predate -2022 ignore the line; leave it out for the main stream.
        streamNumber: req.flow === 1 ? 1 : undefined,
        streamKey: streamKey(req.channel.id, req.flow),
        onEnded: req.onEnded,
        signal: req.signal,
      });
      return { answer: s.media, close: () => s.close() };
    },
  };
}
