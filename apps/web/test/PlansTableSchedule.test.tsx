/**
 * The recording plans list says when each plan records: it showed only the name, save days, the
 * switch and a channel count, so an administrator with many plans opened each one to find its hours.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { PlansTable } from '../src/features/recording/components/PlansTable';
import type { PlanSummary } from '../src/features/recording/api';
import { setLang } from '../src/i18n';
import { renderConsole } from './helpers/console';
import { wideWindow } from './helpers/viewport';

const plan = (ID: number, Schedule: PlanSummary['Schedule'], ChannelCount = 0): PlanSummary => ({ ID, Name: `P${ID}`, Schedule, Days: {} as PlanSummary['Days'], SaveDays: 30, Enable: 1, ChannelCount });
const nine = [{ StartTime: '09:00:00', EndTime: '18:00:00' }];

describe('PlansTable', () => {
  afterEach(() => setLang('zh-CN'));
  it('shows each plan’s recording times, in the console’s language', () => {
    const plans = [
      plan(1, { Monday: nine, Tuesday: nine, Wednesday: nine, Thursday: nine, Friday: nine }),
      // One slot across midnight reads as the one slot entered (it read as Monday's and Sunday's parts).
      plan(2, { Sunday: [{ StartTime: '22:00:00', EndTime: '06:00:00' }] }),
      plan(3, {}),
    ];
    renderConsole(<PlansTable plans={plans} total={3} onDelete={() => {}} />);
    expect(screen.getAllByTestId('plan-schedule').map((e) => e.textContent)).toEqual(['星期一–星期五 09:00–18:00', '星期日 22:00–次日06:00', '—']);
    // The console switched to English.
    act(() => setLang('en-US'));
    expect(screen.getAllByTestId('plan-schedule').map((e) => e.textContent)).toEqual(['Monday–Friday 09:00–18:00', 'Sunday 22:00–06:00 next day', '—']);
    expect(screen.getByRole('columnheader', { name: 'Recording times' })).toBeInTheDocument();
  });

  it('shows a plan’s times whole on a desktop, not cut with an ellipsis (the end of a slot was in a tooltip only)', () => {
    wideWindow();
    const long = [{ StartTime: '22:00:00', EndTime: '06:00:00' }];
    renderConsole(<PlansTable compact plans={[plan(1, { Monday: long, Tuesday: long, Wednesday: long, Thursday: long, Friday: long })]} total={1} onDelete={() => {}} />);
    const cell = screen.getByTestId('plan-schedule').closest('td')!;
    expect(cell).toHaveTextContent('星期一–星期五 22:00–次日06:00');
    expect(cell.className).not.toMatch(/ellipsis/);
    vi.restoreAllMocks();
  });

  it('counts each plan’s channels from the list’s ChannelCount (the list no longer carries the channels)', () => {
    // A "record everything" plan of 2,000 cameras: the list sent its 2,000 rows for this number.
    renderConsole(<PlansTable plans={[plan(1, {}, 2000), plan(2, {}, 0)]} total={2} onDelete={() => {}} />);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('2000');
    expect(rows[1]).not.toHaveTextContent('2000');
  });
});
