/**
 * /initial: the initialisation form as a page, for an administrator who opens it directly. On this
 * page the form is the page: the initialisation dialog does not open over it (setup/rules
 * dialogsAllowedOn). Once the platform is initialised the page says so instead of offering a form
 * the server would refuse; while the login page is on its way after a success the form stays.
 */
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { msg } from '../../../i18n';
import { useConfig } from '../../../lib/stores/config';
import { useSession } from '../../../lib/stores/session';
import { useUi } from '../../../lib/stores/ui';
import { PasswordForm } from '../components/PasswordForm';
import { useInitialise } from '../hooks';

export default function InitialPage() {
  const { t } = useTranslation();
  const username = useSession((s) => s.userinfo?.name ?? '');
  const initial = useConfig((s) => (s.otherConfig ?? s.homeConfig)?.Initial === true);
  const sessionEnding = useUi((s) => s.sessionEnding);
  const init = useInitialise();
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 24 }}>
      <Card title={t('password.initTitle')} style={{ width: 560, maxWidth: '100%' }}>
        {initial || sessionEnding ? (
          <PasswordForm initial requireUsername initialUsername={username} submitting={init.submitting} onSubmit={init.submit} />
        ) : (
          <Result
            status="success"
            title={msg('alreadyInitialised')}
            extra={
              <Link to="/video">
                <Button type="primary">{t('route.videoSquare')}</Button>
              </Link>
            }
          />
        )}
      </Card>
    </div>
  );
}
