import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { website } from '../../config';
import { useUserStore } from '../../store/user';
import { getCaptcha, sendSmsCode } from '../../api/user';
import { usePageTitle } from '../../util/title';
import { setLanguage } from '../../i18n';
import { PHONE_PATTERN } from '../../util/validate';
import { exactLength, matches, required, useFields } from '../../util/useFields';
import { IconEye, IconLock, IconPhone, IconShield, IconTeam, IconUser } from './icons';
import { SocialButtons, SocialRegisterDialog, socialCallback } from './SocialLogin';
import { preloadWorkspace } from '../../util/preload';
import { RESEND_SECONDS, countdownUntil, latestCountdown, retryAfterSeconds, startCountdown } from './smsCountdown';
import './login.css';

/*
 * The login page is plain React and CSS: the JavaScript loaded for /login must stay under
 * 200 KB gzip, and antd alone would take about half of that. It keeps antd's look.
 */

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'prefix'> {
  icon: ReactNode;
  error?: string;
  status?: 'error';
  addon?: ReactNode;
}

function Field({ icon, error, status, addon, type, ...input }: FieldProps) {
  const [show, setShow] = useState(false);
  const isPassword = type === 'password';
  return (
    <div className={`login-field${error ? ' has-error' : ''}`}>
      <div className="login-row">
        <label className={`login-input${status ? ' is-error' : ''}`}>
          <span className="login-input-icon">{icon}</span>
          <input {...input} type={isPassword && show ? 'text' : type} aria-invalid={Boolean(error)} />
          {isPassword && (
            <button type="button" className="login-eye" tabIndex={-1} aria-label="toggle password" onClick={() => setShow((s) => !s)}>
              <IconEye off={!show} />
            </button>
          )}
        </label>
        {addon}
      </div>
      <div className="login-error" role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}

function Submit({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="login-submit" disabled={loading}>
      {loading && <span className="login-spin" />}
      {children}
    </button>
  );
}

function AccountLogin({ onDone, onTenant }: { onDone: () => void; onTenant: (tenantId: string) => void }) {
  const { t } = useTranslation();
  const login = useUserStore((s) => s.login);
  const [loading, setLoading] = useState(false);
  const [captcha, setCaptcha] = useState<{ key: string; image: string }>();
  const f = useFields(
    { tenantId: website.tenantId, username: '', password: '', code: '' },
    {
      tenantId: website.tenantMode ? [required(t('login.tenantRequired'))] : [],
      username: [required(t('login.usernameRequired'))],
      password: [required(t('login.passwordRequired'))],
      code: website.captchaMode ? [required(t('login.codeRequired'))] : [],
    },
  );

  useEffect(() => onTenant(f.values.tenantId), [f.values.tenantId, onTenant]);

  const refreshCaptcha = useCallback(() => {
    if (!website.captchaMode) return;
    getCaptcha()
      .then((r) => setCaptcha(r.data))
      .catch(() => undefined);
  }, []);
  useEffect(refreshCaptcha, [refreshCaptcha]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!f.validate()) return;
    setLoading(true);
    try {
      const v = f.values;
      await login({ tenantId: v.tenantId, username: v.username, password: v.password, type: 'account', key: captcha?.key, code: v.code });
      onDone();
    } catch {
      // The request wrapper (or the store) showed error_description.
      f.set('code', '');
      refreshCaptcha();
    } finally {
      setLoading(false);
    }
  };

  return (
    <form name="login" onSubmit={(e) => void submit(e)} noValidate>
      {website.tenantMode && (
        <Field icon={<IconTeam />} placeholder={t('login.tenantId')} aria-label={t('login.tenantId')} autoComplete="organization" error={f.errors.tenantId} {...f.bind('tenantId')} />
      )}
      <Field icon={<IconUser />} placeholder={t('login.username')} aria-label={t('login.username')} autoComplete="username" error={f.errors.username} {...f.bind('username')} />
      <Field icon={<IconLock />} type="password" placeholder={t('login.password')} aria-label={t('login.password')} autoComplete="current-password" error={f.errors.password} {...f.bind('password')} />
      {website.captchaMode && (
        <Field
          icon={<IconShield />}
          placeholder={t('login.code')}
          aria-label={t('login.code')}
          maxLength={6}
          error={f.errors.code}
          {...f.bind('code')}
          addon={captcha && <img className="login-captcha" src={captcha.image} alt="captcha" onClick={refreshCaptcha} />}
        />
      )}
      <Submit loading={loading}>{loading ? t('login.loading') : t('login.submit')}</Submit>
    </form>
  );
}

