/**
 * GB28181 media on real loopback sockets: the device double sends the test clip as PS over RTP over
 * UDP, TCP (platform passive) and TCP (platform active); the PS source gives the hub H.264 at 25 fps.
 * Also: another SSRC than agreed, no RTP within the time-out (the message names the cause), garbage
 * datagrams on the port.
 */
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccessUnit, Track, VideoAccessUnit } from '@opencvr/codec';
import { serializeRtp } from '@opencvr/rtp';
import {
  GbPsSource,
  RtpPortPool,
  RtpReceiver,
  type GbMediaTransport,
  type GbPlaySession,
} from '../../src/gb/media/index.js';
import { startGbMediaSender, type GbMediaSender, type GbMediaSenderOptions } from '../fixtures/gb-media-sender.js';
import { freePort } from '../fixtures/camera.js';
import { until } from '../helpers/index.js';

interface Collected {
  tracks: Track[][];
  units: { track: number; unit: AccessUnit }[];
  failed: string[];
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function pool() {
  const base = await freePort();
  return new RtpPortPool(() => ({ min: base, max: base + 20 }));
}

/** A PS source whose "INVITE" starts the device double towards the offer, as a device would after answering. */
async function play(
  transport: GbMediaTransport,
  opts: {
    ssrc?: number;
    deviceSsrc?: number;
    ackTimeoutMs?: number;
    sendNothing?: boolean;
    log?: string[];
    sender?: Partial<GbMediaSenderOptions>;
    acceptOtherSsrc?: boolean;
  } = {},
) {
  const p = await pool();
  const got: Collected = { tracks: [], units: [], failed: [] };
  let sender: GbMediaSender | undefined;
  let byes = 0;
  const source = new GbPsSource({
    openReceiver: async () => ({
      receiver: await RtpReceiver.open({
        transport,
        pool: p,
        bindHost: '127.0.0.1',
        announcedIp: '10.1.2.3',
        firstPacketTimeoutMs: opts.ackTimeoutMs ?? 10_000,
        acceptOtherSsrc: opts.acceptOtherSsrc,
        log: { info: (o, m) => opts.log?.push(`${m} ${JSON.stringify(o)}`), warn: () => undefined },
      }),
      announcedIp: '10.1.2.3',
    }),
    invite: async (offer): Promise<GbPlaySession> => {
      const ssrc = opts.deviceSsrc ?? opts.ssrc ?? 0x0100000001;
      if (!opts.sendNothing) {
        sender = await startGbMediaSender({
          ...(offer.transport === 'udp'
            ? { transport: 'udp', port: offer.port, ssrc }
            : offer.transport === 'tcp-passive'
              ? { transport: 'tcp', port: offer.port, ssrc }
              : { transport: 'tcp-listen', ssrc }),
          ...opts.sender,
        });
        cleanups.push(() => sender?.stop());
      }
      return { answer: { ssrc: opts.ssrc, ip: '127.0.0.1', port: sender?.port || 1 }, close: () => void byes++ };
    },
  });
  source.start({
    tracks: (t) => got.tracks.push(t),
    unit: (track, unit) => got.units.push({ track, unit }),
    failed: (reason) => got.failed.push(reason),
  });
  cleanups.push(() => source.stop());
  return { source, got, byes: () => byes, sender: () => sender };
}

function expectLiveH264(got: Collected, frames = 30) {
  expect(got.failed).toEqual([]);
  expect(got.tracks).toHaveLength(1);
  expect(got.tracks[0]).toMatchObject([{ kind: 'video', codec: 'h264', width: 320, height: 240 }]);
  const video = got.units.map((u) => u.unit).filter((u): u is VideoAccessUnit => u.kind === 'video');
  expect(video.length).toBeGreaterThanOrEqual(frames);
  expect(video[0].keyframe).toBe(true);
  // 25 fps: every picture 3600 ticks (90 kHz) after the one before.
  for (let i = 1; i < frames; i++) expect(video[i].dts - video[i - 1].dts).toBe(3600);
  expect(video.some((v) => v.damaged)).toBe(false);
}

describe('GB28181 PS over RTP into the hub', () => {
  for (const transport of ['udp', 'tcp-passive', 'tcp-active'] as const) {
    it(`${transport}: H.264 at 25 fps from the device double`, async () => {
      const { got, source } = await play(transport, { ssrc: 0x0100000001 });
      await until(() => got.units.length >= 30 || got.failed.length > 0);
      expectLiveH264(got);
      expect(source.stats.rtp).toMatchObject({ ssrc: 0x0100000001 >>> 0, lost: 0 });
      expect(source.stats.rtp!.packets).toBeGreaterThan(30);
      expect(source.stats.ps.badHeaders).toBe(0);
    });
  }

  it('a device sending another SSRC than agreed is followed, and that is logged', async () => {
    const log: string[] = [];
    const { got, source } = await play('udp', { ssrc: 0x11111111, deviceSsrc: 0x22222222, log });
    await until(() => got.units.length >= 30 || got.failed.length > 0);
    expectLiveH264(got);
    expect(source.stats.rtp!.ssrc).toBe(0x22222222);
    expect(log.join('\n')).toMatch(/another SSRC.*0x11111111.*0x22222222/);
  });

  it('H.265 (stream_type 0x24): an h265 track at 25 fps', async () => {
    const { got } = await play('udp', { sender: { codec: 'h265' } });
    await until(() => got.units.length >= 30 || got.failed.length > 0);
    expect(got.failed).toEqual([]);
    expect(got.tracks[0]).toMatchObject([{ kind: 'video', codec: 'h265', width: 320, height: 240 }]);
    const video = got.units.map((u) => u.unit).filter((u): u is VideoAccessUnit => u.kind === 'video');
    expect(video[0].keyframe).toBe(true);
    for (let i = 1; i < 30; i++) expect(video[i].dts - video[i - 1].dts).toBe(3600);
  });

  it('a device with no PSM and a pack header only before keyframes: the codec comes from the stream', async () => {
    const { got } = await play('tcp-passive', { sender: { streamMap: false, packPerFrame: false, audio: true } });
    await until(() => got.units.filter((u) => u.track === 0).length >= 25 || got.failed.length > 0);
    expect(got.failed).toEqual([]);
    // Without a PSM, audio is taken as G.711 A-law (GB28181's default).
    expect(got.tracks[0]).toMatchObject([
      { kind: 'video', codec: 'h264', width: 320, height: 240 },
      { kind: 'audio', codec: 'pcma' },
    ]);
    const video = got.units.map((u) => u.unit).filter((u): u is VideoAccessUnit => u.kind === 'video');
    for (let i = 1; i < 25; i++) expect(video[i].dts - video[i - 1].dts).toBe(3600);
  });

  it('with G.711 A-law audio: a video and a pcma track, audio every 20 ms on its 8 kHz clock', async () => {
    const { got } = await play('udp', { sender: { audio: true } });
    await until(() => got.units.length >= 60 || got.failed.length > 0);
    expect(got.failed).toEqual([]);
    expect(got.tracks[0]).toMatchObject([
      { kind: 'video', codec: 'h264' },
      { kind: 'audio', codec: 'pcma', clockRate: 8000 },
    ]);
    const audio = got.units.filter((u) => u.track === 1).map((u) => u.unit.pts);
    expect(audio.length).toBeGreaterThan(10);
    for (let i = 1; i < audio.length; i++) expect(audio[i] - audio[i - 1]).toBe(160);
  });

  it('UDP reordering is undone by the jitter buffer; lost packets are counted and their pictures marked damaged', async () => {
    const swapped = await play('udp', { sender: { swapEvery: 7 } });
    await until(() => swapped.got.units.length >= 30 || swapped.got.failed.length > 0);
    expectLiveH264(swapped.got);
    expect(swapped.source.stats.rtp!.lost).toBe(0);
    swapped.source.stop();
    const lossy = await play('udp', { sender: { dropEvery: 50 } });
    await until(() => lossy.got.units.length >= 60 || lossy.got.failed.length > 0);
    expect(lossy.got.failed).toEqual([]);
    expect(lossy.source.stats.rtp!.lost).toBeGreaterThan(0);
    const video = lossy.got.units.map((u) => u.unit).filter((u): u is VideoAccessUnit => u.kind === 'video');
    expect(video.some((v) => v.damaged)).toBe(true);
  });

  it('stop sends the BYE (closes the session) and frees the port', async () => {
    const { got, source, byes } = await play('udp');
    await until(() => got.units.length > 5);
    const port = source.stats.rtp ? (source as unknown as { receiver: RtpReceiver }).receiver.port : 0;
    source.stop();
    await new Promise((r) => setTimeout(r, 20));
    expect(byes()).toBe(1);
    const s = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.bind(port, '127.0.0.1', () => resolve());
    });
    s.close();
  });
});

