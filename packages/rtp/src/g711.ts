/** G.711 (RFC 3551: PCMU payload type 0, PCMA 8): each packet's payload is a run of samples. */
import type { AudioAccessUnit } from '@opencvr/codec';
import { NOTHING, type Depacketiser } from './depacketiser.js';
import { viewOf, type RtpPacket, type RtpView } from './packet.js';
import { TimestampUnwrapper } from './reorder.js';

export class G711Depacketiser implements Depacketiser<AudioAccessUnit> {
  private readonly unwrapper = new TimestampUnwrapper();

  push(packet: RtpPacket): readonly AudioAccessUnit[] {
    return this.pushView(viewOf(packet));
  }

  pushView(packet: RtpView): readonly AudioAccessUnit[] {
    const pts = this.unwrapper.unwrap(packet.timestamp);
    if (packet.payloadEnd <= packet.payloadStart) return NOTHING;
    // A copy: the payload may be a view of a reused read buffer (see Depacketiser).
    return [{ kind: 'audio', pts, data: packet.bytes.slice(packet.payloadStart, packet.payloadEnd) }];
  }

  flush(): readonly AudioAccessUnit[] {
    return [];
  }
}
