import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getSocialProviders, registerGuest, socialRenderUrl, type SocialProvider } from '../../api/user';
import { RequestError } from '../../api/request';
import { toast } from '../../util/notify';
import { required, useFields } from '../../util/useFields';
import { IconLock, IconTeam, IconUser } from './icons';

/** The query a provider sends the browser back with: /login?code=&state=&source=&tenantId=. */
export function socialCallback(search: string): { code: string; state: string; source: string; tenantId?: string } | null {
  const q = new URLSearchParams(search);
  const code = q.get('code');
  const state = q.get('state');
  const source = q.get('source');
  if (!code || !state || !source) return null;
  return { code, state, source, tenantId: q.get('tenantId') ?? undefined };
}

/** Buttons for the tenant's configured social providers; each goes to the server's render endpoint. */
export function SocialButtons({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const [providers, setProviders] = useState<SocialProvider[]>([]);
  useEffect(() => {
    const id = tenantId.trim();
    if (!id) {
      setProviders([]);
      return undefined;
    }
    let alive = true;
    const timer = setTimeout(() => {
      getSocialProviders(id)
        .then((r) => alive && setProviders(r.data.data ?? []))
        .catch(() => alive && setProviders([]));
    }, 300);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [tenantId]);
  if (providers.length === 0) return null;
  return (
    <div className="login-social">
      <div className="login-social-title">
        <span>{t('login.thirdLogin')}</span>
      </div>
      <div className="login-social-list">
        {providers.map((p) => (
          <a key={p.source} className="login-social-btn" href={socialRenderUrl(p.source, tenantId.trim())} title={p.name}>
            <span className="login-social-icon" aria-hidden>
              {(p.name || p.source).slice(0, 1).toUpperCase()}
            </span>
            {p.name || p.source}
          </a>
        ))}
      </div>
    </div>
  );
}

/**
 * Registration of a third-party identity bound to no user ('account registration', spec §2): posts
 * register-guest with the oauth id, shows 注册申请已提交,请耐心等待管理员通过! and closes (the caller logs out).
 */
export function SocialRegisterDialog({ tenantId, name, oauthId, onDone }: { tenantId: string; name?: string; oauthId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(false);
  const f = useFields(
    { tenantId, name: name ?? '', account: '', password: '', password2: '' },
    {
      tenantId: [required(t('register.tenantRequired'))],
      account: [required(t('register.accountRequired'))],
      password: [required(t('register.passwordRequired'))],
      password2: [required(t('register.passwordRequired'))],
    },
  );
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!f.validate()) return;
    if (f.values.password !== f.values.password2) {
      f.setError('password2', t('register.mismatch'));
      return;
    }
    setLoading(true);
    try {
      const v = f.values;
      await registerGuest({ tenantId: v.tenantId.trim(), name: v.name.trim(), account: v.account.trim(), password: v.password }, oauthId);
      toast.success(t('register.submitted'));
      onDone();
    } catch (err) {
      if (!(err instanceof RequestError) || err.code === undefined) toast.error(t('register.failed'));
    } finally {
      setLoading(false);
    }
  };
  const field = (k: 'tenantId' | 'name' | 'account' | 'password' | 'password2', label: string, icon: ReactNode, type = 'text') => (
    <div className={`login-field${f.errors[k] ? ' has-error' : ''}`}>
      <label className={`login-input${f.errors[k] ? ' is-error' : ''}`}>
        <span className="login-input-icon">{icon}</span>
        <input {...f.bind(k)} type={type} placeholder={label} aria-label={label} aria-invalid={Boolean(f.errors[k])} autoComplete={type === 'password' ? 'new-password' : 'off'} />
      </label>
      <div className="login-error" role={f.errors[k] ? 'alert' : undefined}>
        {f.errors[k]}
      </div>
    </div>
  );
  return (
    <div className="login-mask" role="dialog" aria-modal="true" aria-label={t('register.title')}>
      <form className="login-dialog" name="socialRegister" onSubmit={(e) => void submit(e)} noValidate>
        <h3>{t('register.title')}</h3>
        {field('tenantId', t('register.tenantId'), <IconTeam />)}
        {field('name', t('register.name'), <IconUser />)}
        {field('account', t('register.account'), <IconUser />)}
        {field('password', t('register.password'), <IconLock />, 'password')}
        {field('password2', t('register.password2'), <IconLock />, 'password')}
        <button type="submit" className="login-submit" disabled={loading}>
          {loading && <span className="login-spin" />}
          {t('register.submit')}
        </button>
      </form>
    </div>
  );
}