describe('when no RTP comes', () => {
  it('UDP: the failure names the port, the media IP announced and what to check', async () => {
    const { got } = await play('udp', { ackTimeoutMs: 600, sendNothing: true });
    await until(() => got.failed.length > 0, 5000);
    expect(got.failed[0]).toMatch(
      /^no RTP received on UDP port \d+ within 1 s: check the media IP announced \(10\.1\.2\.3\) and that the port is reachable from the device$/,
    );
  });

  it('TCP passive: the device never connected', async () => {
    const { got } = await play('tcp-passive', { ackTimeoutMs: 600, sendNothing: true });
    await until(() => got.failed.length > 0, 5000);
    expect(got.failed[0]).toMatch(
      /the device did not connect to TCP port \d+ within 1 s: check the media IP announced \(10\.1\.2\.3\)/,
    );
  });

  it('TCP active: the device refuses the connection', async () => {
    const { got } = await play('tcp-active', { ackTimeoutMs: 600, sendNothing: true });
    await until(() => got.failed.length > 0, 5000);
    expect(got.failed[0]).toMatch(
      /TCP active: connection to the device's media address 127\.0\.0\.1:1 failed \(ECONNREFUSED\)/,
    );
  });
});

describe('strict SSRC', () => {
  it('with acceptOtherSsrc false, a device sending only another SSRC fails with both SSRCs named', async () => {
    const { got } = await play('udp', {
      ssrc: 0x11111111,
      deviceSsrc: 0x22222222,
      acceptOtherSsrc: false,
      ackTimeoutMs: 800,
    });
    await until(() => got.failed.length > 0, 5000);
    expect(got.units).toEqual([]);
    expect(got.failed[0]).toMatch(
      /^RTP arrived on UDP port \d+ but only with SSRC 0x22222222 while 0x11111111 was expected \(\d+ packets dropped\)$/,
    );
  });
});

