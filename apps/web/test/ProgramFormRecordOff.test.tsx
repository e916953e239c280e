/**
 * /config/program/form: a plan only times the channels whose own recording switch (EnableRecord) is
 * on, so a picked channel with it off is flagged, with what to do, instead of the plan silently
 * recording nothing for it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import ProgramFormPage from '../src/features/recording/pages/ProgramFormPage';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

beforeEach(() => {
  captureNotices();
  loginAdmin();
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

const plan = {
  ID: 3,
  Name: 'Nights',
  Schedule: { Friday: [{ StartTime: '00:00:00', EndTime: '24:00:00' }] },
  Days: {},
  SaveDays: 30,
  Enable: 1,
  Channels: [
    { id: '5:1', DeviceID: '5', ChannelID: '1', Name: 'Gate' },
    { id: '5:2', DeviceID: '5', ChannelID: '2', Name: 'Yard' },
  ],
};

describe('/config/program/form', { timeout: 30_000 }, () => {
  it('flags the picked channels whose recording is off', async () => {
    stubApi({
      '/api/v1/recordplaninfo': () => v1(plan),
      '/api/v1/channelsconfig': () =>
        v1({
          Channels: [
            { ParentDeviceID: '5', ChannelID: '1', Name: 'Gate', EnableRecord: 0 },
            { ParentDeviceID: '5', ChannelID: '2', Name: 'Yard', EnableRecord: 1 },
          ],
          ChannelCount: 2,
        }),
    });
    renderConsole(<ProgramFormPage />, { path: '/config/program/form?id=3' });
    const box = await screen.findByTestId('plan-channels');
    await waitFor(() => expect(box).toHaveTextContent('Gate (5:1) · 未开启录像'));
    expect(box).toHaveTextContent(/Yard \(5:2\)(?! ·)/);
    expect(screen.getByText(/不会按计划录像/)).toBeInTheDocument();
  });
});
