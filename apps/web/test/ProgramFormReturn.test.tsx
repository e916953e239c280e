/**
 * Where the recording plan form returns: a new plan added on /config/recording landed, once saved,
 * on /config/program instead of the page the user started from. The spec names the form
 * (/config/program/form) but not where it returns, so it returns where it was opened from; opened
 * directly (no opener), it returns to the plans list. Out-of-range save days keep it open, said
 * with the range (session 26: a typed 0 was saved as 1 by the input's own minimum).
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { WEEKDAYS } from '@opencvr/shared';
import ProgramFormPage from '../src/features/recording/pages/ProgramFormPage';
import ProgramListPage from '../src/features/recording/pages/ProgramListPage';
import RecordingConfigPage from '../src/features/recording/pages/RecordingConfigPage';
import { planFormReturn } from '../src/features/recording/planFormLink';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';
import { Where } from './helpers/where';

adminSessionPerTest();

const plan = { ID: 7, Name: 'Nights', Schedule: { Monday: [{ StartTime: '00:00:00', EndTime: '01:00:00' }] }, Days: {}, SaveDays: 30, Enable: 1, ChannelCount: 0, Channels: [] };
const stubs = () =>
  stubApi({
    'GET /api/v1/recordpath': () => v1({ RecordPath: '/data/rec', Default: '/data/rec', SegmentSeconds: 300, MinFreeBytes: 0, DefaultSaveDays: 30, FreeBytes: 1 }),
    '/api/v1/recordplanlist': () => v1({ Plans: [plan], Total: 1 }),
    '/api/v1/recordplaninfo': () => v1(plan),
    '/api/v1/checkpush': () => v1({ Days: Object.fromEntries(WEEKDAYS.map((d) => [d, []])) }),
    '/api/v1/setrecordplan': () => v1({ ID: 8 }),
  });

const app = () => (
  <>
    <Where />
    <Routes>
      <Route path="/config/recording" element={<RecordingConfigPage />} />
      <Route path="/config/program" element={<ProgramListPage />} />
      <Route path="/config/program/form" element={<ProgramFormPage />} />
    </Routes>
  </>
);
const where = () => screen.getByTestId('where');

describe('the recording plan form returns where it was opened', { timeout: 30_000 }, () => {
  it('a new plan added on /config/recording returns there once saved', async () => {
    const api = stubs();
    renderConsole(app(), { path: '/config/recording' });
    fireEvent.click(await screen.findByTestId('recording-add-plan'));
    await waitFor(() => expect(where()).toHaveTextContent('/config/program/form'));
    fireEvent.change(screen.getByLabelText('计划名称'), { target: { value: 'Days' } });
    // jsdom is phone-wide: the schedule is the day list, Monday open; an hour is tapped.
    fireEvent.click(screen.getByTestId('hour-0-9'));
    fireEvent.click(screen.getByTestId('plan-save'));
    await waitFor(() => expect(api.callsTo('/api/v1/setrecordplan')).toHaveLength(1));
    await waitFor(() => expect(where()).toHaveTextContent(/^\/config\/recording$/));
  });

  it('an edit opened from the plans table on /config/recording returns there when cancelled', async () => {
    stubs();
    renderConsole(app(), { path: '/config/recording' });
    fireEvent.click(await screen.findByRole('button', { name: /编\s*辑/ }));
    await waitFor(() => expect(where()).toHaveTextContent('/config/program/form'));
    fireEvent.click(await screen.findByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(where()).toHaveTextContent(/^\/config\/recording$/));
  });

  it('opened from the plans list it returns to the list; opened directly, too', async () => {
    stubs();
    renderConsole(app(), { path: '/config/program' });
    fireEvent.click(await screen.findByRole('button', { name: /新增录像计划/ }));
    await waitFor(() => expect(where()).toHaveTextContent('/config/program/form'));
    fireEvent.click(await screen.findByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(where()).toHaveTextContent(/^\/config\/program$/));
    expect(planFormReturn(null)).toBe('/config/program');
    expect(planFormReturn({ from: '//evil.example/x' })).toBe('/config/program');
    expect(planFormReturn({ from: '/config/recording?x=1' })).toBe('/config/recording?x=1');
  });

  it('a plan whose save days are out of range says the range and is not saved (a typed 0 was saved as 1)', async () => {
    const api = stubs();
    renderConsole(app(), { path: '/config/program/form' });
    fireEvent.change(await screen.findByLabelText('计划名称'), { target: { value: 'Days' } });
    fireEvent.click(screen.getByTestId('hour-0-9'));
    const days = screen.getByTestId('plan-save-days');
    for (const typed of ['0', '3651']) {
      fireEvent.change(days, { target: { value: typed } });
      fireEvent.blur(days);
      fireEvent.click(screen.getByTestId('plan-save'));
      expect(await screen.findByText('保存天数须在 1 到 3650 天之间')).toBeInTheDocument();
      expect(days).toHaveValue(typed);
    }
    expect(api.callsTo('/api/v1/setrecordplan')).toHaveLength(0);
    fireEvent.change(days, { target: { value: '7' } });
    fireEvent.blur(days);
    fireEvent.click(screen.getByTestId('plan-save'));
    await waitFor(() => expect(api.callsTo('/api/v1/setrecordplan')).toHaveLength(1));
    expect(api.callsTo('/api/v1/setrecordplan')[0].body.save_days).toBe('7');
  });
});
