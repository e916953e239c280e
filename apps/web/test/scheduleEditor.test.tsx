/**
 * The weekly schedule editor: on a wide window dragging over cells paints a slot that converts to
 * the right per-day list; on a phone-wide one (jsdom's default) the day list's hours are tapped.
 */
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { fromNormal, toDayLists, type NormalSchedule } from '@opencvr/shared';
import '../src/i18n';
import { ScheduleEditor } from '../src/features/recording/components/ScheduleEditor';
import { emptyModel } from '../src/features/recording/scheduleModel';
import { wideWindow } from './helpers/viewport';
// antd's popover (a day's + 添加) observes its size: the console helpers stub ResizeObserver.
import './helpers/console';

function Harness({ onValue }: { onValue: (v: NormalSchedule) => void }) {
  const [v, setV] = useState(emptyModel());
  return (
    <ScheduleEditor
      value={v}
      onChange={(n) => {
        setV(n);
        onValue(n);
      }}
    />
  );
}

afterEach(() => vi.restoreAllMocks());

describe('ScheduleEditor on a wide window', { timeout: 60_000 }, () => {
  it('drag from Tuesday 09:00 to 11:00 paints 09:00-11:30, drag again erases', () => {
    wideWindow();
    let value = emptyModel();
    render(<Harness onValue={(v) => (value = v)} />);
    fireEvent.pointerDown(screen.getByTestId('cell-1-18'));
    fireEvent.pointerEnter(screen.getByTestId('cell-1-22'));
    fireEvent.pointerUp(screen.getByTestId('cell-1-22'));
    expect(toDayLists(fromNormal(value)).Tuesday).toEqual([{ sTime: '09:00:00', eTime: '11:30:00', enable: 1, number: 0, type: 1 }]);
    expect(screen.getByTestId('cell-1-20')).toHaveAttribute('data-on', '1');
    expect(screen.getByTestId('slots-Tuesday')).toHaveTextContent('09:00–11:30');

    // Starting on a painted cell erases.
    fireEvent.pointerDown(screen.getByTestId('cell-1-20'));
    fireEvent.pointerUp(screen.getByTestId('cell-1-20'));
    expect(fromNormal(value).Tuesday).toEqual([
      { StartTime: '09:00:00', EndTime: '10:00:00' },
      { StartTime: '10:30:00', EndTime: '11:30:00' },
    ]);
  });

  it('copies a day to every day', () => {
    wideWindow();
    let value = emptyModel();
    render(<Harness onValue={(v) => (value = v)} />);
    fireEvent.pointerDown(screen.getByTestId('cell-0-0'));
    fireEvent.pointerUp(screen.getByTestId('cell-0-0'));
    fireEvent.click(screen.getAllByRole('button', { name: /复制到每一天 星期一/ })[0]);
    expect(toDayLists(fromNormal(value)).Sunday).toEqual([{ sTime: '00:00:00', eTime: '00:30:00', enable: 1, number: 0, type: 1 }]);
  });

  it('a slot typed across midnight is one tag on its day, removed whole', () => {
    wideWindow();
    let value = emptyModel();
    render(<Harness onValue={(v) => (value = v)} />);
    fireEvent.click(screen.getByRole('button', { name: '星期一：添加时间段' }));
    fireEvent.change(screen.getByLabelText('开始时间'), { target: { value: '22:00' } });
    fireEvent.change(screen.getByLabelText('结束时间'), { target: { value: '02:00' } });
    fireEvent.click(screen.getByRole('button', { name: /^添\s*加$/ }));
    // The grid paints both nights' hours; the slot is read back as entered (it was 22:00–24:00 on
    // Monday and 00:00–02:00 on Tuesday).
    expect(screen.getByTestId('cell-1-3')).toHaveAttribute('data-on', '1');
    expect(screen.getByTestId('slots-Monday')).toHaveTextContent(/^22:00–次日02:00$/);
    expect(screen.getByTestId('slots-Tuesday')).toHaveTextContent(/^$/);
    expect(fromNormal(value).Monday).toEqual([{ StartTime: '22:00:00', EndTime: '02:00:00' }]);
    fireEvent.click(screen.getByTestId('slots-Monday').querySelector('.ant-tag-close-icon')!);
    expect(screen.getByTestId('cell-1-3')).toHaveAttribute('data-on', '0');
    expect(fromNormal(value).Tuesday).toEqual([]);
  });
});

