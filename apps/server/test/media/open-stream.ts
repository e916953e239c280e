/**
 * The first steps of the live output tests: a camera or any pulled address added as an RTSP-type
 * device, and its channel opened over one protocol, as the console's player asks for it.
 */
import { expect } from 'vitest';
import type { AdminApp } from '../api/admin-app.js';

/** Adds a device pulling `url` (an rtsp://, rtmp://, http(s):// … address) with `extra` adddevice fields; its DeviceID. */
export async function addPulledDevice(api: AdminApp, name: string, url: string, extra: Record<string, string> = {}): Promise<string> {
  const add = await api.post('/api/v1/adddevice', { DeviceName: name, DeviceType: 'RTSP', RtspUrl: url, ...extra });
  expect(add.statusCode, add.body).toBe(200);
  return add.json().EasyDarwin.Body.DeviceID as string;
}

/** Opens channel 1 of `dev` over `protocol`: the answer's URL, Stream and URLs. */
export async function channelStream(api: AdminApp, dev: string, protocol: string) {
  const res = await api.get(`/api/v1/devices/channelstream?device=${dev}&channel=1&protocol=${protocol}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as { URL: string; Stream: string; URLs: Record<string, string> };
}

/** Opens channel 1 of `dev` over WS-fMP4: its hub (running now) and the viewer's ws:// URL (an app that listens). */
export async function playWsFmp4(api: AdminApp, dev: string) {
  const body = await channelStream(api, dev, 'ws_m4s');
  const base = api.t.baseUrl;
  return {
    hub: api.t.ctx.streams.get(body.Stream)!,
    get wsUrl() {
      if (!base) throw new Error('playWsFmp4: a viewer needs the app to listen (useAdminApp({ listen: true }))');
      return `${base.replace('http', 'ws')}${body.URL}`;
    },
  };
}

/** Adds the camera at `cameraUrl` and opens channel 1 over `protocol`; the device ID and the answer's URL, Stream and URLs. */
export async function openCameraStream(api: AdminApp, cameraUrl: string, protocol: string) {
  const dev = await addPulledDevice(api, 'Cam', cameraUrl);
  return { dev, ...(await channelStream(api, dev, protocol)) };
}
