-- +goose Up
-- Stocktaking (domain.md §6.6): a check of one warehouse (or some of its
-- positions) and its lines, one per counted bucket. status is the audit
-- status (audit_status), check_status the count's own state (check_status:
-- 1 draft, 2 counting, 3 counted, 4 adjusted, 5 voided); doc_no comes from
-- the MCK code rule. position_ids and material_ids are comma lists of ids
-- (empty: the whole warehouse, every material). Lines are made by
-- startCount (the bucket snapshot: book_qty, unit_cost) and by
-- saveCheckResult (is_added lines, found but not on the books); actual_qty
-- is null until counted.
CREATE TABLE bb_material_check (
  {{base}},
  doc_no VARCHAR(40) NOT NULL,
  doc_date TIMESTAMP,
  remark VARCHAR(500) NOT NULL DEFAULT '',
  warehouse_id BIGINT NOT NULL,
  position_ids TEXT NOT NULL DEFAULT '',
  material_scope INTEGER NOT NULL DEFAULT 1,
  material_ids TEXT NOT NULL DEFAULT '',
  check_type INTEGER NOT NULL DEFAULT 1,
  blind_count INTEGER NOT NULL DEFAULT 1,
  checker_id BIGINT NOT NULL DEFAULT 0,
  check_status INTEGER NOT NULL DEFAULT 1,
  start_time TIMESTAMP,
  finish_time TIMESTAMP,
  adjusted_at TIMESTAMP,
  gain_qty {{decimal 20 6}},
  loss_qty {{decimal 20 6}},
  gain_amount {{decimal 18 4}},
  loss_amount {{decimal 18 4}}
);
{{unique "bb_material_check" "doc_no"}}
CREATE INDEX ix_material_check_state ON bb_material_check (tenant_id, check_status, warehouse_id);

CREATE TABLE bb_material_check_detail (
  {{base}},
  main_id BIGINT NOT NULL,
  material_id BIGINT NOT NULL,
  material_code VARCHAR(40) NOT NULL DEFAULT '',
  material_name VARCHAR(128) NOT NULL DEFAULT '',
  spec VARCHAR(128) NOT NULL DEFAULT '',
  model VARCHAR(128) NOT NULL DEFAULT '',
  unit VARCHAR(32) NOT NULL DEFAULT '',
  position_id BIGINT NOT NULL,
  batch_no VARCHAR(64) NOT NULL DEFAULT '',
  book_qty {{decimal 20 6}} NOT NULL,
  actual_qty {{decimal 20 6}},
  diff_qty {{decimal 20 6}},
  unit_cost {{decimal 20 6}},
  diff_amount {{decimal 18 4}},
  counted_by BIGINT NOT NULL DEFAULT 0,
  counted_at TIMESTAMP,
  reason VARCHAR(500) NOT NULL DEFAULT '',
  is_added INTEGER NOT NULL DEFAULT 1
);
{{unique "bb_material_check_detail" "main_id" "material_id" "position_id" "batch_no"}}

-- +goose Down
DROP TABLE bb_material_check_detail;
DROP TABLE bb_material_check;
