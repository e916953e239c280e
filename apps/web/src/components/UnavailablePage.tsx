/**
 * The frame of a page whose capability arrives with a later issue: its real title and an empty
 * state saying so. One component for all of them, fed by the route table.
 */
import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageTitle } from './PageTitle';

export default function UnavailablePage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <div style={{ padding: 16 }}>
      <PageTitle title={t(title)} />
      <Card>
        <Empty description={t('common.notAvailable')} data-testid="unavailable" />
      </Card>
    </div>
  );
}
