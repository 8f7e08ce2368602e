import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Col, Descriptions, Row, Space, Tag, Typography } from 'antd';
import { BugOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { version } from '../../../package.json';
import { useUserStore } from '../../store/user';
import { useCommonStore } from '../../store/common';
import { formatNow, useLogsStore } from '../../store/logs';
import { leafMenus } from '../../store/menu';
import { website } from '../../config';
import { buildId, clock, probe, tokenTimes, type ProbeResult } from './selfCheck';

const PROBES = ['/healthz', '/readyz'];

/** The current time, ticking every second. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return now;
}

const time = (ms?: number) => (ms ? formatNow(new Date(ms)) : '-');

type Rows = [key: string, label: ReactNode, value: ReactNode][];

/** One card of the page: a titled table of label and value rows (and anything below it). */
function Section({ title, extra, rows, children }: { title: string; extra?: ReactNode; rows?: Rows; children?: ReactNode }) {
  return (
    <Col xs={24} xl={12}>
      <Card size="small" title={title} extra={extra} style={{ height: '100%' }}>
        {rows && <Descriptions bordered size="small" column={1} items={rows.map(([key, label, children]) => ({ key, label, children }))} />}
        {children}
      </Card>
    </Col>
  );
}

/** Who is signed in, and how long the token has to live. */
function SessionCard() {
  const { t } = useTranslation();
  const { user, tenantId, roles, token, tokenDatetime, expiresIn, menus, buttons } = useUserStore(
    useShallow((s) => ({
      user: s.userInfo, tenantId: s.tenantId, roles: s.roles, token: s.token, tokenDatetime: s.tokenDatetime, expiresIn: s.expiresIn,
      menus: leafMenus(s.menuAll).length, buttons: Object.keys(s.permission).length,
    })),
  );
  const now = useNow();
  const times = tokenTimes(token, tokenDatetime, expiresIn);
  const left = times.expiresAt === undefined ? undefined : times.expiresAt - now;
  const name = user.realName || user.nickName || user.userName || '';
  const rows: Rows = [
    [
      'user',
      t('test.user'),
      <>
        {name}
        {user.account && name !== user.account && <Typography.Text type="secondary"> ({user.account})</Typography.Text>}
      </>,
    ],
    ['tenant', t('test.tenant'), user.tenantId || tenantId],
    ['roles', t('test.roles'), roles.length > 0 ? roles.map((r) => <Tag key={r}>{r}</Tag>) : '-'],
    ['grants', t('test.grants'), t('test.grantsValue', { menus, buttons })],
    [
      'left',
      t('test.tokenLeft'),
      left === undefined ? (
        '-'
      ) : left > 0 ? (
        <Tag color={left < 5 * 60_000 ? 'orange' : 'green'} role="timer">
          {clock(left)}
        </Tag>
      ) : (
        <Tag color="red">{t('test.tokenExpired')}</Tag>
      ),
    ],
    ['issued', t('test.tokenIssued'), time(times.issuedAt)],
    ['expires', t('test.tokenExpires'), time(times.expiresAt)],
    ['refresh', t('test.tokenRefresh'), time(times.refreshAt)],
  ];
  return <Section title={t('test.session')} rows={rows} />;
}

/** The server's liveness and readiness answers with their round trips. */
function ServerCard() {
  const { t } = useTranslation();
  const [results, setResults] = useState<ProbeResult[]>([]);
  const [checking, setChecking] = useState(false);
  const [checkedAt, setCheckedAt] = useState<number>();
  const check = useCallback(async () => {
    setChecking(true);
    const r = await Promise.all(PROBES.map((u) => probe(u)));
    setResults(r);
    setCheckedAt(Date.now());
    setChecking(false);
  }, []);
  useEffect(() => {
    void check();
  }, [check]);
  const rows: Rows = PROBES.map((url) => {
    const r = results.find((x) => x.url === url);
    return [
      url,
      <code key={url}>{url}</code>,
      r ? (
        <Space size={6} wrap>
          <Tag color={r.ok ? 'green' : 'red'}>{r.status || t('test.unreachable')}</Tag>
          <Typography.Text code>{r.body || '-'}</Typography.Text>
          <Typography.Text type="secondary">{t('test.roundTrip', { ms: r.ms })}</Typography.Text>
        </Space>
      ) : (
        t('test.checking')
      ),
    ];
  });
  rows.push(['at', t('test.checkedAt'), time(checkedAt)]);
  return (
    <Section
      title={t('test.server')}
      rows={rows}
      extra={
        <Button size="small" icon={<ReloadOutlined />} loading={checking} onClick={() => void check()}>
          {t('test.checkAgain')}
        </Button>
      }
    />
  );
}

/** What runs in this browser: version, build, language, theme. */
function AppCard() {
  const { t, i18n } = useTranslation();
  const themeName = useCommonStore((s) => s.themeName);
  const colorName = useCommonStore((s) => s.colorName);
  const build = buildId();
  const rows: Rows = [
    ['version', t('test.version'), version],
    ['build', t('test.build'), build ?? (import.meta.env.DEV ? t('test.devBuild') : '-')],
    [
      'language',
      t('test.language'),
      <>
        {i18n.language === 'en' ? 'English' : '中文'} <Typography.Text type="secondary">({i18n.language})</Typography.Text>
      </>,
    ],
    [
      'theme',
      t('test.theme'),
      <>
        {t(`theme.names.${themeName}`, { defaultValue: themeName })} <Typography.Text type="secondary">({themeName})</Typography.Text>
      </>,
    ],
    [
      'color',
      t('test.color'),
      <Space size={6}>
        <span style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background: colorName, border: '1px solid rgba(0,0,0,.15)' }} aria-hidden />
        {colorName}
      </Space>,
    ],
  ];
  return <Section title={t('test.app')} rows={rows} />;
}

/** A button that throws, to try the error-log widget of the top bar. */
function ErrorCard() {
  const { t } = useTranslation();
  const count = useLogsStore((s) => s.logsList.length);
  return (
    <Section title={t('test.errorLog')}>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Paragraph style={{ margin: 0 }}>{t('test.errorLogHint')}</Typography.Paragraph>
        {!website.setting.errlog && <Alert type="warning" showIcon title={t('test.errorLogOff')} />}
        <Space wrap>
          <Button
            danger
            icon={<BugOutlined />}
            onClick={() => {
              throw new Error(t('test.thrown'));
            }}
          >
            {t('test.throw')}
          </Button>
          <Typography.Text type="secondary">{t('test.errorCount', { count })}</Typography.Text>
        </Space>
      </Space>
    </Section>
  );
}

/** /test/index: a self-check for administrators (spec §2 "test page"). */
export default function TestPage() {
  return (
    <Row gutter={[16, 16]} className="bb-selfcheck">
      <SessionCard />
      <ServerCard />
      <AppCard />
      <ErrorCard />
    </Row>
  );
}
