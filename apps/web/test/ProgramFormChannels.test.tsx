/**
 * /config/program/form, the plan's channels: a plan only times the channels whose own recording
 * switch (EnableRecord) is on, so a channel with it off is flagged, with what to do, instead of the
 * plan silently recording nothing for it; saving turns their switches on unless unticked. A plan of every camera of a site (1,500 here) opens at
 * once: the channels are a paged table, and their switches come with the plan (no request per
 * device: a tag per channel and a channelsconfig call per device froze this page).
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { WEEKDAYS } from '@opencvr/shared';
import ProgramFormPage from '../src/features/recording/pages/ProgramFormPage';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

adminSessionPerTest();

const planOf = (Channels: object[]) => ({
  ID: 3,
  Name: 'Nights',
  Schedule: { Friday: [{ StartTime: '00:00:00', EndTime: '24:00:00' }] },
  Days: {},
  SaveDays: 30,
  Enable: 1,
  Channels,
});

describe('/config/program/form channels', { timeout: 60_000 }, () => {
  it('flags the channels whose recording is off', async () => {
    const api = stubApi({
      '/api/v1/recordplaninfo': () =>
        v1(
          planOf([
            { id: '5:1', DeviceID: '5', ChannelID: '1', Name: 'Gate', DeviceName: 'NVR', EnableRecord: 0 },
            { id: '5:2', DeviceID: '5', ChannelID: '2', Name: 'Yard', DeviceName: 'NVR', EnableRecord: 1 },
          ]),
        ),
      '/api/v1/checkpush': () => v1({ Days: Object.fromEntries(WEEKDAYS.map((d) => [d, []])) }),
      '/api/v1/setrecordplan': () => v1({ ID: 3 }),
    });
    renderConsole(<ProgramFormPage />, { path: '/config/program/form?id=3' });
    const box = await screen.findByTestId('plan-channels');
    await waitFor(() => expect(within(box).getByRole('row', { name: /Gate/ })).toHaveTextContent('未开启录像'));
    expect(within(box).getByRole('row', { name: /Yard/ })).toHaveTextContent('已开启录像');
    expect(within(box).getByTestId('plan-channel-count')).toHaveTextContent('已选 2 个通道 · 其中 1 个未开启录像');
    expect(api.callsTo('/api/v1/channelsconfig')).toHaveLength(0);

    // Saving turns the switch on, unless unticked (then the page says what that means).
    const turnOn = screen.getByRole('checkbox', { name: '保存时开启这 1 个通道的录像开关' });
    expect(turnOn).toBeChecked();
    expect(screen.queryByText(/不会按计划录像/)).toBeNull();
    fireEvent.click(turnOn);
    expect(screen.getByText(/不会按计划录像/)).toBeInTheDocument();
    fireEvent.click(turnOn);
    fireEvent.click(screen.getByTestId('plan-save'));
    await waitFor(() => expect(api.callsTo('/api/v1/setrecordplan')).toHaveLength(1));
    expect(api.callsTo('/api/v1/setrecordplan')[0]!.body).toMatchObject({ id: '3', enable_record: '1' });
  });

  it('opens a plan of 1,500 channels a page at a time, filters it and removes what is filtered', async () => {
    const channels = Array.from({ length: 1500 }, (_, i) => ({ id: `${i + 1}:1`, DeviceID: String(i + 1), ChannelID: '1', Name: `Cam ${String(i).padStart(4, '0')}`, DeviceName: `Cam ${i}`, EnableRecord: 1 }));
    const api = stubApi({ '/api/v1/recordplaninfo': () => v1(planOf(channels)) });
    renderConsole(<ProgramFormPage />, { path: '/config/program/form?id=3' });
    const box = await screen.findByTestId('plan-channels');
    await waitFor(() => expect(within(box).getByTestId('plan-channel-count')).toHaveTextContent('已选 1500 个通道'));
    // One page of rows (and the header row), not 1,500.
    expect(within(box).getAllByRole('row')).toHaveLength(11);
    expect(api.callsTo('/api/v1/channelsconfig')).toHaveLength(0);

    fireEvent.change(within(box).getByPlaceholderText('筛选通道名称 / 设备 / ID'), { target: { value: 'Cam 014' } });
    await waitFor(() => expect(within(box).getAllByRole('row')).toHaveLength(11));
    expect(within(box).getByRole('row', { name: /Cam 0140/ })).toBeInTheDocument();
    fireEvent.click(within(box).getByRole('button', { name: '移除筛选出的通道' }));
    fireEvent.change(within(box).getByPlaceholderText('筛选通道名称 / 设备 / ID'), { target: { value: '' } });
    // "Cam 014" matched Cam 0140..0149 (names are zero-padded; device names are not).
    await waitFor(() => expect(within(box).getByTestId('plan-channel-count')).toHaveTextContent('已选 1490 个通道'));
    expect(within(box).queryByRole('row', { name: /Cam 0140/ })).toBeNull();

    fireEvent.click(within(box).getByRole('button', { name: '全部移除' }));
    await waitFor(() => expect(within(box).getByText('尚未选择通道')).toBeInTheDocument());
  });
});
