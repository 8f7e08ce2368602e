import { useMemo, useState, type ReactNode } from 'react';
import { Input, InputNumber, Select, Space, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import ResourceCrud from '../resource/ResourceCrud';
import type { Row } from '../resource/types';
import { WithMeta } from '../system/common';
import { useUserStore } from '../store/user';

/** Alert kinds: the keys of the stock_alert_type dictionary. */
export const ALERT_COLORS: Record<number, string> = { 1: 'orange', 2: 'red', 3: 'blue', 4: 'gold', 5: 'red' };

export function AlertTag({ kind, t, children }: { kind: number; t: TFunction; children?: ReactNode }) {
  return (
    // wraps in a narrow column instead of being cut
    <Tag color={ALERT_COLORS[kind]} style={{ marginInlineEnd: 4, marginBlock: 1, whiteSpace: 'normal' }}>
      {children ?? t(`stock.alert${kind}`)}
    </Tag>
  );
}

/** The tag of a batch's expiry: expired N days ago, due today, or in N days. */
export function expiryTag(row: Row, t: TFunction): ReactNode {
  const days = Number(row.daysLeft);
  if (!row.expiryDate || Number.isNaN(days)) return null;
  if (days < 0) return <AlertTag kind={5} t={t}>{t('stock.expiredAgo', { n: -days })}</AlertTag>;
  return <AlertTag kind={4} t={t}>{days === 0 ? t('stock.dueToday') : t('stock.daysLeft', { n: days })}</AlertTag>;
}

// What a level alert is about comes first: the levels beside the quantity they are compared with.
const THRESHOLD_COLUMNS = ['materialCode', 'materialName', 'alertType', 'availableQty', 'safetyStock', 'minStock', 'maxStock', 'qty', 'shortageQty', 'excessQty', 'lockedQty', 'spec', 'unit'];
const EXPIRY_COLUMNS = ['materialCode', 'materialName', 'batchNo', 'expiryDate', 'qty', 'availableQty', 'warehouseName', 'positionName', 'productionDate', 'lockedQty', 'spec', 'unit'];

const gap = (color: string) => (v: unknown) => (v ? <Typography.Text style={{ color }}>{String(v)}</Typography.Text> : null);

/** Materials against their safety, minimum and maximum stock. */
function ThresholdTab({ exportable }: { exportable: boolean }) {
  const { t } = useTranslation();
  const cells = useMemo(
    () => ({
      alertType: (_: unknown, row: Row) => (
        <>
          {((row.alerts as number[] | undefined) ?? []).map((k) => (
            <AlertTag key={k} kind={k} t={t} />
          ))}
        </>
      ),
      shortageQty: gap('#cf1322'),
      excessQty: gap('#0958d9'),
    }),
    [t],
  );
  return (
    <WithMeta code="stockthreshold">
      {(meta) => <ResourceCrud meta={meta} cells={cells} listFields={THRESHOLD_COLUMNS} hide={exportable ? ['view'] : ['view', 'export']} queryKey="monitor-threshold" />}
    </WithMeta>
  );
}

/** Batches expiring within N days, and expired ones. */
function ExpiryTab({ exportable }: { exportable: boolean }) {
  const { t } = useTranslation();
  const [days, setDays] = useState<number>(30);
  const [kind, setKind] = useState<string>('');
  const [keyword, setKeyword] = useState<string>('');
  const params = useMemo(() => ({ days: String(days), alertType: kind || undefined, keyword: keyword || undefined }), [days, kind, keyword]);
  const cells = useMemo(
    () => ({
      // the date over its tag: the column is as narrow as a date
      expiryDate: (v: unknown, row: Row) => (
        <div>
          <div>{String(v ?? '')}</div>
          {expiryTag(row, t)}
        </div>
      ),
    }),
    [t],
  );
  const toolbar = () => (
    <Space wrap>
      <Space.Compact>
        <InputNumber aria-label={t('stock.days')} min={0} max={3650} precision={0} value={days} onChange={(v) => setDays(typeof v === 'number' ? v : 30)} style={{ width: 90 }} />
        <Input readOnly value={t('stock.daysSuffix')} style={{ width: 130, pointerEvents: 'none' }} tabIndex={-1} />
      </Space.Compact>
      <Select
        aria-label={t('stock.kind')}
        value={kind}
        onChange={setKind}
        style={{ width: 150 }}
        options={[
          { value: '', label: t('stock.kindAll') },
          { value: '4', label: t('stock.alert4') },
          { value: '5', label: t('stock.alert5') },
        ]}
      />
      <Input.Search aria-label={t('stock.keyword')} placeholder={t('stock.keyword')} allowClear onSearch={setKeyword} style={{ width: 200 }} />
    </Space>
  );
  return (
    <WithMeta code="stockexpiry">
      {(meta) => (
        <ResourceCrud meta={meta} params={params} cells={cells} listFields={EXPIRY_COLUMNS} toolbar={toolbar} hide={exportable ? ['view'] : ['view', 'export']} queryKey="monitor-expiry" />
      )}
    </WithMeta>
  );
}

/** /system/user/monitor: threshold monitoring of material stock (menu user_monitor). */
export default function StockMonitorPage() {
  const { t } = useTranslation();
  // both tabs export under the menu's export button
  const exportable = useUserStore((s) => s.permission.user_monitor_export === true);
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'threshold', label: t('stock.thresholdTab'), children: <ThresholdTab exportable={exportable} /> },
        { key: 'expiry', label: t('stock.expiryTab'), children: <ExpiryTab exportable={exportable} /> },
      ]}
    />
  );
}
