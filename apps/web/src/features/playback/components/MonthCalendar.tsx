/** A month of days with the recorded ones flagged (querymonthly); arrows change the month. */
import { Button, Flex, Spin, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { monthGrid, today } from '../day';

interface Props {
  month: string;
  selected: string;
  recorded: Set<string>;
  loading?: boolean;
  onMonth: (month: string, delta: number) => void;
  onPick: (day: string) => void;
}

/** YYYY-MM-DD of a YYYYMMDD day. */
const dashed = (day: string) => `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`;

export function MonthCalendar({ month, selected, recorded, loading, onMonth, onPick }: Props) {
  const { t } = useTranslation();
  const now = today();
  const weekdays = t('playback.weekdaysShort', { returnObjects: true }) as string[];
  return (
    <div data-testid="month-calendar" data-month={month} style={{ width: 280 }}>
      <Flex justify="space-between" align="center" style={{ marginBottom: 6 }}>
        <Button size="small" type="text" aria-label={t('playback.prevMonth')} icon={<LeftOutlined />} onClick={() => onMonth(month, -1)} />
        <Typography.Text strong>
          {t('playback.monthTitle', { year: month.slice(0, 4), month: Number(month.slice(4, 6)) })} {loading && <Spin size="small" />}
        </Typography.Text>
        <Button size="small" type="text" aria-label={t('playback.nextMonth')} icon={<RightOutlined />} onClick={() => onMonth(month, 1)} />
      </Flex>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(7, 1fr)', gap: 2, textAlign: 'center' }}>
        {weekdays.map((w) => (
          <div key={w} style={{ fontSize: 12, color: '#888' }}>
            {w}
          </div>
        ))}
        {monthGrid(month).map((c) => {
          const has = recorded.has(c.day);
          const isSel = c.day === selected;
          // Nothing can have been recorded yet on a day to come (unless a device's clock says so).
          const future = c.day > now && !has;
          return (
            <button
              key={c.day}
              type="button"
              data-testid={`cal-${c.day}`}
              data-recorded={has ? '1' : '0'}
              aria-pressed={isSel}
              // A screen reader heard "29": the whole date, whether it has recordings, and which day is today.
              aria-label={has ? t('playback.calDayRecorded', { date: dashed(c.day) }) : dashed(c.day)}
              aria-current={c.day === now ? 'date' : undefined}
              disabled={future}
              onClick={() => onPick(c.day)}
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
          );
        })}
      </div>
    </div>
  );
}
