/** The weekly schedule editor: dragging over cells paints a slot that converts to the right per-day list. */
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { fromNormal, toDayLists, type NormalSchedule } from '@opencvr/shared';
import '../src/i18n';
import { ScheduleEditor } from '../src/features/recording/components/ScheduleEditor';
import { emptyModel } from '../src/features/recording/scheduleModel';

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

describe('ScheduleEditor', { timeout: 60_000 }, () => {
  it('drag from Tuesday 09:00 to 11:00 paints 09:00-11:30, drag again erases', () => {
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
    let value = emptyModel();
    render(<Harness onValue={(v) => (value = v)} />);
    fireEvent.pointerDown(screen.getByTestId('cell-0-0'));
    fireEvent.pointerUp(screen.getByTestId('cell-0-0'));
    fireEvent.click(screen.getAllByRole('button', { name: /复制到每一天 星期一/ })[0]);
    expect(toDayLists(fromNormal(value)).Sunday).toEqual([{ sTime: '00:00:00', eTime: '00:30:00', enable: 1, number: 0, type: 1 }]);
  });
});
