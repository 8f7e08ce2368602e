-- +goose Up
-- Material issues (domain.md §6.2): production picking, purchase returns and
-- other issues with their lines. status is the audit status (audit_status),
-- stock_status the posting state (ready_state); doc_no comes from the MOUT
-- code rule. A line names the position and batch it is issued from (the
-- per-position view materialoutrecorddetailposition reads these lines);
-- unit_cost and amount are written at posting from the ledger, returned_qty
-- by the material returns (back-stock) that take from the line.
CREATE TABLE bb_material_out (
  {{base}},
  doc_no VARCHAR(40) NOT NULL,
  doc_date TIMESTAMP,
  stock_status INTEGER NOT NULL DEFAULT 1,
  posted_at TIMESTAMP,
  posted_by BIGINT NOT NULL DEFAULT 0,
  handler_id BIGINT NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT '',
  out_type INTEGER NOT NULL DEFAULT 1,
  other_reason INTEGER NOT NULL DEFAULT 0,
  warehouse_id BIGINT NOT NULL,
  produce_plan_id BIGINT NOT NULL DEFAULT 0,
  workshop VARCHAR(64) NOT NULL DEFAULT '',
  receiver_id BIGINT NOT NULL DEFAULT 0,
  supplier_id BIGINT NOT NULL DEFAULT 0,
  purpose VARCHAR(200) NOT NULL DEFAULT '',
  total_qty {{decimal 20 6}},
  total_amount {{decimal 18 4}}
);
{{unique "bb_material_out" "doc_no"}}
CREATE INDEX ix_material_out_type ON bb_material_out (tenant_id, out_type, create_time);

CREATE TABLE bb_material_out_detail (
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
  produce_plan_detail_id BIGINT NOT NULL DEFAULT 0,
  produce_plan_material_id BIGINT NOT NULL DEFAULT 0,
  required_qty {{decimal 20 6}},
  unit_cost {{decimal 20 6}},
  amount {{decimal 18 4}},
  returned_qty {{decimal 20 6}},
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
CREATE INDEX ix_material_out_detail_main ON bb_material_out_detail (tenant_id, main_id);

-- +goose Down
DROP TABLE bb_material_out_detail;
DROP TABLE bb_material_out;