describe('garbage on the port', () => {
  it('random datagrams, truncated RTP and RTP holding random bytes do not crash the receiver; the real stream still plays', async () => {
    const p = await pool();
    const receiver = await RtpReceiver.open({
      transport: 'udp',
      pool: p,
      bindHost: '127.0.0.1',
      announcedIp: '127.0.0.1',
      firstPacketTimeoutMs: 10_000,
    });
    const garbage = dgram.createSocket('udp4');
    cleanups.push(() => garbage.close());
    const got: Collected = { tracks: [], units: [], failed: [] };
    let sender: GbMediaSender | undefined;
    const source = new GbPsSource({
      openReceiver: async () => ({ receiver, announcedIp: '127.0.0.1' }),
      invite: async (offer) => {
        // Garbage first: random bytes, a bare RTP header, RTP with random payload on the agreed SSRC.
        // A datagram that parses as RTP with a stray SSRC comes first: the agreed SSRC must still win.
        garbage.send(
          serializeRtp({
            marker: false,
            payloadType: 96,
            sequenceNumber: 1,
            timestamp: 0,
            ssrc: 0x99,
            csrc: [],
            padding: 0,
            payload: new Uint8Array(100),
          }),
          offer.port,
          '127.0.0.1',
        );
        for (let i = 0; i < 200; i++) {
          const junk = new Uint8Array(1 + Math.floor(Math.random() * 1400)).map(() => Math.floor(Math.random() * 256));
          garbage.send(junk, offer.port, '127.0.0.1');
          garbage.send(junk.subarray(0, 11), offer.port, '127.0.0.1');
          garbage.send(
            serializeRtp({
              marker: i % 3 === 0,
              payloadType: 96,
              sequenceNumber: 60000 + i,
              timestamp: i * 3600,
              ssrc: 0x42,
              csrc: [],
              padding: 0,
              payload: junk,
            }),
            offer.port,
            '127.0.0.1',
          );
        }
        await new Promise((r) => setTimeout(r, 100));
        sender = await startGbMediaSender({ transport: 'udp', port: offer.port, ssrc: 0x42 });
        cleanups.push(() => sender?.stop());
        return { answer: { ssrc: 0x42 }, close: () => undefined };
      },
    });
    source.start({
      tracks: (t) => got.tracks.push(t),
      unit: (track, unit) => got.units.push({ track, unit }),
      failed: (r) => got.failed.push(r),
    });
    cleanups.push(() => source.stop());
    await until(() => got.units.length >= 60 || got.failed.length > 0);
    expect(got.failed).toEqual([]);
    expect(receiver.stats.badPackets).toBeGreaterThan(0);
    expect(got.tracks.at(-1)).toMatchObject([{ kind: 'video', codec: 'h264', width: 320, height: 240 }]);
    // Once the clip's stream is on, its pictures come at 25 fps.
    const video = got.units.map((u) => u.unit).filter((u): u is VideoAccessUnit => u.kind === 'video');
    const tail = video.slice(-20);
    for (let i = 1; i < tail.length; i++) expect(tail[i].dts - tail[i - 1].dts).toBe(3600);
  });
});
