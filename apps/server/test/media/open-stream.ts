/**
 * The first step of the live output tests: the test camera added as an RTSP device and its channel
 * opened over one protocol, as the console's player asks for it.
 */
import { expect } from 'vitest';
import type { AdminApp } from '../api/admin-app.js';

/** Adds the camera at `cameraUrl` and opens channel 1 over `protocol`; the device ID and the answer's URL, Stream and URLs. */
export async function openCameraStream(api: AdminApp, cameraUrl: string, protocol: string) {
  const add = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cameraUrl });
  const dev = add.json().EasyDarwin.Body.DeviceID as string;
  const res = await api.get(`/api/v1/devices/channelstream?device=${dev}&channel=1&protocol=${protocol}`);
  expect(res.statusCode, res.body).toBe(200);
  return { dev, ...(res.json().EasyDarwin.Body as { URL: string; Stream: string; URLs: Record<string, string> }) };
}
