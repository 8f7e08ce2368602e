-- +goose Up
-- The stock core (domain.md §2): one append-only ledger, the balance of
-- every bucket (item, warehouse, position, batch) beside it, batches, the
-- moving-average cost per item, the locks outbound documents hold and the
-- freezes of a running count. Only internal/stock writes these tables, and
-- the ledger only ever gains rows. Quantities decimal(20,6), unit costs
-- decimal(20,6), amounts decimal(24,6) (valuation keeps six places; screens
-- show money at four). Kinds, transaction types and directions are the keys
-- of the dictionaries item_kind, stock_tx_type and stock_direction. Dates of batches are yyyy-MM-dd text: they sort as
-- dates and carry no time zone.
CREATE TABLE bb_stock_ledger (
  {{base}},
  item_kind INTEGER NOT NULL,
  item_id BIGINT NOT NULL,
  item_code VARCHAR(64) NOT NULL DEFAULT '',
  warehouse_id BIGINT NOT NULL,
  position_id BIGINT NOT NULL,
  batch_no VARCHAR(64) NOT NULL DEFAULT '',
  tx_type INTEGER NOT NULL,
  direction INTEGER NOT NULL,
  qty {{decimal 20 6}} NOT NULL,
  unit_cost {{decimal 20 6}} NOT NULL,
  amount {{decimal 24 6}} NOT NULL,
  balance_qty {{decimal 20 6}} NOT NULL,
  avg_cost_after {{decimal 20 6}} NOT NULL,
  biz_type VARCHAR(40) NOT NULL,
  biz_id BIGINT NOT NULL,
  biz_no VARCHAR(40) NOT NULL DEFAULT '',
  biz_detail_id BIGINT NOT NULL,
  is_reversal INTEGER NOT NULL DEFAULT 0,
  reversed_ledger_id BIGINT NOT NULL DEFAULT 0,
  produce_plan_id BIGINT NOT NULL DEFAULT 0,
  partner_type VARCHAR(16) NOT NULL DEFAULT '',
  partner_id BIGINT NOT NULL DEFAULT 0,
  posted_at TIMESTAMP NOT NULL,
  posted_by BIGINT NOT NULL DEFAULT 0,
  seq BIGINT NOT NULL -- the item's ledger order: bb_item_cost.last_seq, taken under its lock
);
CREATE UNIQUE INDEX ux_stock_ledger_posting ON bb_stock_ledger (tenant_id, biz_type, biz_detail_id, tx_type, is_reversal);
CREATE INDEX ix_stock_ledger_item ON bb_stock_ledger (tenant_id, item_kind, item_id, seq);
CREATE INDEX ix_stock_ledger_biz ON bb_stock_ledger (tenant_id, biz_type, biz_id);
CREATE INDEX ix_stock_ledger_bucket ON bb_stock_ledger (tenant_id, warehouse_id, position_id);

CREATE TABLE bb_stock_balance (
  {{base}},
  item_kind INTEGER NOT NULL,
  item_id BIGINT NOT NULL,
  warehouse_id BIGINT NOT NULL,
  position_id BIGINT NOT NULL,
  batch_no VARCHAR(64) NOT NULL DEFAULT '',
  qty {{decimal 20 6}} NOT NULL,
  locked_qty {{decimal 20 6}} NOT NULL,
  available_qty {{decimal 20 6}} NOT NULL,
  last_posted_at TIMESTAMP
);
CREATE UNIQUE INDEX ux_stock_balance_bucket ON bb_stock_balance (tenant_id, item_kind, item_id, warehouse_id, position_id, batch_no);
CREATE INDEX ix_stock_balance_place ON bb_stock_balance (tenant_id, warehouse_id, position_id);

CREATE TABLE bb_stock_batch (
  {{base}},
  item_kind INTEGER NOT NULL,
  item_id BIGINT NOT NULL,
  batch_no VARCHAR(64) NOT NULL,
  production_date VARCHAR(10) NOT NULL DEFAULT '',
  expiry_date VARCHAR(10) NOT NULL DEFAULT '',
  supplier_id BIGINT NOT NULL DEFAULT 0,
  first_in_biz_no VARCHAR(40) NOT NULL DEFAULT '',
  first_in_at TIMESTAMP,
  is_effective INTEGER NOT NULL DEFAULT 2
);
CREATE UNIQUE INDEX ux_stock_batch_item ON bb_stock_batch (tenant_id, item_kind, item_id, batch_no);

CREATE TABLE bb_item_cost (
  {{base}},
  item_kind INTEGER NOT NULL,
  item_id BIGINT NOT NULL,
  qty {{decimal 20 6}} NOT NULL,
  amount {{decimal 24 6}} NOT NULL,
  avg_cost {{decimal 20 6}} NOT NULL,
  last_seq BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX ux_item_cost_item ON bb_item_cost (tenant_id, item_kind, item_id);

CREATE TABLE bb_stock_lock (
  {{base}},
  biz_type VARCHAR(40) NOT NULL,
  biz_id BIGINT NOT NULL,
  biz_detail_id BIGINT NOT NULL,
  item_kind INTEGER NOT NULL,
  item_id BIGINT NOT NULL,
  warehouse_id BIGINT NOT NULL,
  position_id BIGINT NOT NULL,
  batch_no VARCHAR(64) NOT NULL DEFAULT '',
  qty {{decimal 20 6}} NOT NULL
);
CREATE INDEX ix_stock_lock_biz ON bb_stock_lock (tenant_id, biz_type, biz_id);

CREATE TABLE bb_stock_freeze (
  {{base}},
  check_id BIGINT NOT NULL,
  warehouse_id BIGINT NOT NULL,
  position_id BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX ix_stock_freeze_place ON bb_stock_freeze (tenant_id, warehouse_id);

-- Settings of one tenant (allowNegativeStock, overReceiptPct, ...): keys
-- the business areas read, with their defaults in code.
CREATE TABLE bb_tenant_setting (
  {{base}},
  setting_key VARCHAR(64) NOT NULL,
  setting_value VARCHAR(255) NOT NULL DEFAULT ''
);
{{unique "bb_tenant_setting" "setting_key"}}

-- +goose Down
DROP TABLE bb_tenant_setting;
DROP TABLE bb_stock_freeze;
DROP TABLE bb_stock_lock;
DROP TABLE bb_item_cost;
DROP TABLE bb_stock_batch;
DROP TABLE bb_stock_balance;
DROP TABLE bb_stock_ledger;
