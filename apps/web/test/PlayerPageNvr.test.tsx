/**
 * /video/player for a channel of an NVR of 500 channels: the page reads that one camera by its exact
 * ID for its name, state and PTZ, not every channel of the device (350 KB for one name).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import PlayerPage from '../src/features/live/pages/PlayerPage';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { channelsPage } from './helpers/lists';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => undefined }));

const NVR = Array.from({ length: 500 }, (_, i) => ({ ChannelID: String(i + 1), ParentDeviceID: '1801', Name: `NVR ch ${i + 1}`, Online: 1, Enable: 1, DeviceType: 'RTSP' }));

afterEach(() => vi.unstubAllGlobals());

describe('PlayerPage: a channel of an NVR of 500', () => {
  // Channel 5: a search by its ID matches 5, 15, 25, 50–59, 105…, more than a page, and the page
  // then read every channel of the device (getchannels limit 9999) to find it.
  it.each(['250', '5'])('reads channel %s alone, not the whole device', async (chn) => {
    clearSession();
    captureNotices();
    const api = stubApi({
      '/api/v1/getchannels': () => v1({ Channels: NVR, ChannelCount: NVR.length }),
      '/api/v1/devices/1801/channels': (c) => {
        const q = c.query.get('q') ?? '';
        const one = c.query.get('channel');
        const hits = NVR.filter((x) => (one ? x.ChannelID === one : x.ChannelID.includes(q) || x.Name.includes(q)));
        return channelsPage(c, hits);
      },
      '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: `stream_1801_${chn}`, State: 'connecting', Reason: '' }),
    });
    renderConsole(
      <Routes>
        <Route path="/video/player/:devid/:chnid/:flow" element={<PlayerPage />} />
      </Routes>,
      { path: `/video/player/1801/${chn}/0` },
    );
    expect(await screen.findByRole('heading', { name: `NVR ch ${chn}` })).toBeInTheDocument();
    expect(api.callsTo('/api/v1/getchannels')).toHaveLength(0);
    for (const call of api.callsTo('/api/v1/devices/1801/channels')) {
      expect(call.query.get('channel')).toBe(chn);
      expect(call.query.get('limit')).toBe('1');
    }
  });
});
