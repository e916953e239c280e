/**
 * The RTP port pool of GB28181 media (gb config RtpPortMin..RtpPortMax): one UDP socket or one TCP
 * listener per session, tried in turn from where the last one ended; a port another process (or
 * another session) holds is skipped. GB28181 sends RTP only (no RTCP pair), so ports are single.
 */
import dgram from 'node:dgram';
import net from 'node:net';

export interface PortRange {
  min: number;
  max: number;
}

export class RtpPortPool {
  private cursor: number;
  private readonly inUse = new Set<number>();

  constructor(private readonly range: () => PortRange) {
    const { min, max } = range();
    this.cursor = Math.floor(Math.random() * Math.max(1, max - min + 1));
  }

  /** A UDP socket bound to a free port of the range. */
  async bindUdp(host: string): Promise<{ socket: dgram.Socket; port: number; release(): void }> {
    return this.take(async (port) => {
      const socket = dgram.createSocket({ type: net.isIPv6(host) ? 'udp6' : 'udp4', reuseAddr: false });
      const ok = await new Promise<boolean>((resolve) => {
        socket.once('error', () => resolve(false));
        socket.bind(port, host, () => resolve(true));
      });
      if (!ok) {
        closeQuietly(socket);
        return undefined;
      }
      socket.removeAllListeners('error');
      socket.setRecvBufferSize?.(4 << 20);
      return socket;
    }, 'UDP');
  }

  /** A TCP server listening on a free port of the range. */
  async listenTcp(host: string): Promise<{ socket: net.Server; port: number; release(): void }> {
    return this.take(async (port) => {
      const server = net.createServer();
      const ok = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen({ port, host, exclusive: true }, () => resolve(true));
      });
      if (!ok) {
        server.close();
        return undefined;
      }
      server.removeAllListeners('error');
      return server;
    }, 'TCP');
  }

  private async take<T>(
    open: (port: number) => Promise<T | undefined>,
    what: string,
  ): Promise<{ socket: T; port: number; release(): void }> {
    const { min, max } = this.range();
    const size = max - min + 1;
    if (size <= 0) throw new Error(`the RTP port range ${min}-${max} is empty`);
    for (let i = 0; i < Math.min(size, 500); i++) {
      const port = min + ((this.cursor + i) % size);
      if (this.inUse.has(port)) continue;
      this.inUse.add(port);
      const socket = await open(port).catch(() => undefined);
      if (socket) {
        this.cursor = (this.cursor + i + 1) % size;
        let released = false;
        return {
          socket,
          port,
          release: () => {
            if (released) return;
            released = true;
            this.inUse.delete(port);
          },
        };
      }
      this.inUse.delete(port);
    }
    throw new Error(`no free ${what} port for RTP in ${min}-${max} (gb config RtpPortMin/RtpPortMax)`);
  }
}

export function closeQuietly(s: { close(): unknown }) {
  try {
    s.close();
  } catch {
    /* already closed */
  }
}
