/**
 * A GB28181 channel played live through the whole server: the app's GB media source (ctx.gbMedia,
 * registered in the StreamService as the RTSP one is), an INVITE stand-in that starts the device double towards the
 * offered port, and a real WebSocket fMP4 viewer whose fragments ffprobe decodes. RTSP channels are
 * untouched by the GB factory.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GbInviteRequest, GbMediaService } from '../../src/gb/media/index.js';
import { collectWs, until } from '../helpers/index.js';
import { freePort } from '../fixtures/camera.js';
import { startGbMediaSender, type GbMediaSender } from '../fixtures/gb-media-sender.js';
import { useAdminApp } from '../api/admin-app.js';

const DEVICE = '34020000001320000001';
const CHANNEL = '34020000001310000001';

let media: GbMediaService;
const senders: GbMediaSender[] = [];
const invites: GbInviteRequest[] = [];
let byes = 0;

// Registered before useAdminApp(): the senders stop after the app has closed.
afterEach(async () => {
  for (const s of senders.splice(0)) await s.stop();
  invites.length = 0;
  byes = 0;
});
/** The platform under test (a fresh one per test) and its admin token. */
const server = useAdminApp({ listen: true, overrides: { sipPort: 0 } });
beforeEach(async () => {
  const base = await freePort();
  await server.t.ctx.config.set('gb', { RtpPortMin: base, RtpPortMax: base + 20, MediaIP: '127.0.0.1', AckTimeout: 5 });
  // The app's own GB media service, registered in the StreamService as the RTSP source is.
  media = server.t.ctx.gbMedia;
  // The device double's answer to INVITE: media to the offered address, SSRC as agreed.
  media.setInviter({
    async invite(req) {
      invites.push(req);
      const { offer } = req;
      const sender = await startGbMediaSender(
        offer.transport === 'udp'
          ? { transport: 'udp', host: offer.ip, port: offer.port, ssrc: 0x0340000001 }
          : offer.transport === 'tcp-passive'
            ? { transport: 'tcp', host: offer.ip, port: offer.port, ssrc: 0x0340000001 }
            : { transport: 'tcp-listen', ssrc: 0x0340000001 },
      );
      senders.push(sender);
      return { answer: { ssrc: 0x0340000001, ip: '127.0.0.1', port: sender.port }, close: () => void byes++ };
    },
  });
  const res = await server.t.app.inject({
    method: 'POST',
    url: '/api/v1/adddevice',
    headers: { token: server.admin },
    payload: { DeviceName: 'GB camera', DeviceType: 'GB28181', DeviceID: DEVICE },
  });
  expect(res.statusCode, res.body).toBe(200);
  const now = new Date().toISOString();
  await server.t.ctx.db
    .insertInto('channels')
    .values({
      channel_id: CHANNEL,
      parent_device_id: DEVICE,
      name: 'GB channel',
      online: 1,
      enable: 1,
      on_demand: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
});

async function playOver(transport: 'UDP' | 'TCP', mode: 'passive' | 'active') {
  await server.t.ctx.config.set('gb', { MediaTransport: transport, MediaTransportMode: mode });
  const res = await server.t.app.inject({
    url: `/api/v1/devices/channelstream?device=${DEVICE}&channel=${CHANNEL}&protocol=ws_m4s`,
    headers: { token: server.admin },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json().EasyDarwin.Body;
  // One fragment per frame (the cached GOP as the first): 16 fragments hold at least 16 frames.
  const got = await collectWs(`${server.t.baseUrl!.replace('http', 'ws')}${body.URL}`, (b) => b.length >= 16);
  expect(got.text.find((m) => m.type === 'init')).toMatchObject({
    mime: expect.stringMatching(/^video\/mp4; codecs="avc1\./),
  });
  expect(got.binary.length).toBeGreaterThanOrEqual(16);
  const file = path.join(server.t.settings.dataDir, `gb-${transport}-${mode}.mp4`);
  fs.writeFileSync(file, Buffer.concat(got.binary));
  const probe = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-count_frames', '-of', 'json', file], {
      encoding: 'utf8',
    }),
  );
  expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240, r_frame_rate: '25/1' });
  expect(Number(probe.streams[0].nb_read_frames)).toBeGreaterThan(10);
  expect(invites).toHaveLength(1);
  expect(invites[0]).toMatchObject({
    device: { device_id: DEVICE },
    channel: { channel_id: CHANNEL },
    flow: 0,
    offer: { ip: '127.0.0.1' },
  });
  return body.Stream as string;
}

describe('GB28181 live through the hub to a WebSocket fMP4 viewer', () => {
  it('UDP: plays; stopping the stream sends the BYE', async () => {
    const key = await playOver('UDP', 'passive');
    expect(invites[0].offer.transport).toBe('udp');
    expect(byes).toBe(0);
    const stop = await server.t.app.inject({
      url: `/api/v1/stopstream?device=${DEVICE}&channel=${CHANNEL}`,
      headers: { token: server.admin },
    });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(server.t.ctx.streams.get(key)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));
    expect(byes).toBe(1);
  });

  it('TCP passive: plays', async () => {
    await playOver('TCP', 'passive');
    expect(invites[0].offer.transport).toBe('tcp-passive');
  });

  it('TCP active: plays', async () => {
    await playOver('TCP', 'active');
    expect(invites[0].offer).toMatchObject({ transport: 'tcp-active', port: 9 });
  });

  it('a device whose media never comes: the stream status gives the clear reason', async () => {
    await server.t.ctx.config.set('gb', { AckTimeout: 1, MediaIP: '192.0.2.7' });
    media.setInviter({ invite: async () => ({ answer: { ssrc: 1 }, close: () => undefined }) });
    const res = await server.t.app.inject({
      url: `/api/v1/devices/channelstream?device=${DEVICE}&channel=${CHANNEL}`,
      headers: { token: server.admin },
    });
    const hub = server.t.ctx.streams.get(res.json().EasyDarwin.Body.Stream)!;
    await until(() => hub.state === 'retrying', 8000);
    expect(hub.reason).toMatch(
      /^no RTP received on UDP port \d+ within 1 s: check the media IP announced \(192\.0\.2\.7\) and that the port is reachable from the device$/,
    );
  });
});
