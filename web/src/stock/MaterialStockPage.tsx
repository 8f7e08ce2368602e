import { useMemo, useState } from 'react';
import { Drawer, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import ResourceCrud, { RowButton } from '../resource/ResourceCrud';
import type { Row } from '../resource/types';
import { WithMeta } from '../system/common';

/** The ledger columns that explain a bucket's quantity (its batch is the bucket's; the material's show it). */
const LEDGER_FIELDS: Record<Scope, string[]> = {
  bucket: ['postedAt', 'txType', 'bizNo', 'qty', 'balanceQty', 'unitCost', 'amount'],
  item: ['postedAt', 'txType', 'bizNo', 'batchNo', 'qty', 'balanceQty', 'unitCost', 'amount'],
};

/** The drawer's rows are one bucket's or one material's: searched only by what tells its movements apart. */
const LEDGER_SEARCH = ['txType', 'bizNo'];

/** The stock list: what and where first, then the quantities and their value. */
const STOCK_FIELDS = ['materialCode', 'materialName', 'warehouseName', 'batchNo', 'qty', 'lockedQty', 'availableQty', 'amount', 'positionName', 'avgCost', 'expiryDate', 'unit', 'spec', 'model', 'productionDate', 'lastPostedAt'];

type Scope = 'bucket' | 'item';

/** The ledger rows of a stock row: its bucket's (item, warehouse, location, batch), or all of its material's. */
export function ledgerParams(row: Row, scope: Scope): Record<string, string | undefined> {
  const str = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : String(v));
  if (scope === 'item') return { itemId: str(row.materialId) };
  return {
    itemId: str(row.materialId),
    warehouseId: str(row.warehouseId),
    positionId: str(row.positionId),
    // a bucket without a batch is not every batch's: its ledger rows have none
    ...(str(row.batchNo) ? { batchNo_equal: str(row.batchNo) } : { batchNo_null: '' }),
  };
}

function LedgerDrawer({ row, onClose }: { row: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const [scope, setScope] = useState<Scope>('bucket');
  const params = useMemo(() => ledgerParams(row, scope), [row, scope]);
  const signed = useMemo(
    () => ({
      qty: (v: unknown) => {
        const s = String(v ?? '');
        return <Typography.Text type={s.startsWith('-') ? 'danger' : 'success'}>{s.startsWith('-') ? s : `+${s}`}</Typography.Text>;
      },
    }),
    [],
  );
  const place = [row.warehouseName, row.positionName, row.batchNo].filter(Boolean).join(' / ');
  return (
    <Drawer open size={1180} onClose={onClose} destroyOnHidden title={t('stock.ledgerTitle', { name: `${String(row.materialCode ?? '')} ${String(row.materialName ?? '')}` })}>
      <Segmented<Scope>
        value={scope}
        onChange={setScope}
        options={[
          { value: 'bucket', label: t('stock.ledgerBucket') },
          { value: 'item', label: t('stock.ledgerItem') },
        ]}
        style={{ marginBottom: 8 }}
      />
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {scope === 'bucket' ? `${place}: ${t('stock.ledgerBucketNote', { qty: row.qty, locked: row.lockedQty })}` : t('stock.ledgerItemNote')}
      </Typography.Paragraph>
      <WithMeta code="stockledger">
        {(meta) => (
          <ResourceCrud
            meta={meta}
            params={params}
            listEndpoint="selectStockLedgerVOPage"
            listFields={LEDGER_FIELDS[scope]}
            extraColumns={scope === 'item' ? [{ key: 'place', title: t('stock.ledgerBucket'), width: 200, render: (_: unknown, r: Row) => [r.warehouseName, r.positionName].filter(Boolean).join(' / ') }] : undefined}
            cells={signed}
            searchFields={LEDGER_SEARCH}
            hide={['view', 'export']}
            queryKey={`ledger-${String(row.id)}-${scope}`}
          />
        )}
      </WithMeta>
    </Drawer>
  );
}

/** /stock/material-stock: the stock of each bucket, with its ledger one click away (menu material_stock). */
export default function MaterialStockPage() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Row | null>(null);
  return (
    <>
      <WithMeta code="material_stock">
        {(meta) => (
          <ResourceCrud
            meta={meta}
            listFields={STOCK_FIELDS}
            hide={['view']}
            rowActions={(row) => <RowButton onClick={() => setOpen(row)}>{t('stock.ledger')}</RowButton>}
          />
        )}
      </WithMeta>
      {open && <LedgerDrawer row={open} onClose={() => setOpen(null)} />}
    </>
  );
}
