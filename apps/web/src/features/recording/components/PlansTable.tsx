/** The plans table (name, when it records, save days, enabled, channel count) with edit and delete (confirmed). */
import { Button, Popconfirm, Space, Tag } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { usePhone } from '../../../components/usePhone';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { planEnabled, type PlanSummary } from '../api';
import { openPlanForm } from '../planFormLink';
import { modelOf, scheduleSummary } from '../scheduleModel';

interface Props {
  plans: PlanSummary[];
  total: number;
  loading?: boolean;
  page?: number;
  onPage?: (p: number) => void;
  onDelete: (p: PlanSummary) => void;
  compact?: boolean;
}

export function PlansTable({ plans, total, loading, page = 1, onPage, onDelete, compact }: Props) {
  const { t } = useTranslation();
  const phone = usePhone();
  const navigate = useNavigate();
  // The form returns to the page this table is on (the recording settings or the plans list).
  const { pathname, search } = useLocation();
  return (
    <ListTable<PlanSummary>
      data-testid="plans-table"
      rowKey="ID"
      size={compact ? 'small' : 'middle'}
      loading={loading}
      dataSource={plans}
      pagination={onPage ? { current: page, pageSize: 20, total, onChange: onPage, hideOnSinglePage: true } : false}
      columns={[
        { title: t('recording.planName'), dataIndex: 'Name' },
        {
          // When each plan records, without opening it (a list of plans was only names and numbers).
          // Whole, on as many lines as it takes: cut with an ellipsis it read "星期一–星期五 22:00–次日0…"
          // in /config/recording's list at 1366×768, the end of the slot only in a tooltip (session 27).
          // A phone's table scrolls sideways, where a cut column stays 200 px (ListTable).
          title: t('recording.schedule'),
          key: 'schedule',
          ellipsis: phone,
          render: (_, p) => {
            const text = scheduleSummary(modelOf(p.Schedule), (d) => t(`recording.days.${d}`), t('recording.everyDay'), t('recording.summarySep'), (time) => t('recording.nextDay', { time })) || '—';
            return (
              <span title={text} data-testid="plan-schedule">
                {text}
              </span>
            );
          },
        },
        // Fixed widths for the short columns: the times (cut with an ellipsis, whole in its tooltip) get the room.
        { title: t('recording.saveDays'), dataIndex: 'SaveDays', width: 110, render: (v: number) => t('recording.daysValue', { count: v }) },
        { title: t('recording.enabled'), width: 90, render: (_, p) => (planEnabled(p) ? <Tag color="green">{t('common.enabled')}</Tag> : <Tag>{t('common.disabled')}</Tag>) },
        { title: t('recording.channelCount'), width: 90, render: (_, p) => p.ChannelCount ?? 0 },
        {
          title: t('common.actions'),
          key: 'actions',
          width: 130,
          render: (_, p) => (
            <Space>
              <Button size="small" type="link" onClick={() => openPlanForm(navigate, pathname + search, p.ID)}>
                {t('common.edit')}
              </Button>
              <Popconfirm title={t('recording.deleteConfirm', { name: p.Name })} onConfirm={() => onDelete(p)} okButtonProps={{ danger: true }}>
                <Button size="small" type="link" danger>
                  {t('common.delete')}
                </Button>
              </Popconfirm>
            </Space>
          ),
        },
      ]}
    />
  );
}
