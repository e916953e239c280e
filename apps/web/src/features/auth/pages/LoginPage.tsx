/** /login: user name and password; shows why the user was sent here (query msg, type 401). */
import {
  useEffect,
  useState,
  type CSSProperties,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { Alert, Button } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DEFAULT_TITLE, VERSION } from '@opencvr/shared';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { RequestError } from '../../../lib/request';
import { useSession } from '../../../lib/stores/session';
import { fetchLoginConfig, login } from '../api';

const CARD: CSSProperties = {
  width: 380,
  maxWidth: '92vw',
  padding: 24,
  background: '#fff',
  borderRadius: 8,
  boxShadow: '0 6px 16px rgba(0,0,0,0.08), 0 3px 6px -4px rgba(0,0,0,0.12)',
  fontSize: 14,
};
const TITLE: CSSProperties = {
  textAlign: 'center',
  margin: '0 0 4px',
  fontSize: 24,
  fontWeight: 600,
  lineHeight: 1.35,
  color: 'rgba(0,0,0,0.88)',
};
const SECONDARY: CSSProperties = { textAlign: 'center', margin: 0, color: 'rgba(0,0,0,0.45)' };
const LABEL: CSSProperties = { display: 'block', paddingBottom: 8, color: 'rgba(0,0,0,0.88)' };
const FIELD_ERROR: CSSProperties = { color: '#ff4d4f', minHeight: 22, lineHeight: '22px' };

// antd's input look (border, radius, focus ring, error colour) for two native inputs: antd's Input
// would bring its form context, text area and tooltip code to the first page.
const INPUT_CSS = `
.ocvr-login-input{display:flex;align-items:center;gap:8px;padding:4px 11px;border:1px solid #d9d9d9;border-radius:6px;background:#fff;transition:border-color .2s,box-shadow .2s;color:rgba(0,0,0,.88)}
.ocvr-login-input:hover{border-color:#4096ff}
.ocvr-login-input:focus-within{border-color:#1677ff;box-shadow:0 0 0 2px rgba(5,145,255,.1)}
.ocvr-login-input[data-invalid=true]{border-color:#ff4d4f}
.ocvr-login-input[data-invalid=true]:focus-within{box-shadow:0 0 0 2px rgba(255,38,5,.06)}
.ocvr-login-input input{flex:1;min-width:0;border:0;outline:0;padding:0;font:inherit;line-height:1.5714;color:inherit;background:transparent}
.ocvr-login-input .anticon{color:rgba(0,0,0,.45)}
`;

function TextInput({
  icon,
  invalid,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { icon: ReactNode; invalid: boolean }) {
  return (
    <span className="ocvr-login-input" data-invalid={invalid}>
      {icon}
      <input {...props} aria-invalid={invalid} aria-describedby={invalid ? `${props.id}_help` : undefined} />
    </span>
  );
}

/** A labelled field with its validation text (what antd's Form.Item would draw). */
function Field({ id, label, error, children }: { id: string; label: string; error: string; children: ReactNode }) {
  return (
    <div style={{ marginBottom: error ? 2 : 24 }}>
      <label htmlFor={id} style={LABEL}>
        {label}
      </label>
      {children}
      {error && (
        <div role="alert" id={`${id}_help`} style={FIELD_ERROR}>
          {error}
        </div>
      )}
    </div>
  );
}

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
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // Field messages appear once the user has submitted or left the field empty after typing.
  const [touched, setTouched] = useState({ username: false, password: false });
  const [busy, setBusy] = useState(false);
  const cfg = useQuery({ queryKey: ['loginconfig'], queryFn: fetchLoginConfig, retry: false });

  const title = cfg.data?.Title || DEFAULT_TITLE;
  useEffect(() => {
    document.title = title;
  }, [title]);

  const notice = params.get('msg');
  const noticeType = params.get('type');

  const usernameError = touched.username && !username.trim() ? t('login.usernameRequired') : '';
  const passwordError = touched.password && !password ? t('login.passwordRequired') : '';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched({ username: true, password: true });
    if (!username.trim() || !password || busy) return;
    void submit({ username, password });
  };

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
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg,#0b2a4a,#1d5c96)',
      }}
    >
      <div style={{ position: 'absolute', top: 16, right: 16 }}>
        <LanguageSwitch />
      </div>
      {/* Plain markup for the frame: antd's Card and Typography would bring tabs, menus and tooltips. */}
      <style>{INPUT_CSS}</style>
      <main style={CARD}>
        <h1 style={TITLE}>{title}</h1>
        <p style={{ ...SECONDARY, marginBottom: 16 }}>
          {t('login.subtitle')} · v{cfg.data?.Version || VERSION}
        </p>
        {notice && (
          <Alert
            style={{ marginBottom: 16 }}
            type="warning"
            showIcon
            title={noticeType === '401' ? t('login.sessionEnded') : undefined}
            description={notice}
            data-testid="login-notice"
          />
        )}
        {error && <Alert style={{ marginBottom: 16 }} type="error" showIcon title={error} data-testid="login-error" />}
        {/* A plain form: antd's Form would bring its validator, grid and tooltips to the first page. */}
        <form onSubmit={onSubmit} noValidate>
          <Field id="username" label={t('login.username')} error={usernameError}>
            <TextInput
              id="username"
              icon={<UserOutlined />}
              autoComplete="username"
              autoFocus
              value={username}
              invalid={!!usernameError}
              onChange={(e) => {
                setUsername(e.target.value);
                setTouched((s) => ({ ...s, username: true }));
              }}
            />
          </Field>
          <Field id="password" label={t('login.password')} error={passwordError}>
            <TextInput
              id="password"
              type="password"
              icon={<LockOutlined />}
              autoComplete="current-password"
              value={password}
              invalid={!!passwordError}
              onChange={(e) => {
                setPassword(e.target.value);
                setTouched((s) => ({ ...s, password: true }));
              }}
            />
          </Field>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('login.submit')}
          </Button>
        </form>
        {cfg.data?.Copyright && <p style={{ ...SECONDARY, marginTop: 16, fontSize: 12 }}>{cfg.data.Copyright}</p>}
      </main>
    </div>
  );
}
