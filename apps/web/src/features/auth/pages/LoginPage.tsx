/** /login: user name and password; shows why the user was sent here (query msg, type 401). */
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DEFAULT_TITLE, VERSION } from '@opencvr/shared';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { RequestError } from '../../../lib/request';
import { useSession } from '../../../lib/stores/session';
import { fetchLoginConfig, login } from '../api';

/** Only same-site paths may be a post-login target. */
function safeRedirect(r: string | null): string {
  return r && r.startsWith('/') && !r.startsWith('//') && !r.startsWith('/login') ? r : '/video';
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const storeLogin = useSession((s) => s.login);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const cfg = useQuery({ queryKey: ['loginconfig'], queryFn: fetchLoginConfig, retry: false });

  const title = cfg.data?.Title || DEFAULT_TITLE;
  useEffect(() => {
    document.title = title;
  }, [title]);

  const notice = params.get('msg');
  const noticeType = params.get('type');

  const submit = async (v: { username: string; password: string }) => {
    setBusy(true);
    setError('');
    try {
      const body = await login(v.username.trim(), v.password);
      storeLogin(body.Token, body.UserInfo);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (err) {
      setError(err instanceof RequestError ? err.msg : t('common.networkError'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'linear-gradient(135deg,#0b2a4a,#1d5c96)' }}>
      <div style={{ position: 'absolute', top: 16, right: 16 }}>
        <LanguageSwitch />
      </div>
      <Card style={{ width: 380, maxWidth: '92vw' }}>
        <Typography.Title level={3} style={{ textAlign: 'center', marginBottom: 4 }}>
          {title}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          {t('login.subtitle')} · v{cfg.data?.Version || VERSION}
        </Typography.Paragraph>
        {notice && (
          <Alert style={{ marginBottom: 16 }} type="warning" showIcon title={noticeType === '401' ? t('login.sessionEnded') : undefined} description={notice} data-testid="login-notice" />
        )}
        {error && <Alert style={{ marginBottom: 16 }} type="error" showIcon title={error} data-testid="login-error" />}
        <Form layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="username" label={t('login.username')} rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('login.submit')}
          </Button>
        </Form>
        {cfg.data?.Copyright && (
          <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginTop: 16, marginBottom: 0, fontSize: 12 }}>
            {cfg.data.Copyright}
          </Typography.Paragraph>
        )}
      </Card>
    </div>
  );
}
