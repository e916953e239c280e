/**
 * /video/backchannel: the star marks what is selected (or the segment under the playhead) important,
 * by time on the server, not every segment of the continuous run around it (hours that retention
 * would then never free).
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BackchannelPage from '../src/features/playback/pages/BackchannelPage';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

const DAY = '20261127';
const admin = adminSessionPerTest();

describe('/video/backchannel important mark', { timeout: 30_000 }, () => {
  it('marks the selected seconds, not the whole three-hour run', async () => {
    const api = stubApi({
      '/api/v1/devices/5/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'Gate recorder', Name: 'Gate camera' }], ChannelCount: 1 }),
      '/api/v1/record/querymonthly': () => '0'.repeat(26) + '1000',
      '/api/v1/record/querydaily': () => ({
        total: 1,
        list: [{ name: 'a', startAt: `${DAY}070000`, endAt: `${DAY}100000`, duration: 10800, important: 0, recording: 0, ids: Array.from({ length: 36 }, (_, i) => i + 1) }],
      }),
      'POST /api/v1/record/setimportant': () => v1({ Count: 1, Important: 1 }),
    });
    renderConsole(
      <Routes>
        <Route path="/video/backchannel/:devid/:chnid/:day" element={<BackchannelPage />} />
      </Routes>,
      { path: `/video/backchannel/5/1/${DAY}` },
    );
    const star = await screen.findByRole('button', { name: '标记为重要' });
    // nothing selected, nothing playing: nothing to mark
    expect(star).toBeDisabled();
    fireEvent.change(await screen.findByTestId('download-from'), { target: { value: '08:30:00' } });
    fireEvent.change(screen.getByTestId('download-to'), { target: { value: '08:30:10' } });
    await waitFor(() => expect(star).toBeEnabled());
    fireEvent.click(star);
    await waitFor(() => expect(api.callsTo('/api/v1/record/setimportant', 'POST')).toHaveLength(1));
    const body = api.callsTo('/api/v1/record/setimportant', 'POST')[0].body;
    expect(body).toEqual({ device: '5', channel: '1', starttime: `${DAY}083000`, endtime: `${DAY}083010`, important: '1' });
    await waitFor(() => expect(admin.notices.some((n) => n.startsWith('success'))).toBe(true));
  });
});
