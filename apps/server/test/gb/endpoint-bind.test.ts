/**
 * The SIP endpoint binds UDP and TCP on one port. Asked for port 0, the system picks the UDP port and
 * TCP takes the same number, which an outgoing TCP connection may already hold: the endpoint picks
 * again instead of coming up without SIP. Asked for a fixed port that TCP cannot have, it fails and
 * leaves nothing bound.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SipEndpoint } from '../../src/gb/endpoint.js';
import { TcpTransport } from '../../src/gb/transport-tcp.js';

const log = { debug: () => undefined, warn: () => undefined };
const endpoint = (port: number) => new SipEndpoint({ host: '127.0.0.1', port, log, onRequest: () => undefined });

const listening = (server: net.Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => resolve());
  });

afterEach(() => vi.restoreAllMocks());

describe('SipEndpoint binding', () => {
  it('with port 0, picks another port when TCP finds the chosen one taken', async () => {
    const real = TcpTransport.prototype.start;
    const tried: number[] = [];
    // The first TCP bind meets a port held elsewhere, as an outgoing connection's local port would be.
    vi.spyOn(TcpTransport.prototype, 'start').mockImplementation(async function (this: TcpTransport, port?: number) {
      tried.push(port ?? -1);
      if (tried.length === 1) throw Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
      return real.call(this, port);
    });
    const ep = endpoint(0);
    await ep.start();
    try {
      // At least one more try; more when another process happens to hold the next port as well (the
      // suite runs three server files at once, their outgoing connections take ephemeral ports too).
      expect(tried.length).toBeGreaterThanOrEqual(2);
      expect(ep.port).toBe(tried.at(-1));
      expect(ep.port).not.toBe(tried[0]);
      expect(ep.port).toBeGreaterThan(0);
      // Both transports really listen on the port it reports.
      await new Promise<void>((resolve, reject) => {
        const s = net.connect({ host: '127.0.0.1', port: ep.port }, () => {
          s.destroy();
          resolve();
        });
        s.once('error', reject);
      });
      const probe = dgram.createSocket('udp4');
      const bound = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
        probe.once('error', resolve);
        probe.bind(ep.port, '127.0.0.1', () => resolve(undefined));
      });
      probe.close();
      expect(bound?.code).toBe('EADDRINUSE');
    } finally {
      await ep.stop();
    }
  });

  it('with a fixed port TCP cannot have, fails and leaves the UDP port free', async () => {
    const holder = net.createServer();
    await listening(holder, 0);
    const port = (holder.address() as net.AddressInfo).port;
    try {
      await expect(endpoint(port).start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
      const probe = dgram.createSocket('udp4');
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.bind(port, '127.0.0.1', () => resolve());
      });
      probe.close();
    } finally {
      holder.close();
    }
  });
});
