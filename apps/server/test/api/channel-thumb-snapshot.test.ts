/**
 * A card's picture for a channel nobody plays: with no stream running there is no keyframe to
 * decode, but a channel with a SnapUrl (the camera's own snapshot address) gets its thumbnail from
 * the camera's JPEG, scaled to a card's size, without any stream opened; once made it is not asked
 * again before the refresh time. Against a real HTTP endpoint behind Digest (fixtures/snapshot-camera.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../helpers/index.js';
import { startSnapshotCamera, type SnapshotCamera } from '../fixtures/snapshot-camera.js';
import { useAdminApp } from './admin-app.js';

let cam: SnapshotCamera;
beforeEach(async () => {
  cam = await startSnapshotCamera({ username: 'admin', password: 'secret' });
});
afterEach(async () => {
  await cam.close();
});
const api = useAdminApp();
beforeEach(() => {
  Object.assign(api.t.ctx.thumbnails.opts, { gapMs: 20, width: 160 });
});

/** Width and height from a JPEG's SOF marker. */
function jpegSize(b: Buffer) {
  for (let i = 2; i + 9 < b.length; i += 2 + b.readUInt16BE(i + 2)) {
    if (b[i + 1] >= 0xc0 && b[i + 1] <= 0xc3) return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
  }
  return undefined;
}

async function addChannel(SnapUrl: string, DeviceName = 'NVR') {
  const dev = await api.post('/api/v1/adddevice', { DeviceName, DeviceType: 'RTSP' });
  expect(dev.statusCode, dev.body).toBe(200);
  const device = dev.json().EasyDarwin.Body.DeviceID as string;
  // Port 9 on loopback: no stream could be opened even if something tried.
  const ch = await api.post('/api/v1/addchannel', { ParentDeviceID: device, Name: 'Lobby', RtspUrl: 'rtsp://127.0.0.1:9/none', SnapUrl, Username: 'admin', Password: 'secret' });
  expect(ch.statusCode, ch.body).toBe(200);
  return device;
}

const thumb = (device: string) => api.get(`/api/v1/devices/channelthumb?device=${device}&channel=1`);
const running = () => api.t.ctx.streams.hubs.list().filter((h) => h.state !== 'stopped').length;

describe('channelthumb from the camera snapshot (SnapUrl)', () => {
  it('no stream running: the first ask puts it in line, the camera JPEG scaled becomes the picture, no stream opened', async () => {
    const device = await addChannel(`${cam.base}/picture`);
    expect((await thumb(device)).statusCode).toBe(204);
    await until(async () => (await thumb(device)).statusCode === 200, 10_000, { what: 'the thumbnail from the camera snapshot' });
    const res = await thumb(device);
    expect(res.headers['content-type']).toBe('image/jpeg');
    // 1280x720 from the camera, card-sized here.
    expect(jpegSize(res.rawPayload)).toEqual({ width: 160, height: 90 });
    expect(running()).toBe(0);
    // Fresh: more asks do not go to the camera again before the refresh time.
    for (let i = 0; i < 3; i++) await thumb(device);
    await new Promise((r) => setTimeout(r, 200));
    expect(cam.served).toBe(1);
  });

  it('a snapshot address that fails (a web page) leaves the placeholder (204) and is not asked again at once; not http(s): never asked', async () => {
    const device = await addChannel(`${cam.base}/text`);
    expect((await thumb(device)).statusCode).toBe(204);
    await until(() => api.t.ctx.thumbnails.stats.failed === 1, 10_000, { what: 'the failed try' });
    for (let i = 0; i < 3; i++) expect((await thumb(device)).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 200));
    expect(api.t.ctx.thumbnails.stats).toMatchObject({ failed: 1, made: 0 });

    const other = await addChannel('ftp://127.0.0.1/picture.jpg', 'Other NVR');
    expect((await thumb(other)).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 200));
    expect(api.t.ctx.thumbnails.stats).toMatchObject({ failed: 1, made: 0 });
  });
});
