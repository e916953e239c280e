/**
 * The playback calendar: a day to come cannot be picked (nothing can be recorded there yet) unless it
 * has recordings; each day is named by its date; from the keyboard it is one tab stop whose arrows,
 * Home/End and PageUp/PageDown move among the days (it was 42 tab stops).
 */
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MonthCalendar } from '../src/features/playback/components/MonthCalendar';
import { monthOf, shiftMonth, today } from '../src/features/playback/day';
import { renderConsole } from './helpers/console';

// 30 s as the page tests: role queries over the 42 days and the keys' renders ran past 15 s at load 22.
describe('MonthCalendar', { timeout: 30_000 }, () => {
  it('disables the days after today, except one with recordings', () => {
    const now = today();
    const next = new Date(Number(now.slice(0, 4)), Number(now.slice(4, 6)), 1);
    const month = `${next.getFullYear()}${String(next.getMonth() + 1).padStart(2, '0')}`;
    const first = `${month}01`;
    const second = `${month}02`;
    const onPick = vi.fn();
    renderConsole(<MonthCalendar month={month} selected={now} recorded={new Set([second])} onMonth={() => {}} onPick={onPick} />);
    // aria-disabled, not disabled: it stays in the keys' reach (a disabled button cannot take the focus).
    expect(screen.getByTestId(`cal-${first}`)).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(screen.getByTestId(`cal-${first}`));
    expect(onPick).not.toHaveBeenCalled();
    expect(screen.getByTestId(`cal-${second}`)).not.toHaveAttribute('aria-disabled');
    fireEvent.click(screen.getByTestId(`cal-${second}`));
    expect(onPick).toHaveBeenCalledWith(second);
    // today itself (shown among the leading days of the next month's grid, or not) stays enabled where shown
    const todayCell = screen.queryByTestId(`cal-${now}`);
    if (todayCell) expect(todayCell).not.toHaveAttribute('aria-disabled');
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

  it('moves a year with the double arrows, in one step (a channel kept a year was twelve clicks from last year)', () => {
    const onMonth = vi.fn();
    renderConsole(<MonthCalendar month="202611" selected="20261127" recorded={new Set()} onMonth={onMonth} onPick={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: '上一年' }));
    expect(onMonth).toHaveBeenLastCalledWith('202611', -12);
    expect(shiftMonth('202611', -12)).toBe('202511');
    fireEvent.click(screen.getByRole('button', { name: '下一年' }));
    expect(onMonth).toHaveBeenLastCalledWith('202611', 12);
    expect(onMonth).toHaveBeenCalledTimes(2);
  });

  describe('from the keyboard', () => {
    /** The page's use: the month shown follows the calendar's arrows and keys; a pick is recorded. */
    function Harness({ day, onPick }: { day: string; onPick: (d: string) => void }) {
      const [month, setMonth] = useState(monthOf(day));
      return (
        <>
          <button type="button">before</button>
          <MonthCalendar month={month} selected={day} recorded={new Set([day])} onMonth={(m, d) => setMonth(shiftMonth(m, d))} onPick={onPick} />
          <button type="button">after</button>
        </>
      );
    }
    const focused = () => (document.activeElement as HTMLElement).dataset.testid;

    it('is one tab stop, on the picked day', async () => {
      renderConsole(<Harness day="20251015" onPick={() => {}} />);
      const days = screen.getAllByRole('gridcell');
      expect(days).toHaveLength(42);
      expect(screen.getByRole('grid')).toHaveAccessibleName('2025 年 10 月');
      expect(days.filter((c) => c.querySelector('button')!.tabIndex === 0)).toHaveLength(1);
      const user = userEvent.setup();
      screen.getByRole('button', { name: 'before' }).focus();
      await user.tab(); // previous year
      await user.tab(); // previous month
      await user.tab(); // next month
      await user.tab(); // next year
      await user.tab();
      expect(focused()).toBe('cal-20251015');
      await user.tab();
      expect(screen.getByRole('button', { name: 'after' })).toHaveFocus();
    });

    it('arrows move a day or a week, Home/End to the week\'s Monday/Sunday, PageUp/PageDown a month, Enter and Space pick', async () => {
      const onPick = vi.fn();
      renderConsole(<Harness day="20251015" onPick={onPick} />);
      const user = userEvent.setup();
      act(() => screen.getByTestId('cal-20251015').focus());
      await user.keyboard('{ArrowRight}');
      expect(focused()).toBe('cal-20251016');
      await user.keyboard('{ArrowDown}');
      expect(focused()).toBe('cal-20251023');
      await user.keyboard('{ArrowLeft}{ArrowUp}');
      expect(focused()).toBe('cal-20251015');
      // 2025-10-15 is a Wednesday: the week runs Monday 13 to Sunday 19.
      await user.keyboard('{Home}');
      expect(focused()).toBe('cal-20251013');
      await user.keyboard('{End}');
      expect(focused()).toBe('cal-20251019');
      // Still one tab stop: the focused day.
      expect(screen.getAllByRole('gridcell').filter((c) => c.querySelector('button')!.tabIndex === 0).map((c) => c.querySelector('button')!.dataset.testid)).toEqual(['cal-20251019']);
      expect(onPick).not.toHaveBeenCalled();
      await user.keyboard('{Enter}');
      expect(onPick).toHaveBeenLastCalledWith('20251019');
      // A month on: November 19th, November shown.
      await user.keyboard('{PageDown}');
      expect(focused()).toBe('cal-20251119');
      expect(screen.getByTestId('month-calendar')).toHaveAttribute('data-month', '202511');
      await user.keyboard(' ');
      expect(onPick).toHaveBeenLastCalledWith('20251119');
      await user.keyboard('{PageUp}{PageUp}');
      expect(focused()).toBe('cal-20250919');
      // Past the month's end: the next month shows, the focus on its day.
      await user.keyboard('{ArrowDown}{ArrowDown}');
      expect(focused()).toBe('cal-20251003');
      expect(screen.getByTestId('month-calendar')).toHaveAttribute('data-month', '202510');
      // The 31st a month on is the next month's last day.
      act(() => screen.getByTestId('cal-20251031').focus());
      await user.click(screen.getByTestId('cal-20251031'));
      await user.keyboard('{PageDown}');
      expect(focused()).toBe('cal-20251130');
    });

    it('moves through a day to come, which Enter does not pick', async () => {
      const now = today();
      const onPick = vi.fn();
      renderConsole(<Harness day={now} onPick={onPick} />);
      const user = userEvent.setup();
      act(() => screen.getByTestId(`cal-${now}`).focus());
      await user.keyboard('{ArrowRight}');
      const next = focused()!;
      expect(next).not.toBe(`cal-${now}`);
      expect(screen.getByTestId(next)).toHaveAttribute('aria-disabled', 'true');
      await user.keyboard('{Enter}');
      expect(onPick).not.toHaveBeenCalled();
    });
  });
});
