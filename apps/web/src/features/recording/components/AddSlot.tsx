/**
 * A day's "+": a popover taking a slot as two HH:mm times (an end before the start runs past
 * midnight into the next day), checked by the model as it is added. Used by the desktop week grid
 * and the phone's day list alike.
 */
import { useState } from 'react';
import { Button, Input, Popover, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { NormalSchedule, Weekday } from '@opencvr/shared';
import { errorMessage } from '../../../i18n';
import { addSlot, validClock } from '../scheduleModel';

interface Props {
  day: Weekday;
  value: NormalSchedule;
  onChange: (v: NormalSchedule) => void;
  /** Show the words 添加 beside the icon (the phone's day list; the desktop row has the icon only). */
  withLabel?: boolean;
}

export function AddSlot({ day, value, onChange, withLabel = false }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [start, setStart] = useState('08:00');
  const [end, setEnd] = useState('18:00');
  const [error, setError] = useState('');
  const ok = validClock(start) && validClock(end, true) && start !== end;
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title={t('recording.addSlotTitle', { day: t(`recording.days.${day}`) })}
      content={
        <Space orientation="vertical">
          <Space>
            <Input aria-label={t('recording.slotStart')} style={{ width: 90 }} value={start} onChange={(e) => setStart(e.target.value)} placeholder="HH:mm" status={validClock(start) ? undefined : 'error'} />
            <span>–</span>
            <Input aria-label={t('recording.slotEnd')} style={{ width: 90 }} value={end} onChange={(e) => setEnd(e.target.value)} placeholder="HH:mm" status={validClock(end, true) ? undefined : 'error'} />
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('recording.slotHint')}
          </Typography.Text>
          {error && <Typography.Text type="danger">{error}</Typography.Text>}
          <Button
            type="primary"
            size="small"
            disabled={!ok}
            onClick={() => {
              try {
                onChange(addSlot(value, day, start, end));
                setError('');
                setOpen(false);
              } catch (err) {
                setError(errorMessage(err));
              }
            }}
          >
            {t('recording.addSlot')}
          </Button>
        </Space>
      }
    >
      <Button size={withLabel ? 'middle' : 'small'} type="text" aria-label={t('recording.addSlotTitle', { day: t(`recording.days.${day}`) })} icon={<PlusOutlined />}>
        {withLabel ? t('recording.addSlot') : undefined}
      </Button>
    </Popover>
  );
}
