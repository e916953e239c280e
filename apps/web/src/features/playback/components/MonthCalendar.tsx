/**
 * A month of days with the recorded ones flagged (querymonthly); arrows change the month, double
 * arrows the year (a day of last year's month was twelve clicks away, each asking for a month passed
 * through, on a channel kept for a year).
 *
 * From the keyboard it is one tab stop, a date grid (the WAI-ARIA grid / date picker pattern): the
 * focus roves among the days, ←/→ a day, ↑/↓ a week, Home/End the week's Monday/Sunday, PageUp/
 * PageDown a month (with Shift a year), and Enter or Space picks the focused day. A move to a day of
 * another month shows that month. Each day was a tab stop of its own: 42 of them between the month
 * buttons and the day's recordings.
 */
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { Button, Flex, Spin, Typography } from 'antd';
import { DoubleLeftOutlined, DoubleRightOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { dayString, monthGrid, monthOf, parseDay, today } from '../day';

interface Props {
  month: string;
  selected: string;
  recorded: Set<string>;
  loading?: boolean;
  /** Why the month's flags could not be read (shown under the month's name), when the page says it nowhere else. */
  error?: string;
  onMonth: (month: string, delta: number) => void;
  onPick: (day: string) => void;
}

/** YYYY-MM-DD of a YYYYMMDD day. */
const dashed = (day: string) => `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`;

/** Whole months between two YYYYMM. */
const monthsBetween = (from: string, to: string) => (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(4, 6)) - Number(from.slice(4, 6));

/** YYYYMMDD moved by `days`, or by `months` keeping the day of the month (the 31st goes to a shorter month's last day). */
export function moveDay(day: string, { days = 0, months = 0 }: { days?: number; months?: number }): string {
  const d = parseDay(day)!;
  if (months) {
    const last = new Date(d.getFullYear(), d.getMonth() + months + 1, 0).getDate();
    return dayString(new Date(d.getFullYear(), d.getMonth() + months, Math.min(d.getDate(), last)));
  }
  return dayString(new Date(d.getFullYear(), d.getMonth(), d.getDate() + days));
}

/** Where a key moves the focus from `day` (weeks start on Monday), or undefined for other keys. */
export function calendarKeyTarget(key: string, shift: boolean, day: string): string | undefined {
  const weekday = (parseDay(day)!.getDay() + 6) % 7;
  switch (key) {
    case 'ArrowLeft':
      return moveDay(day, { days: -1 });
    case 'ArrowRight':
      return moveDay(day, { days: 1 });
    case 'ArrowUp':
      return moveDay(day, { days: -7 });
    case 'ArrowDown':
      return moveDay(day, { days: 7 });
    case 'Home':
      return moveDay(day, { days: -weekday });
    case 'End':
      return moveDay(day, { days: 6 - weekday });
    case 'PageUp':
      return moveDay(day, { months: shift ? -12 : -1 });
    case 'PageDown':
      return moveDay(day, { months: shift ? 12 : 1 });
    default:
      return undefined;
  }
}

export function MonthCalendar({ month, selected, recorded, loading, error, onMonth, onPick }: Props) {
  const { t } = useTranslation();
  const now = today();
  const weekdays = t('playback.weekdaysShort', { returnObjects: true }) as string[];
  const cells = monthGrid(month);
  // The one day in the tab order: the last one the keys moved to while it is in the month shown,
  // else the picked day, today or the 1st (the month buttons leave the focused day behind).
  const [focusDay, setFocusDay] = useState<string | undefined>(undefined);
  const inMonth = (d: string | undefined) => d !== undefined && monthOf(d) === month;
  const tabDay = [focusDay, selected, now].find(inMonth) ?? `${month}01`;
  // Set by a key: the focus follows to the new day once it is drawn (in another month, after that month is).
  const moved = useRef(false);
  const gridRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!moved.current) return;
    const el = gridRef.current?.querySelector<HTMLButtonElement>(`[data-testid="cal-${tabDay}"]`);
    if (!el) return;
    moved.current = false;
    el.focus();
  }, [tabDay]);

  const titleId = `month-calendar-title-${month}`;
  const onKeyDown = (e: ReactKeyboardEvent) => {
    const to = calendarKeyTarget(e.key, e.shiftKey, tabDay);
    if (!to) return;
    e.preventDefault();
    if (to === tabDay) return;
    moved.current = true;
    setFocusDay(to);
    const delta = monthsBetween(month, monthOf(to));
    if (delta) onMonth(month, delta);
  };

  return (
    <div data-testid="month-calendar" data-month={month} style={{ width: 280 }}>
      <Flex justify="space-between" align="center" style={{ marginBottom: 6 }}>
        <span>
          <Button size="small" type="text" aria-label={t('playback.prevYear')} title={t('playback.prevYear')} icon={<DoubleLeftOutlined />} onClick={() => onMonth(month, -12)} />
          <Button size="small" type="text" aria-label={t('playback.prevMonth')} title={t('playback.prevMonth')} icon={<LeftOutlined />} onClick={() => onMonth(month, -1)} />
        </span>
        <Typography.Text strong id={titleId} aria-live="polite">
          {t('playback.monthTitle', { year: month.slice(0, 4), month: Number(month.slice(4, 6)) })} {loading && <Spin size="small" />}
        </Typography.Text>
        <span>
          <Button size="small" type="text" aria-label={t('playback.nextMonth')} title={t('playback.nextMonth')} icon={<RightOutlined />} onClick={() => onMonth(month, 1)} />
          <Button size="small" type="text" aria-label={t('playback.nextYear')} title={t('playback.nextYear')} icon={<DoubleRightOutlined />} onClick={() => onMonth(month, 12)} />
        </span>
      </Flex>
      {error && (
        <Typography.Text type="danger" data-testid="month-error" style={{ display: 'block', fontSize: 12, textAlign: 'center', marginBottom: 4 }}>
          {error}
        </Typography.Text>
      )}
      <div ref={gridRef} role="grid" aria-labelledby={titleId} onKeyDown={onKeyDown} style={{ display: 'grid', gridTemplateColumns: 'repeat(7, 1fr)', gap: 2, textAlign: 'center' }}>
        {/* Rows as display: contents, so the seven columns stay the one CSS grid's. */}
        <div role="row" style={{ display: 'contents' }}>
          {weekdays.map((w) => (
            <div key={w} role="columnheader" style={{ fontSize: 12, color: '#888' }}>
              {w}
            </div>
          ))}
        </div>
        {[0, 1, 2, 3, 4, 5].map((week) => (
          <div key={week} role="row" style={{ display: 'contents' }}>
            {cells.slice(week * 7, week * 7 + 7).map((c) => {
              const has = recorded.has(c.day);
              const isSel = c.day === selected;
              // Nothing can have been recorded yet on a day to come (unless a device's clock says so).
              // aria-disabled, not disabled: the keys still move through it, as through any day.
              const future = c.day > now && !has;
              return (
                <div key={c.day} role="gridcell" aria-selected={isSel} style={{ display: 'grid' }}>
                  <button
                    type="button"
                    data-testid={`cal-${c.day}`}
                    data-recorded={has ? '1' : '0'}
                    tabIndex={c.day === tabDay ? 0 : -1}
                    aria-pressed={isSel}
                    // A screen reader heard "29": the whole date, whether it has recordings, and which day is today.
                    aria-label={has ? t('playback.calDayRecorded', { date: dashed(c.day) }) : dashed(c.day)}
                    aria-current={c.day === now ? 'date' : undefined}
                    aria-disabled={future || undefined}
                    onClick={() => {
                      setFocusDay(c.day);
                      if (!future) onPick(c.day);
                    }}
                    style={{
                      border: c.day === now ? '1px solid #1677ff' : '1px solid transparent',
                      borderRadius: 4,
                      padding: '4px 0',
                      cursor: future ? 'not-allowed' : 'pointer',
                      background: isSel ? '#1677ff' : has ? 'rgba(22,119,255,0.12)' : 'transparent',
                      color: isSel ? '#fff' : c.inMonth && !future ? undefined : '#bbb',
                      position: 'relative',
                      font: 'inherit',
                    }}
                  >
                    {c.date}
                    {has && <span style={{ position: 'absolute', left: '50%', bottom: 1, width: 4, height: 4, marginLeft: -2, borderRadius: 2, background: isSel ? '#fff' : '#52c41a' }} />}
                  </button>
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
