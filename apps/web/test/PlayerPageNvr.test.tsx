/**
 * /video/player for a channel of an NVR of 500 channels: the page reads the cameras matching the
 * channel's ID for its name, state and PTZ, not every channel of the device (350 KB for one name).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import PlayerPage from '../src/features/live/pages/PlayerPage';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => undefined }));

const NVR = Array.from({ length: 500 }, (_, i) => ({ ChannelID: String(i + 1), ParentDeviceID: '1801', Name: `NVR ch ${i + 1}`, Online: 1, Enable: 1, DeviceType: 'RTSP' }));

afterEach(() => vi.unstubAllGlobals());

describe('PlayerPage: a channel of an NVR of 500', () => {
  it('reads the matching cameras, not the whole device', async () => {
    clearSession();
    captureNotices();
    const api = stubApi({
      '/api/v1/getchannels': () => v1({ Channels: NVR, ChannelCount: NVR.length }),
      '/api/v1/devices/1801/channels': (c) => {
        const q = c.query.get('q') ?? '';
        const hits = NVR.filter((x) => x.ChannelID.includes(q) || x.Name.includes(q));
        const start = Number(c.query.get('start'));
        return v1({ Channels: hits.slice(start, start + Number(c.query.get('limit'))), ChannelCount: hits.length });
      },
      '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_1801_250', State: 'connecting', Reason: '' }),
    });
    renderConsole(
      <Routes>
        <Route path="/video/player/:devid/:chnid/:flow" element={<PlayerPage />} />
      </Routes>,
      { path: '/video/player/1801/250/0' },
    );
    expect(await screen.findByRole('heading', { name: 'NVR ch 250' })).toBeInTheDocument();
    expect(api.callsTo('/api/v1/getchannels')).toHaveLength(0);
    const call = api.callsTo('/api/v1/devices/1801/channels')[0];
    expect(call.query.get('q')).toBe('250');
    expect(Number(call.query.get('limit'))).toBeLessThanOrEqual(50);
  });
});