describe('ScheduleEditor on a phone-wide window: the day list', { timeout: 60_000 }, () => {
  const hour = (d: number, h: number) => screen.getByTestId(`hour-${d}-${h}`);

  it('has no drag grid; tapping hours sets and clears them, shown in the day’s summary and tags', () => {
    let value = emptyModel();
    render(<Harness onValue={(v) => (value = v)} />);
    expect(screen.queryByTestId('cell-0-0')).not.toBeInTheDocument();
    // Monday is open; its hours are buttons named by day and time.
    fireEvent.click(screen.getByRole('button', { name: '星期一 08:00–09:00' }));
    fireEvent.click(hour(0, 9));
    expect(toDayLists(fromNormal(value)).Monday).toEqual([{ sTime: '08:00:00', eTime: '10:00:00', enable: 1, number: 0, type: 1 }]);
    expect(hour(0, 8)).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('schedule-summary-Monday')).toHaveTextContent('08:00–10:00');
    expect(screen.getByTestId('slots-Monday')).toHaveTextContent('08:00–10:00');
    // Tapped again, a covered hour is cleared: the slot splits.
    fireEvent.click(hour(0, 8));
    expect(fromNormal(value).Monday).toEqual([{ StartTime: '09:00:00', EndTime: '10:00:00' }]);
    expect(hour(0, 8)).toHaveAttribute('data-on', '0');
  });

  it('shows a half-hour as half an hour; a tag removes its slot; copy and clear act on the day', () => {
    let value = emptyModel();
    render(<Harness onValue={(v) => (value = v)} />);
    fireEvent.click(hour(0, 6));
    fireEvent.click(screen.getByRole('button', { name: '星期一：添加时间段' }));
    fireEvent.change(screen.getByLabelText('开始时间'), { target: { value: '10:30' } });
    fireEvent.change(screen.getByLabelText('结束时间'), { target: { value: '11:00' } });
    fireEvent.click(screen.getByRole('button', { name: /^添\s*加$/ }));
    expect(fromNormal(value).Monday).toEqual([
      { StartTime: '06:00:00', EndTime: '07:00:00' },
      { StartTime: '10:30:00', EndTime: '11:00:00' },
    ]);
    expect(hour(0, 10)).toHaveAttribute('data-on', 'half');
    expect(hour(0, 10)).toHaveAttribute('aria-pressed', 'false');

    fireEvent.click(screen.getByRole('button', { name: '复制到每一天 星期一' }));
    expect(screen.getByTestId('schedule-summary-Sunday')).toHaveTextContent('06:00–07:00, 10:30–11:00');
    expect(fromNormal(value).Sunday).toEqual(fromNormal(value).Monday);

    fireEvent.click(screen.getByRole('button', { name: '删除时间段 06:00–07:00' }));
    expect(fromNormal(value).Monday).toEqual([{ StartTime: '10:30:00', EndTime: '11:00:00' }]);

    fireEvent.click(screen.getByRole('button', { name: '清空当天 星期一' }));
    expect(fromNormal(value).Monday).toEqual([]);
    expect(screen.getByTestId('schedule-summary-Monday')).toHaveTextContent('—');
    expect(fromNormal(value).Sunday).toEqual([
      { StartTime: '06:00:00', EndTime: '07:00:00' },
      { StartTime: '10:30:00', EndTime: '11:00:00' },
    ]);
  });

  it('opens another day from its title to edit it', () => {
    let value = emptyModel();
    render(<Harness onValue={(v) => (value = v)} />);
    expect(screen.queryByTestId('hour-6-0')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('schedule-day-Sunday'));
    fireEvent.click(hour(6, 23));
    expect(fromNormal(value).Sunday).toEqual([{ StartTime: '23:00:00', EndTime: '24:00:00' }]);
  });
});
