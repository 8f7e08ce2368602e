-- +goose Up
-- Material returns (back-stock, domain.md §6.3): unused material going back
-- to stock. status is the audit status (audit_status), back_status whether
-- its receipt is in stock (back_status), stock_status mirrors that receipt's
-- posting (the return itself never writes the ledger); in_record_id is the
-- BACK_STOCK receipt saveMaterialInRecord made. doc_no comes from the MBK
-- code rule. A line names the issue line it returns (source_out_detail_id)
-- and carries that line's material, batch and unit cost.
CREATE TABLE bb_material_back_stock (
  {{base}},
  doc_no VARCHAR(40) NOT NULL,
  doc_date TIMESTAMP,
  stock_status INTEGER NOT NULL DEFAULT 1,
  posted_at TIMESTAMP,
  posted_by BIGINT NOT NULL DEFAULT 0,
  handler_id BIGINT NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT '',
  back_type INTEGER NOT NULL DEFAULT 1,
  produce_plan_id BIGINT NOT NULL DEFAULT 0,
  warehouse_id BIGINT NOT NULL,
  returner_id BIGINT NOT NULL DEFAULT 0,
  reason VARCHAR(500) NOT NULL DEFAULT '',
  back_status INTEGER NOT NULL DEFAULT 1,
  in_record_id BIGINT NOT NULL DEFAULT 0,
  total_qty {{decimal 20 6}}
);
{{unique "bb_material_back_stock" "doc_no"}}
CREATE INDEX ix_material_back_stock_plan ON bb_material_back_stock (tenant_id, produce_plan_id);

CREATE TABLE bb_material_back_stock_detail (
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
  produce_plan_id BIGINT NOT NULL DEFAULT 0,
  source_out_record_id BIGINT NOT NULL DEFAULT 0,
  source_out_detail_id BIGINT NOT NULL DEFAULT 0,
  unit_cost {{decimal 20 6}},
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
CREATE INDEX ix_material_back_stock_detail_main ON bb_material_back_stock_detail (tenant_id, main_id);
CREATE INDEX ix_material_back_stock_detail_source ON bb_material_back_stock_detail (tenant_id, source_out_detail_id);

-- production picking against plans: the issues of a plan, and the picking
-- lines of a plan material (the over-picking check at startProcess)
CREATE INDEX ix_material_out_plan ON bb_material_out (tenant_id, produce_plan_id);
CREATE INDEX ix_material_out_detail_plan_material ON bb_material_out_detail (tenant_id, produce_plan_material_id);

-- +goose Down
DROP INDEX ix_material_out_detail_plan_material;
DROP INDEX ix_material_out_plan;
DROP TABLE bb_material_back_stock_detail;
DROP TABLE bb_material_back_stock;
