/**
 * The weekly schedule editor: 7 rows (Monday..Sunday) × 24 hours in 30-minute cells. Press and drag
 * to paint (starting on an empty cell) or erase (starting on a painted one), across rows too; or add
 * a slot with two times (an end before the start runs past midnight into the next day). Each row
 * lists its slots and can be copied to every day. A phone-wide window gets the day list instead
 * (ScheduleDayList.tsx: hours to tap, the same data and checks).
 */
import { useState } from 'react';
import { Button, Flex, Space, Tag, Tooltip } from 'antd';
import { CopyOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { WEEKDAYS, type NormalSchedule } from '@opencvr/shared';
import { usePhone } from '../../../components/usePhone';
import { CELLS_PER_DAY, cellOn, clearDay, copyToAll, daySlots, hhmm, paintBlock, removeSlot, slotText } from '../scheduleModel';
import { AddSlot } from './AddSlot';
import { ScheduleDayList } from './ScheduleDayList';

interface Props {
  value: NormalSchedule;
  onChange: (v: NormalSchedule) => void;
}

interface Drag {
  d0: number;
  c0: number;
  d1: number;
  c1: number;
  on: boolean;
}

const CELL_W = 14;

export function ScheduleEditor({ value, onChange }: Props) {
  const { t } = useTranslation();
  const phone = usePhone();
  const [drag, setDrag] = useState<Drag | null>(null);
  const nextDay = (time: string) => t('recording.nextDay', { time });
  if (phone) return <ScheduleDayList value={value} onChange={onChange} />;
  const shown = drag ? paintBlock(value, drag.d0, drag.d1, drag.c0, drag.c1, drag.on) : value;

  const finish = () => {
    if (!drag) return;
    onChange(paintBlock(value, drag.d0, drag.d1, drag.c0, drag.c1, drag.on));
    setDrag(null);
  };

  return (
    // Nothing in a row shrinks: on a narrow window the table keeps its cells and scrolls sideways
    // (shrunk, the hour ruler no longer matched the cells and the day names broke into columns).
    <div data-testid="schedule-editor" onPointerUp={finish} onPointerLeave={finish} style={{ userSelect: 'none', overflowX: 'auto' }}>
      {/*
        One grid for the hour ruler and the seven rows (a row's box is its four cells): the day
        names' column is as wide as the longest name in the console's language (a fixed 72 px, made
        for 星期三, cut "Wednesday" under the cells), and the ruler stays over the cells.
      */}
      <div style={{ display: 'grid', gridTemplateColumns: 'max-content max-content max-content minmax(100px, 324px)', alignItems: 'center', rowGap: 4, width: 'max-content' }}>
        <div />
        <div style={{ display: 'flex' }}>
          {Array.from({ length: 24 }, (_, h) => (
            <div key={h} style={{ width: CELL_W * 2, flexShrink: 0, fontSize: 10, color: '#888' }}>
              {h}
            </div>
          ))}
        </div>
        <div />
        <div />
        {WEEKDAYS.map((day, d) => (
          <div key={day} style={{ display: 'contents' }} data-testid={`schedule-row-${day}`}>
            <div data-testid={`schedule-day-${day}`} style={{ minWidth: 72, paddingRight: 8, fontSize: 13, whiteSpace: 'nowrap' }}>
              {t(`recording.days.${day}`)}
            </div>
            <div style={{ display: 'flex', flexShrink: 0, border: '1px solid #d9d9d9', borderRadius: 2 }}>
              {Array.from({ length: CELLS_PER_DAY }, (_, c) => {
                const on = cellOn(shown, day, c);
                return (
                  <div
                    key={c}
                    data-testid={`cell-${d}-${c}`}
                    data-on={on ? '1' : '0'}
                    title={`${t(`recording.days.${day}`)} ${hhmm(c * 1800)}–${hhmm((c + 1) * 1800)}`}
                    onPointerDown={(e) => {
                      e.preventDefault();
                      setDrag({ d0: d, c0: c, d1: d, c1: c, on: !cellOn(value, day, c) });
                    }}
                    onPointerEnter={() => drag && setDrag({ ...drag, d1: d, c1: c })}
                    style={{
                      width: CELL_W,
                      height: 22,
                      background: on ? '#1677ff' : c % 2 ? '#fafafa' : '#f0f0f0',
                      borderLeft: c % 2 === 0 && c ? '1px solid #d9d9d9' : undefined,
                      cursor: 'crosshair',
                    }}
                  />
                );
              })}
            </div>
            <Space size={0} style={{ marginLeft: 4, flexShrink: 0 }}>
              <AddSlot day={day} value={value} onChange={onChange} />
              <Tooltip title={t('recording.copyToAll')}>
                <Button size="small" type="text" aria-label={`${t('recording.copyToAll')} ${t(`recording.days.${day}`)}`} icon={<CopyOutlined />} onClick={() => onChange(copyToAll(value, day))} />
              </Tooltip>
              <Tooltip title={t('recording.clearDay')}>
                <Button size="small" type="text" aria-label={`${t('recording.clearDay')} ${t(`recording.days.${day}`)}`} icon={<DeleteOutlined />} onClick={() => onChange(clearDay(value, day))} />
              </Tooltip>
            </Space>
            {/* A grid cell of its own: an empty antd Flex is display: none and the next row would move up into its place. */}
            <div>
              <Flex gap={2} wrap style={{ marginLeft: 4, maxWidth: 320, minWidth: 100 }} data-testid={`slots-${day}`}>
                {/* The day's slots as entered: one across midnight is this day's (22:00–次日02:00), not a tag on each day. */}
                {daySlots(shown, day).map((slot, i) => (
                  <Tag key={slot.join('-')} closable onClose={(ev) => { ev.preventDefault(); onChange(removeSlot(value, day, i)); }} style={{ marginInlineEnd: 0 }}>
                    {slotText(slot, nextDay)}
                  </Tag>
                ))}
              </Flex>
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
