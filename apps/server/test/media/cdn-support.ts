/**
 * What the CDN push tests start beside their app: the test camera added as an RTSP device, and the
 * RTMP servers a push reaches (the RTMP double, or ffmpeg listening as one, kept in `children`).
 * Call useCdnRig() before useAdminApp(): after-hooks run in reverse, so the camera stops after the
 * app has closed; call rig.stopServers() in an afterEach registered after useAdminApp(), so the
 * servers go before the app.
 */
import { afterEach } from 'vitest';
import { until } from '../helpers/index.js';
import { startCamera, type Camera, type CameraOptions } from '../fixtures/camera.js';
import { startRtmpServer, type RtmpServerDouble } from '../fixtures/rtmp-server.js';
import type { AdminApp } from '../api/admin-app.js';
import { RtmpType } from '../../src/access/rtmp/chunks.js';

export interface CdnRig {
  /** Starts a test camera and adds it as a device; its DeviceID. */
  addCamera(api: AdminApp, opts?: CameraOptions): Promise<string>;
  /** Starts the RTMP double, closed by stopServers(). */
  startDouble(opts: Parameters<typeof startRtmpServer>[0]): Promise<RtmpServerDouble>;
  /** Processes a test spawned as RTMP servers, killed by stopServers(). */
  children: { kill(): void }[];
  stopServers(): Promise<void>;
}

export function useCdnRig(): CdnRig {
  let cam: Camera | undefined;
  let double: RtmpServerDouble | undefined;
  const children: { kill(): void }[] = [];
  afterEach(async () => {
    await cam?.stop();
    cam = undefined;
  });
  return {
    async addCamera(api, opts = {}) {
      cam = await startCamera(opts);
      const add = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url });
      return add.json().EasyDarwin.Body.DeviceID as string;
    },
    async startDouble(opts) {
      double = await startRtmpServer(opts);
      return double;
    },
    children,
    async stopServers() {
      for (const c of children.splice(0)) c.kill();
      await double?.close();
      double = undefined;
    },
  };
}

/** The first `count` video messages the double received, waited for up to 20 s. */
export function videoMessages(double: RtmpServerDouble, count = 10) {
  return until(() => {
    const v = double.received.filter((m) => m.type === RtmpType.video);
    return v.length >= count && v;
  }, 20_000, { what: `${count} video messages` });
}
