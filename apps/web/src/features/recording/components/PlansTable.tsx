/** The plans table (name, save days, enabled, channel count) with edit and delete (confirmed). */
import { Button, Popconfirm, Space, Tag } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { planEnabled, type RecordPlan } from '../api';
import { openPlanForm } from '../planFormLink';

interface Props {
  plans: RecordPlan[];
  total: number;
  loading?: boolean;
  page?: number;
  onPage?: (p: number) => void;
  onDelete: (p: RecordPlan) => void;
  compact?: boolean;
}

export function PlansTable({ plans, total, loading, page = 1, onPage, onDelete, compact }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The form returns to the page this table is on (the recording settings or the plans list).
  const { pathname, search } = useLocation();
  return (
    <ListTable<RecordPlan>
      data-testid="plans-table"
      rowKey="ID"
      size={compact ? 'small' : 'middle'}
      loading={loading}
      dataSource={plans}
      pagination={onPage ? { current: page, pageSize: 20, total, onChange: onPage, hideOnSinglePage: true } : false}
      columns={[
        { title: t('recording.planName'), dataIndex: 'Name' },
        { title: t('recording.saveDays'), dataIndex: 'SaveDays', render: (v: number) => t('recording.daysValue', { count: v }) },
        { title: t('recording.enabled'), render: (_, p) => (planEnabled(p) ? <Tag color="green">{t('common.enabled')}</Tag> : <Tag>{t('common.disabled')}</Tag>) },
        { title: t('recording.channelCount'), render: (_, p) => p.Channels?.length ?? 0 },
        {
          title: t('common.actions'),
          key: 'actions',
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
