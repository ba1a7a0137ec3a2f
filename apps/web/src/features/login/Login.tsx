/**
 * The sign-in page, drawn in plain React and CSS in antd's look (Card, a large vertical Form, Input with
 * prefix icons, Input.Password, a primary Button): loading antd's runtime for one form would more than
 * double the page's first load (docs/performance.md, "Web client and start-up"). The validation
 * messages, labels and keyboard use are those of the antd form it replaces.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PRODUCT_TITLE, shanghaiParts } from '@zhyy/shared';
import { login } from '../../api/account';
import { safeRedirect } from '../../router/guard';
import { preloadSignedIn } from '../../router/preload';
import { useSession } from '../../stores/session';
import { useSettings } from '../../stores/settings';
import { forgetSignOutReason, readSignOutReason } from '../../utils/storage';
import { EYE_ICON, EYE_INVISIBLE_ICON, LOADING_ICON, LOCK_ICON, USER_ICON, WARNING_ICON } from './loginIcons';
import './login.css';

interface LoginForm {
  name: string;
  password: string;
}

type Field = keyof LoginForm;

/** The rules of the form, with the messages the antd form had. */
function problemOf(field: Field, value: string): string | null {
  if (field === 'name') return value.trim() === '' ? '请输入用户名' : null;
  return value === '' ? '请输入密码' : null;
}

function Icon({ paths, viewBox = '64 64 896 896', className }: { paths: readonly string[]; viewBox?: string; className?: string }) {
  return (
    <span className={`login-icon${className ? ` ${className}` : ''}`} role="img" aria-hidden="true">
      <svg viewBox={viewBox} width="1em" height="1em" fill="currentColor" focusable="false">
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    </span>
  );
}

/** The sign-in page; after success the redirect query or '/' (where the landing rules apply). */
export default function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const colour = useSettings((s) => s.themeColour);
  const [loading, setLoading] = useState(false);
  const [values, setValues] = useState<LoginForm>({ name: '', password: '' });
  // A field's message shows once it was changed or the form was sent (as antd's onChange validation).
  const [checked, setChecked] = useState<Record<Field, boolean>>({ name: false, password: false });
  const [showPassword, setShowPassword] = useState(false);
  const refs = { name: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };
  const id = useId();
  // Why the last session ended (强制下线, expired …), said once, above the form.
  const [signOutReason] = useState(readSignOutReason);
  useEffect(forgetSignOutReason, []);

  const problems: Record<Field, string | null> = {
    name: checked.name ? problemOf('name', values.name) : null,
    password: checked.password ? problemOf('password', values.password) : null,
  };

  function change(field: Field, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    setChecked((c) => ({ ...c, [field]: true }));
    preloadSignedIn();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    setChecked({ name: true, password: true });
    const first = (['name', 'password'] as const).find((f) => problemOf(f, values[f]));
    if (first) {
      refs[first].current?.focus();
      return;
    }
    setLoading(true);
    try {
      const r = await login({ name: values.name.trim(), password: values.password });
      const session = useSession.getState();
      session.setToken(r.token);
      if (r.needChangePassword) session.raisePasswordFlag();
      await navigate(safeRedirect(params.get('redirect')) ?? '/', { replace: true });
    } catch {
      // The request layer showed the reason (用户名或密码错误, the lock message, ...).
    } finally {
      setLoading(false);
    }
  }

  const field = (name: Field, label: string, input: React.ReactNode) => (
    <div className={`login-field${problems[name] ? ' login-field-error' : ''}`}>
      <label className="login-label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      {input}
      <div className="login-explain" id={`${id}-${name}-explain`}>
        {problems[name] ? <div role="alert">{problems[name]}</div> : null}
      </div>
    </div>
  );
  const aria = (name: Field) => ({
    id: `${id}-${name}`,
    'aria-invalid': problems[name] ? true : undefined,
    'aria-describedby': problems[name] ? `${id}-${name}-explain` : undefined,
    'aria-required': true,
  });

  return (
    <div className="login-page" style={{ ['--login-primary' as string]: colour }}>
      <div className="login-card">
        <div className="login-brand">
          <img src="/logo.svg" alt="" width={44} height={44} />
          <h3 className="login-title">{PRODUCT_TITLE}</h3>
          <span className="login-subtitle">请使用工号或用户名登录</span>
        </div>
        {signOutReason ? (
          <div className="login-reason" role="alert" data-testid="sign-out-reason">
            <Icon paths={WARNING_ICON} className="login-reason-icon" />
            <span>{signOutReason}</span>
          </div>
        ) : null}
        <form onSubmit={submit} autoComplete="on" aria-label="登录表单" noValidate>
          {field(
            'name',
            '用户名',
            <span className="login-input">
              <Icon paths={USER_ICON} className="login-prefix" />
              <input ref={refs.name} {...aria('name')} name="name" value={values.name} onChange={(e) => change('name', e.target.value)} autoComplete="username" maxLength={64} autoFocus />
            </span>,
          )}
          {field(
            'password',
            '密码',
            <span className="login-input">
              <Icon paths={LOCK_ICON} className="login-prefix" />
              <input
                ref={refs.password}
                {...aria('password')}
                name="password"
                type={showPassword ? 'text' : 'password'}
                value={values.password}
                onChange={(e) => change('password', e.target.value)}
                autoComplete="current-password"
                maxLength={128}
              />
              <button type="button" className="login-eye" aria-label={showPassword ? '隐藏密码' : '显示密码'} aria-pressed={showPassword} onClick={() => setShowPassword((v) => !v)}>
                <Icon paths={showPassword ? EYE_ICON : EYE_INVISIBLE_ICON} />
              </button>
            </span>,
          )}
          <button type="submit" className={`login-submit${loading ? ' login-submit-loading' : ''}`} aria-busy={loading || undefined}>
            {loading ? <Icon paths={LOADING_ICON} viewBox="0 0 1024 1024" className="login-spin" /> : null}
            <span>登录</span>
          </button>
        </form>
      </div>
      <div className="login-footer">© {shanghaiParts(Date.now()).year} {PRODUCT_TITLE}</div>
    </div>
  );
}
