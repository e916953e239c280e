/**
 * RTP/RTCP socket pairs for RTSP over UDP: an even port for RTP and the next one for RTCP (RFC 3550
 * 11), bound together from a configurable range. A port another process holds is skipped.
 */
import dgram from 'node:dgram';

export interface UdpPair {
  rtp: dgram.Socket;
  rtcp: dgram.Socket;
  rtpPort: number;
  close(): void;
}

export interface UdpPortRange {
  min: number;
  max: number;
}

export const DEFAULT_UDP_PORTS: UdpPortRange = { min: 30000, max: 39999 };

let next = 0;

function bind(socket: dgram.Socket, port: number, address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const onError = () => resolve(false);
    socket.once('error', onError);
    socket.bind(port, address, () => {
      socket.off('error', onError);
      resolve(true);
    });
  });
}

/** A bound pair from the range (tried in turn from where the last one ended), or an error when none is free. */
export async function allocateUdpPair(range: UdpPortRange = DEFAULT_UDP_PORTS, address = '0.0.0.0'): Promise<UdpPair> {
  const first = range.min + (range.min % 2);
  const slots = Math.floor((range.max - first) / 2);
  if (slots <= 0) throw new Error(`no RTP port pair fits ${range.min}-${range.max}`);
  if (!next) next = Math.floor(Math.random() * slots);
  for (let i = 0; i < Math.min(slots, 200); i++) {
    const port = first + ((next + i) % slots) * 2;
    const rtp = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    const rtcp = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    if ((await bind(rtp, port, address)) && (await bind(rtcp, port + 1, address))) {
      next = (next + i + 1) % slots;
      rtp.setRecvBufferSize?.(4 << 20);
      const close = () => {
        for (const s of [rtp, rtcp]) {
          try {
            s.close();
          } catch {
            /* closed */
          }
        }
      };
      return { rtp, rtcp, rtpPort: port, close };
    }
    for (const s of [rtp, rtcp]) {
      try {
        s.close();
      } catch {
        /* never bound */
      }
    }
  }
  throw new Error(`no free RTP port pair in ${range.min}-${range.max}`);
}
