/** /initial: the initialisation form as a page, for an administrator who opens it directly. */
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/stores/session';
import { PasswordForm } from '../components/PasswordForm';
import { useInitialise } from '../hooks';

export default function InitialPage() {
  const { t } = useTranslation();
  const username = useSession((s) => s.userinfo?.name ?? '');
  const init = useInitialise();
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 24 }}>
      <Card title={t('password.initTitle')} style={{ width: 560, maxWidth: '100%' }}>
        <PasswordForm initial requireUsername initialUsername={username} submitting={init.submitting} onSubmit={init.submit} />
      </Card>
    </div>
  );
}
