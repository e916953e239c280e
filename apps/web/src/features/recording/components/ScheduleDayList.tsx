/**
 * The weekly schedule editor on a phone-wide window: the week as a list of days, each opening to
 * its 24 hours as buttons to tap (a covered hour is cleared, any other filled), its slots as tags
 * to remove, and the same add / copy to every day / clear actions as the desktop grid.
 *
 * Why: the desktop grid is 48 cells of 14 × 22 px per day, 672 px wide, painted by dragging. On a
 * 390 px phone it scrolled sideways with the day's actions and slots out of sight, a finger
 * covered three cells, and a drag scrolled the page instead of painting. Here an hour is 48 ×
 * 36 px, six to a row, and shows both of its half-hours (left and right half) so a slot typed to
 * the half-hour reads as it is; finer times go through "+ 添加" as on a desktop. The data, the
 * model (scheduleModel.ts) and its checks are the desktop editor's.
 */
import { Button, Collapse, Flex, Space, Tag, Typography } from 'antd';
import { CloseOutlined, CopyOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { WEEKDAYS, type NormalSchedule, type Weekday } from '@opencvr/shared';
import { cellOn, clearDay, copyToAll, daySlots, hhmm, hourCovered, removeSlot, slotText, toggleHour } from '../scheduleModel';
import { AddSlot } from './AddSlot';

interface Props {
  value: NormalSchedule;
  onChange: (v: NormalSchedule) => void;
}

const ON = '#69b1ff';
const OFF = '#f5f5f5';

/** An hour's background: its two half-hours side by side. */
function hourBackground(first: boolean, second: boolean): string {
  if (first === second) return first ? ON : OFF;
  return `linear-gradient(to right, ${first ? ON : OFF} 50%, ${second ? ON : OFF} 50%)`;
}

function DayHours({ day, d, value, onChange }: { day: Weekday; d: number; value: NormalSchedule; onChange: (v: NormalSchedule) => void }) {
  const { t } = useTranslation();
  const dayName = t(`recording.days.${day}`);
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(6, 1fr)', gap: 4 }} data-testid={`schedule-hours-${day}`}>
      {Array.from({ length: 24 }, (_, h) => {
        const first = cellOn(value, day, h * 2);
        const second = cellOn(value, day, h * 2 + 1);
        const covered = hourCovered(value, day, h);
        return (
          <button
            key={h}
            type="button"
            data-testid={`hour-${d}-${h}`}
            data-on={covered ? '1' : first || second ? 'half' : '0'}
            aria-pressed={covered}
            aria-label={`${dayName} ${hhmm(h * 3600)}–${hhmm((h + 1) * 3600)}`}
            onClick={() => onChange(toggleHour(value, day, h))}
            style={{
              height: 36,
              minWidth: 0,
              border: '1px solid #d9d9d9',
              borderRadius: 4,
              background: hourBackground(first, second),
              color: 'rgba(0, 0, 0, 0.88)',
              fontSize: 14,
              fontVariantNumeric: 'tabular-nums',
              cursor: 'pointer',
              touchAction: 'manipulation',
            }}
          >
            {String(h).padStart(2, '0')}
          </button>
        );
      })}
    </div>
  );
}

export function ScheduleDayList({ value, onChange }: Props) {
  const { t } = useTranslation();
  const nextDay = (time: string) => t('recording.nextDay', { time });
  // A day's slots as entered: one across midnight is this day's (22:00–次日02:00), not a slot on each day.
  const slotsText = (day: Weekday) => daySlots(value, day).map((slot) => slotText(slot, nextDay)).join(', ');
  return (
    <div data-testid="schedule-editor">
    <Collapse
      size="small"
      // A title may shrink below its text: a day's slots wrap under its name instead of running past the card.
      styles={{ title: { minWidth: 0 } }}
      defaultActiveKey={['Monday']}
      items={WEEKDAYS.map((day, d) => ({
        key: day,
        label: (
          <Flex gap={8} align="baseline" style={{ minWidth: 0 }} data-testid={`schedule-row-${day}`}>
            <span data-testid={`schedule-day-${day}`} style={{ whiteSpace: 'nowrap', fontWeight: 500 }}>
              {t(`recording.days.${day}`)}
            </span>
            <Typography.Text type="secondary" style={{ minWidth: 0, fontSize: 13 }} data-testid={`schedule-summary-${day}`}>
              {slotsText(day) || '—'}
            </Typography.Text>
          </Flex>
        ),
        children: (
          <Flex vertical gap={8}>
            <DayHours day={day} d={d} value={value} onChange={onChange} />
            <Flex gap={4} wrap data-testid={`slots-${day}`}>
              {daySlots(value, day).map((slot, i) => (
                <Tag
                  key={slot.join('-')}
                  closable
                  closeIcon={<CloseOutlined style={{ fontSize: 14, padding: 4 }} aria-label={t('recording.removeSlot', { slot: slotText(slot, nextDay) })} />}
                  onClose={(ev) => {
                    ev.preventDefault();
                    onChange(removeSlot(value, day, i));
                  }}
                  style={{ marginInlineEnd: 0, fontSize: 14, lineHeight: '28px', paddingInline: 8 }}
                >
                  {slotText(slot, nextDay)}
                </Tag>
              ))}
            </Flex>
            {/* No gap: the three fit one row of a 390 px phone (with antd's 4 px they wrapped). */}
            <Space size={0} wrap>
              <AddSlot day={day} value={value} onChange={onChange} withLabel />
              <Button type="text" icon={<CopyOutlined />} aria-label={`${t('recording.copyToAll')} ${t(`recording.days.${day}`)}`} onClick={() => onChange(copyToAll(value, day))}>
                {t('recording.copyToAll')}
              </Button>
              <Button type="text" icon={<DeleteOutlined />} aria-label={`${t('recording.clearDay')} ${t(`recording.days.${day}`)}`} onClick={() => onChange(clearDay(value, day))}>
                {t('recording.clearDay')}
              </Button>
            </Space>
          </Flex>
        ),
      }))}
    />
    </div>
  );
}