function PhoneLogin({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const loginByPhone = useUserStore((s) => s.loginByPhone);
  const [loading, setLoading] = useState(false);
  // A countdown still running before a reload comes back with its phone (smsCountdown.ts).
  const [resumed] = useState(latestCountdown);
  const f = useFields(
    { tenantId: resumed?.tenantId ?? website.tenantId, phone: resumed?.phone ?? '', code: '' },
    {
      tenantId: website.tenantMode ? [required(t('login.tenantRequired'))] : [],
      phone: [required(t('login.phoneRequired')), exactLength(11, t('login.phoneLength')), matches(PHONE_PATTERN, t('login.phoneFormat'))],
      code: [required(t('login.codeRequired'))],
    },
  );
  const [now, setNow] = useState(Date.now);
  const until = countdownUntil(f.values.tenantId, f.values.phone, now);
  const countdown = Math.max(0, Math.ceil((until - now) / 1000));

  useEffect(() => {
    if (countdown <= 0) return undefined;
    const id = setTimeout(() => setNow(Date.now()), (until - now) % 1000 || 1000);
    return () => clearTimeout(id);
  }, [countdown, until, now]);

  const send = async () => {
    if (!f.validate(['tenantId', 'phone'])) return;
    const { tenantId, phone } = f.values;
    try {
      await sendSmsCode(tenantId, phone);
      startCountdown(tenantId, phone, Date.now() + RESEND_SECONDS * 1000);
    } catch (err) {
      // A 429 naming its wait counts that down; otherwise the wrapper has shown the server's message.
      const wait = retryAfterSeconds(err);
      if (wait) startCountdown(tenantId, phone, Date.now() + wait * 1000);
    }
    setNow(Date.now());
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!f.validate()) return;
    setLoading(true);
    try {
      await loginByPhone(f.values.tenantId, f.values.phone, f.values.code);
      onDone();
    } catch {
      /* the request wrapper showed the message */
    } finally {
      setLoading(false);
    }
  };

  return (
    <form name="phoneLogin" onSubmit={(e) => void submit(e)} noValidate>
      {website.tenantMode && (
        <Field icon={<IconTeam />} placeholder={t('login.tenantId')} aria-label={t('login.tenantId')} error={f.errors.tenantId} {...f.bind('tenantId')} />
      )}
      <Field icon={<IconPhone />} placeholder={t('login.phone')} aria-label={t('login.phone')} maxLength={11} inputMode="numeric" error={f.errors.phone} {...f.bind('phone')} />
      <Field
        icon={<IconShield />}
        placeholder={t('login.smsCode')}
        aria-label={t('login.smsCode')}
        maxLength={6}
        error={f.errors.code}
        {...f.bind('code')}
        addon={
          <button type="button" className="login-sms" disabled={countdown > 0} onClick={() => void send()}>
            {countdown > 0 ? t('login.resend', { n: countdown }) : t('login.sendCode')}
          </button>
        }
      />
      <Submit loading={loading}>{t('login.submit')}</Submit>
    </form>
  );
}

/**
 * The return of a social provider (/login?code=&state=&source=&tenantId=): the social token grant, then
 * either the workspace or, for an identity bound to no user, the registration dialog.
 */
function useSocialReturn(onDone: () => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const loginBySocial = useUserStore((s) => s.loginBySocial);
  const fedLogout = useUserStore((s) => s.fedLogout);
  const [busy, setBusy] = useState(false);
  const [register, setRegister] = useState<{ tenantId: string; oauthId: string; name?: string } | null>(null);
  const started = useRef(false);
  useEffect(() => {
    const cb = socialCallback(location.search);
    if (!cb || started.current) return;
    started.current = true;
    setBusy(true);
    loginBySocial(cb.tenantId ?? website.tenantId, cb.source, cb.code, cb.state)
      .then((r) => {
        if (r.register) setRegister({ tenantId: r.tenantId, oauthId: r.oauthId, name: r.name });
        else onDone();
      })
      .catch(() => void navigate('/login', { replace: true }))
      .finally(() => setBusy(false));
  }, [location.search, loginBySocial, navigate, onDone]);
  const registered = () => {
    setRegister(null);
    fedLogout();
    void navigate('/login', { replace: true });
  };
  return { busy, register, registered };
}

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  // Reloaded while a phone code's countdown runs: back on the phone tab (smsCountdown.ts).
  const [tab, setTab] = useState<'user' | 'phone'>(() => (latestCountdown() ? 'phone' : 'user'));
  const [tenantId, setTenantId] = useState(website.tenantId);
  usePageTitle('route.login');
  const onDone = useCallback(() => void navigate('/', { replace: true }), [navigate]);
  const social = useSocialReturn(onDone);
  useEffect(() => {
    // Returning from a social provider: the workspace is next.
    if (socialCallback(window.location.search)) preloadWorkspace();
  }, []);
  const other = i18n.language === 'en' ? 'zh' : 'en';

  return (
    <div className="login-container">
      <div className="login-weaper">
        <div className="login-left">
          <img className="login-logo" src="/favicon.svg" alt="" />
          <h2>{t('title')}</h2>
          <p>{t('login.info')}</p>
        </div>
        <div className="login-border" onFocusCapture={preloadWorkspace} onPointerDownCapture={preloadWorkspace}>
          <div className="login-main">
            <div className="login-top">
              <h3>{t('login.title')}</h3>
              <button type="button" className="login-lang" aria-label={t('navbar.language')} onClick={() => void setLanguage(other)}>
                {other === 'en' ? 'English' : '中文'}
              </button>
            </div>
            <div className="login-tabs" role="tablist">
              {(['user', 'phone'] as const).map((k) => (
                <button key={k} type="button" role="tab" aria-selected={tab === k} className={tab === k ? 'active' : ''} onClick={() => setTab(k)}>
                  {k === 'user' ? t('login.userLogin') : t('login.phoneLogin')}
                </button>
              ))}
            </div>
            {social.busy && <div className="login-notice">{t('login.socialSigningIn')}</div>}
            {tab === 'user' ? <AccountLogin key={`u-${i18n.language}`} onDone={onDone} onTenant={setTenantId} /> : <PhoneLogin key={`p-${i18n.language}`} onDone={onDone} />}
            <SocialButtons tenantId={tenantId} />
            <div className="login-links">
              <Link to="/register">{t('login.register')}</Link>
            </div>
          </div>
        </div>
      </div>
      {social.register && <SocialRegisterDialog {...social.register} onDone={social.registered} />}
    </div>
  );
}
