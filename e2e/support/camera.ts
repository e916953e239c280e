/**
 * The GStreamer RTSP camera of the server's tests (apps/server/test/fixtures), for the specs.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { startCamera, type Camera, type CameraOptions } from '../../apps/server/test/fixtures/camera';

/** The camera's script: a spec may skip when it is missing. */
export const CAMERA_FIXTURE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../apps/server/test/fixtures/rtsp-camera.py',
);
