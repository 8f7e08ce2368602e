-- +goose Up
-- Material transfers (domain.md §6.4) and borrows and repays (§6.5).
-- status is the audit status (audit_status), stock_status the posting
-- state (ready_state). A transfer line moves stock from from_position_id
-- (in from_warehouse_id) to to_position_id (in to_warehouse_id).
CREATE TABLE bb_material_transfer (
  {{base}},
  doc_no VARCHAR(40) NOT NULL,
  doc_date TIMESTAMP,
  stock_status INTEGER NOT NULL DEFAULT 1,
  posted_at TIMESTAMP,
  posted_by BIGINT NOT NULL DEFAULT 0,
  handler_id BIGINT NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT '',
  transfer_type INTEGER NOT NULL DEFAULT 1,
  from_warehouse_id BIGINT NOT NULL,
  to_warehouse_id BIGINT NOT NULL,
  total_qty {{decimal 20 6}}
);
{{unique "bb_material_transfer" "doc_no"}}

CREATE TABLE bb_material_transfer_detail (
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
  from_position_id BIGINT NOT NULL,
  to_position_id BIGINT NOT NULL,
  batch_no VARCHAR(64) NOT NULL DEFAULT '',
  unit_cost {{decimal 20 6}},
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
CREATE INDEX ix_material_transfer_detail_main ON bb_material_transfer_detail (tenant_id, main_id);

-- One table for borrows and repays (borrow_repay_type 1 borrow, 2 repay):
-- a repay names its borrow (borrow_id) and each repay line the borrowed
-- line it returns (borrow_detail_id). borrow_status and the lines'
-- repaid_qty belong to borrows; a borrow's doc_no comes from the MBW code
-- rule, a repay's from MRY.
CREATE TABLE bb_material_borrow_repay (
  {{base}},
  doc_no VARCHAR(40) NOT NULL,
  doc_date TIMESTAMP,
  stock_status INTEGER NOT NULL DEFAULT 1,
  posted_at TIMESTAMP,
  posted_by BIGINT NOT NULL DEFAULT 0,
  handler_id BIGINT NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT '',
  borrow_repay_type INTEGER NOT NULL DEFAULT 1,
  borrower_type INTEGER NOT NULL DEFAULT 0,
  borrower_id BIGINT NOT NULL DEFAULT 0,
  borrower_name VARCHAR(128) NOT NULL DEFAULT '',
  warehouse_id BIGINT NOT NULL,
  expected_return_date TIMESTAMP,
  purpose VARCHAR(500) NOT NULL DEFAULT '',
  borrow_status INTEGER NOT NULL DEFAULT 0,
  close_reason VARCHAR(500) NOT NULL DEFAULT '',
  borrow_id BIGINT NOT NULL DEFAULT 0,
  repayer_name VARCHAR(128) NOT NULL DEFAULT '',
  total_qty {{decimal 20 6}}
);
{{unique "bb_material_borrow_repay" "doc_no"}}
CREATE INDEX ix_material_borrow_repay_borrow ON bb_material_borrow_repay (tenant_id, borrow_id);

CREATE TABLE bb_material_borrow_repay_detail (
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
  unit_cost {{decimal 20 6}},
  repaid_qty {{decimal 20 6}},
  borrow_detail_id BIGINT NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
CREATE INDEX ix_material_borrow_repay_detail_main ON bb_material_borrow_repay_detail (tenant_id, main_id);
CREATE INDEX ix_material_borrow_repay_detail_borrow ON bb_material_borrow_repay_detail (tenant_id, borrow_detail_id);

-- +goose Down
DROP TABLE bb_material_borrow_repay_detail;
DROP TABLE bb_material_borrow_repay;
DROP TABLE bb_material_transfer_detail;
DROP TABLE bb_material_transfer;
