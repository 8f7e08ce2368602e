-- +goose Up
-- Master data of stock (domain.md §5): brands, warehouses and their position
-- trees, materials, unit conversions. status is the audit status
-- (dictionary audit_status); is_effective the effective status
-- (dictionary effective_status: 1 not effective, 2 effective).
CREATE TABLE bb_brand (
  {{base}},
  brand_code VARCHAR(32) NOT NULL,
  brand_name VARCHAR(64) NOT NULL,
  short_name VARCHAR(64) NOT NULL DEFAULT '',
  manufacturer VARCHAR(128) NOT NULL DEFAULT '',
  country VARCHAR(64) NOT NULL DEFAULT '',
  logo_url VARCHAR(1000) NOT NULL DEFAULT '',
  is_effective INTEGER NOT NULL DEFAULT 2,
  sort INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_brand" "brand_code"}}

CREATE TABLE bb_warehouse (
  {{base}},
  warehouse_code VARCHAR(32) NOT NULL,
  warehouse_name VARCHAR(64) NOT NULL,
  warehouse_type INTEGER NOT NULL DEFAULT 1,
  manager_id BIGINT NOT NULL DEFAULT 0,
  phone VARCHAR(32) NOT NULL DEFAULT '',
  address VARCHAR(255) NOT NULL DEFAULT '',
  is_effective INTEGER NOT NULL DEFAULT 1,
  sort INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_warehouse" "warehouse_code"}}

CREATE TABLE bb_warehouse_position (
  {{base}},
  warehouse_id BIGINT NOT NULL,
  parent_id BIGINT NOT NULL DEFAULT 0,
  ancestors VARCHAR(2000) NOT NULL DEFAULT '0',
  warehouse_key VARCHAR(32) NOT NULL,
  warehouse_name VARCHAR(64) NOT NULL,
  is_effective INTEGER NOT NULL DEFAULT 1,
  capacity {{decimal 20 6}},
  sort INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_warehouse_position" "warehouse_id" "warehouse_key"}}
CREATE INDEX ix_warehouse_position_parent ON bb_warehouse_position (tenant_id, parent_id);

CREATE TABLE bb_material (
  {{base}},
  material_code VARCHAR(40) NOT NULL,
  material_name VARCHAR(128) NOT NULL,
  spec VARCHAR(128) NOT NULL DEFAULT '',
  model VARCHAR(128) NOT NULL DEFAULT '',
  brand_id BIGINT NOT NULL DEFAULT 0,
  unit VARCHAR(32) NOT NULL,
  purchase_unit VARCHAR(32) NOT NULL DEFAULT '',
  batch_managed INTEGER NOT NULL DEFAULT 1,
  shelf_life_days INTEGER NOT NULL DEFAULT 0,
  safety_stock {{decimal 20 6}},
  min_stock {{decimal 20 6}},
  max_stock {{decimal 20 6}},
  default_warehouse_id BIGINT NOT NULL DEFAULT 0,
  default_position_id BIGINT NOT NULL DEFAULT 0,
  reference_price {{decimal 18 4}},
  barcode VARCHAR(128) NOT NULL DEFAULT '',
  drawing_no VARCHAR(64) NOT NULL DEFAULT '',
  is_effective INTEGER NOT NULL DEFAULT 2,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_material" "material_code"}}
CREATE INDEX ix_material_brand ON bb_material (tenant_id, brand_id);

CREATE TABLE bb_unit_comparison (
  {{base}},
  item_kind INTEGER NOT NULL DEFAULT 0,
  item_id BIGINT NOT NULL DEFAULT 0,
  from_unit VARCHAR(32) NOT NULL,
  to_unit VARCHAR(32) NOT NULL,
  ratio {{decimal 20 9}} NOT NULL,
  rounding_mode INTEGER NOT NULL DEFAULT 1,
  whole_number INTEGER NOT NULL DEFAULT 1,
  is_effective INTEGER NOT NULL DEFAULT 2,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_unit_comparison" "item_kind" "item_id" "from_unit" "to_unit"}}

-- +goose Down
DROP TABLE bb_unit_comparison;
DROP TABLE bb_material;
DROP TABLE bb_warehouse_position;
DROP TABLE bb_warehouse;
DROP TABLE bb_brand;
