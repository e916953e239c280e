/** The playback calendar: a day to come cannot be picked (nothing can be recorded there yet) unless it has recordings. */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { MonthCalendar } from '../src/features/playback/components/MonthCalendar';
import { today } from '../src/features/playback/day';
import { renderConsole } from './helpers/console';

describe('MonthCalendar', () => {
  it('disables the days after today, except one with recordings', () => {
    const now = today();
    const next = new Date(Number(now.slice(0, 4)), Number(now.slice(4, 6)), 1);
    const month = `${next.getFullYear()}${String(next.getMonth() + 1).padStart(2, '0')}`;
    const first = `${month}01`;
    const second = `${month}02`;
    const onPick = vi.fn();
    renderConsole(<MonthCalendar month={month} selected={now} recorded={new Set([second])} onMonth={() => {}} onPick={onPick} />);
    expect(screen.getByTestId(`cal-${first}`)).toBeDisabled();
    fireEvent.click(screen.getByTestId(`cal-${first}`));
    expect(onPick).not.toHaveBeenCalled();
    expect(screen.getByTestId(`cal-${second}`)).toBeEnabled();
    fireEvent.click(screen.getByTestId(`cal-${second}`));
    expect(onPick).toHaveBeenCalledWith(second);
    // today itself (shown among the leading days of the next month's grid, or not) stays enabled where shown
    const todayCell = screen.queryByTestId(`cal-${now}`);
    if (todayCell) expect(todayCell).toBeEnabled();
  });

  it('names each day by its date, with its recordings, and marks today', () => {
    // The buttons were named by the day of the month alone ("29").
    renderConsole(<MonthCalendar month="202611" selected="20261127" recorded={new Set(['20261127'])} onMonth={() => {}} onPick={() => {}} />);
    expect(screen.getByRole('button', { name: '2026-11-27，有录像' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: '2026-11-26' })).toHaveAttribute('aria-pressed', 'false');
    const now = today();
    const cell = screen.queryByTestId(`cal-${now}`);
    if (cell) expect(cell).toHaveAttribute('aria-current', 'date');
    expect(document.querySelectorAll('[aria-current="date"]').length).toBeLessThanOrEqual(1);
  });
});
