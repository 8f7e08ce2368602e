-- +goose Up
-- Production plans (domain.md §6.8, spec.md §3 names): the plan (status
-- the audit status, produce_plan_status the derived plan status), its
-- product lines, the materials it needs entered by hand (until product
-- BOMs exist; detail_no 0 = the whole plan, else the 1-based product line)
-- and the material requirement frozen at approval, whose picked and
-- returned quantities the production pickings and material returns move.
CREATE TABLE bb_produce_plan (
  {{base}},
  produce_plan_code VARCHAR(40) NOT NULL,
  produce_order_code VARCHAR(64) NOT NULL DEFAULT '',
  work_shop_id BIGINT NOT NULL DEFAULT 0,
  project_name VARCHAR(128) NOT NULL DEFAULT '',
  batch_code VARCHAR(64) NOT NULL DEFAULT '',
  customer_id BIGINT NOT NULL DEFAULT 0,
  customer_name VARCHAR(128) NOT NULL DEFAULT '',
  produce_plan_status INTEGER NOT NULL DEFAULT 1,
  delivery_time TIMESTAMP,
  plan_start_date TIMESTAMP,
  plan_end_date TIMESTAMP,
  create_user_name VARCHAR(45) NOT NULL DEFAULT '',
  closed_at TIMESTAMP,
  close_reason VARCHAR(500) NOT NULL DEFAULT '',
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_produce_plan" "produce_plan_code"}}
CREATE INDEX ix_produce_plan_status ON bb_produce_plan (tenant_id, produce_plan_status, create_time);

CREATE TABLE bb_produce_plan_detail (
  {{base}},
  plan_id BIGINT NOT NULL,
  product_id BIGINT NOT NULL DEFAULT 0,
  product_code VARCHAR(40) NOT NULL DEFAULT '',
  product_name VARCHAR(128) NOT NULL DEFAULT '',
  product_model VARCHAR(128) NOT NULL DEFAULT '',
  count {{decimal 20 6}} NOT NULL,
  test_type INTEGER NOT NULL DEFAULT 0,
  is_batch INTEGER NOT NULL DEFAULT 1,
  produce_count {{decimal 20 6}} NOT NULL,
  produce_detail_status INTEGER NOT NULL DEFAULT 1,
  in_stock_count {{decimal 20 6}} NOT NULL,
  attach_count INTEGER NOT NULL DEFAULT 0,
  delivery_time TIMESTAMP,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
CREATE INDEX ix_produce_plan_detail_plan ON bb_produce_plan_detail (tenant_id, plan_id);

CREATE TABLE bb_produce_plan_required (
  {{base}},
  plan_id BIGINT NOT NULL,
  detail_no INTEGER NOT NULL DEFAULT 0,
  material_id BIGINT NOT NULL,
  material_code VARCHAR(40) NOT NULL DEFAULT '',
  material_name VARCHAR(128) NOT NULL DEFAULT '',
  spec VARCHAR(128) NOT NULL DEFAULT '',
  unit VARCHAR(32) NOT NULL DEFAULT '',
  required_qty {{decimal 20 6}} NOT NULL,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
CREATE INDEX ix_produce_plan_required_plan ON bb_produce_plan_required (tenant_id, plan_id);

CREATE TABLE bb_produce_plan_material (
  {{base}},
  plan_id BIGINT NOT NULL,
  plan_detail_id BIGINT NOT NULL DEFAULT 0,
  material_id BIGINT NOT NULL,
  material_code VARCHAR(40) NOT NULL DEFAULT '',
  material_name VARCHAR(128) NOT NULL DEFAULT '',
  spec VARCHAR(128) NOT NULL DEFAULT '',
  model VARCHAR(128) NOT NULL DEFAULT '',
  unit VARCHAR(32) NOT NULL DEFAULT '',
  required_qty {{decimal 20 6}} NOT NULL,
  picked_qty {{decimal 20 6}} NOT NULL,
  returned_qty {{decimal 20 6}} NOT NULL
);
CREATE INDEX ix_produce_plan_material_plan ON bb_produce_plan_material (tenant_id, plan_id, material_id);

-- +goose Down
DROP TABLE bb_produce_plan_material;
DROP TABLE bb_produce_plan_required;
DROP TABLE bb_produce_plan_detail;
DROP TABLE bb_produce_plan;
