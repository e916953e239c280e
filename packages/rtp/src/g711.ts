/** G.711 (RFC 3551: PCMU payload type 0, PCMA 8): each packet's payload is a run of samples. */
import type { AudioAccessUnit } from '@opencvr/codec';
import type { Depacketiser } from './depacketiser.js';
import type { RtpPacket } from './packet.js';
import { TimestampUnwrapper } from './reorder.js';

export class G711Depacketiser implements Depacketiser<AudioAccessUnit> {
  private readonly unwrapper = new TimestampUnwrapper();

  push(packet: RtpPacket): AudioAccessUnit[] {
    const pts = this.unwrapper.unwrap(packet.timestamp);
    return packet.payload.length > 0 ? [{ kind: 'audio', pts, data: packet.payload }] : [];
  }

  flush(): AudioAccessUnit[] {
    return [];
  }
}
