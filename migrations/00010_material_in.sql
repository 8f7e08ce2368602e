-- +goose Up
-- Material receipts (domain.md §6.1): purchase, back-stock and other
-- receipts with their lines. status is the audit status (audit_status),
-- stock_status the posting state (ready_state); doc_no comes from the MIN
-- code rule.
CREATE TABLE bb_material_in (
  {{base}},
  doc_no VARCHAR(40) NOT NULL,
  doc_date TIMESTAMP,
  stock_status INTEGER NOT NULL DEFAULT 1,
  posted_at TIMESTAMP,
  posted_by BIGINT NOT NULL DEFAULT 0,
  handler_id BIGINT NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT '',
  in_type INTEGER NOT NULL DEFAULT 1,
  other_reason INTEGER NOT NULL DEFAULT 0,
  warehouse_id BIGINT NOT NULL,
  supplier_id BIGINT NOT NULL DEFAULT 0,
  purchase_order_id BIGINT NOT NULL DEFAULT 0,
  supplier_delivery_no VARCHAR(64) NOT NULL DEFAULT '',
  back_stock_id BIGINT NOT NULL DEFAULT 0,
  produce_plan_id BIGINT NOT NULL DEFAULT 0,
  keeper_id BIGINT NOT NULL DEFAULT 0,
  test_status INTEGER NOT NULL DEFAULT 0,
  test_remark VARCHAR(500) NOT NULL DEFAULT '',
  total_qty {{decimal 20 6}},
  total_amount {{decimal 18 4}}
);
{{unique "bb_material_in" "doc_no"}}
CREATE INDEX ix_material_in_type ON bb_material_in (tenant_id, in_type, create_time);

CREATE TABLE bb_material_in_detail (
  {{base}},
  main_id BIGINT NOT NULL,
  material_id BIGINT NOT NULL,
  material_code VARCHAR(40) NOT NULL DEFAULT '',
  material_name VARCHAR(128) NOT NULL DEFAULT '',
  spec VARCHAR(128) NOT NULL DEFAULT '',
  model VARCHAR(128) NOT NULL DEFAULT '',
  unit VARCHAR(32) NOT NULL DEFAULT '',
  unit_ratio {{decimal 20 9}},
  qty {{decimal 20 6}} NOT NULL,
  base_qty {{decimal 20 6}},
  position_id BIGINT NOT NULL,
  batch_no VARCHAR(64) NOT NULL DEFAULT '',
  production_date TIMESTAMP,
  expiry_date TIMESTAMP,
  unit_price {{decimal 18 4}},
  amount {{decimal 18 4}},
  tax_rate {{decimal 9 4}},
  purchase_order_detail_id BIGINT NOT NULL DEFAULT 0,
  back_stock_detail_id BIGINT NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
CREATE INDEX ix_material_in_detail_main ON bb_material_in_detail (tenant_id, main_id);

-- +goose Down
DROP TABLE bb_material_in_detail;
DROP TABLE bb_material_in;
