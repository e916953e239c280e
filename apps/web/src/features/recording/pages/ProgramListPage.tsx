/** /config/program: recording plans (name, save days, enabled, channel count), add, edit, delete. */
import { useState } from 'react';
import { Card, Input } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PageTitle } from '../../../components/PageTitle';
import { ListToolbar } from '../../../components/ListToolbar';
import { useDebounced } from '../../../lib/useDebounced';
import { PlansTable } from '../components/PlansTable';
import { openPlanForm } from '../planFormLink';
import { usePlans } from '../usePlans';

export default function ProgramListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const { list, remove } = usePlans(page, query);
  return (
    <div style={{ padding: 16 }}>
      <PageTitle
        title={t('route.configProgram')}
        extra={
          <ListToolbar
            search={<Input.Search allowClear placeholder={t('recording.search')} value={q} onChange={(e) => { setQ(e.target.value); setPage(1); }} style={{ width: 220 }} />}
            primary={{ label: t('recording.addPlan'), icon: <PlusOutlined />, onClick: () => openPlanForm(navigate, '/config/program') }}
          />
        }
      />
      <Card>
        <PlansTable plans={list.data?.Plans ?? []} total={list.data?.Total ?? 0} loading={list.isLoading} page={page} onPage={setPage} onDelete={(p) => void remove(p)} />
      </Card>
    </div>
  );
}
