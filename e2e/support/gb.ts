/**
 * The server's GB28181 settings as a spec with a device double needs them: its SIP port and device
 * password, with the media sent to this machine over UDP (the double takes RTP on 127.0.0.1).
 * restore() puts back the media settings the spec found, for the files after it.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { v1, type Session } from './api';

export interface GbForDouble {
  ListenPort: number;
  DevicePassword: string;
  /** MediaIP, MediaTransport and MediaTransportMode back as they were (the afterAll's request context). */
  restore(api: APIRequestContext): Promise<void>;
}

export async function gbMediaOnThisMachine(api: APIRequestContext, admin: Session): Promise<GbForDouble> {
  const headers = { token: admin.Token };
  const cfg = await v1<{ ListenPort: number; DevicePassword: string; MediaIP: string; MediaTransport: string; MediaTransportMode: string }>(
    await api.get('/api/v1/getbaseconfig', { headers }),
  );
  expect(cfg.ListenPort, 'the e2e server listens for SIP').toBeGreaterThan(0);
  const original = { MediaIP: cfg.MediaIP, MediaTransport: cfg.MediaTransport, MediaTransportMode: cfg.MediaTransportMode };
  await v1(await api.post('/api/v1/setbaseconfig', { headers, form: { MediaIP: '127.0.0.1', MediaTransport: 'UDP' } }));
  return {
    ListenPort: cfg.ListenPort,
    DevicePassword: cfg.DevicePassword,
    restore: async (other) => {
      await other.post('/api/v1/setbaseconfig', { headers, form: original });
    },
  };
}
