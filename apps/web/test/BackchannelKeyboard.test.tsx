/**
 * /video/backchannel from the keyboard: the day's recordings listed beside the calendar are buttons
 * (they were plain rows with a click handler: Tab went from the calendar straight to the player, so a
 * keyboard could not start a range after a gap), and one plays from its start.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import BackchannelPage from '../src/features/playback/pages/BackchannelPage';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

const DAY = '20261127';
adminSessionPerTest();

describe('/video/backchannel keyboard', { timeout: 30_000 }, () => {
  it("the day's ranges are buttons that play from their start", async () => {
    const api = stubApi({
      '/api/v1/devices/5/channels': () => v1({ Channels: [{ ChannelID: '1', ParentDeviceID: '5', DeviceName: 'Gate recorder', Name: 'Gate camera' }], ChannelCount: 1 }),
      '/api/v1/record/querymonthly': () => '0'.repeat(26) + '1000',
      '/api/v1/record/querydaily': () => ({
        total: 2,
        list: [
          { name: 'a', startAt: `${DAY}070000`, endAt: `${DAY}080000`, duration: 3600, important: 0, recording: 0, ids: [1] },
          { name: 'b', startAt: `${DAY}091500`, endAt: `${DAY}093000`, duration: 900, important: 1, recording: 0, ids: [2] },
        ],
      }),
      // devices/record/playback has no stub: refused (404), the page opens no socket (jsdom has no MediaSource).
    });
    renderConsole(
      <Routes>
        <Route path="/video/backchannel/:devid/:chnid/:day" element={<BackchannelPage />} />
      </Routes>,
      { path: `/video/backchannel/5/1/${DAY}` },
    );
    // The list first (a cheap query), then the role query once: findByRole re-ran the accessible-name
    // walk of the whole page (the calendar's 42 days among it) at each poll and missed its second
    // under a loaded machine.
    await screen.findAllByTestId('day-range');
    const second = screen.getByRole('button', { name: /09:15:00 – 09:30:00/ });
    expect(screen.getAllByTestId('day-range').map((b) => b.tagName)).toEqual(['BUTTON', 'BUTTON']);
    second.focus();
    expect(document.activeElement).toBe(second);
    fireEvent.click(second);
    await waitFor(() => expect(api.callsTo('/api/v1/devices/record/playback')).toHaveLength(1));
    expect(api.callsTo('/api/v1/devices/record/playback')[0].query.get('stime')).toBe(`${DAY}091500`);
  });
});
