/**
 * /video/backchannel/5/1/DAY of a one-channel NVR, with the server's answers stubbed: the channel
 * (`name`), a month without flagged days and the day's `list` of recordings (none by default).
 */
import { Route, Routes } from 'react-router-dom';
import BackchannelPage from '../../src/features/playback/pages/BackchannelPage';
import { renderConsole, stubApi, v1 } from './console';

export function openBackchannel({ name = 'Gate', day = '20261127', list = [] }: { name?: string; day?: string; list?: unknown[] } = {}) {
  stubApi({
    '/api/v1/devices/5/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'NVR', Name: name }], ChannelCount: 1 }),
    '/api/v1/record/querymonthly': () => '0'.repeat(30),
    '/api/v1/record/querydaily': () => ({ total: list.length, list }),
  });
  renderBackchannel(day);
}

/** The same page with whatever answers the test stubbed itself. */
export function renderBackchannel(day = '20261127') {
  renderConsole(
    <Routes>
      <Route path="/video/backchannel/:devid/:chnid/:day" element={<BackchannelPage />} />
    </Routes>,
    { path: `/video/backchannel/5/1/${day}` },
  );
}
