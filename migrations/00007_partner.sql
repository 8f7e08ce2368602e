-- +goose Up
-- Business partners (domain.md §5): customers, suppliers and the suppliers'
-- material price lines. status is the audit status (dictionary
-- audit_status); is_effective the effective status (dictionary
-- effective_status: 1 not effective, 2 effective). Money is decimal(18,4),
-- quantities decimal(20,6) (domain.md §0).
CREATE TABLE bb_customer (
  {{base}},
  customer_code VARCHAR(32) NOT NULL,
  customer_name VARCHAR(128) NOT NULL,
  short_name VARCHAR(64) NOT NULL DEFAULT '',
  customer_type INTEGER NOT NULL DEFAULT 0,
  industry VARCHAR(64) NOT NULL DEFAULT '',
  region VARCHAR(64) NOT NULL DEFAULT '',
  address VARCHAR(255) NOT NULL DEFAULT '',
  contact_name VARCHAR(64) NOT NULL DEFAULT '',
  contact_phone VARCHAR(32) NOT NULL DEFAULT '',
  email VARCHAR(128) NOT NULL DEFAULT '',
  tax_no VARCHAR(32) NOT NULL DEFAULT '',
  bank_name VARCHAR(128) NOT NULL DEFAULT '',
  bank_account VARCHAR(64) NOT NULL DEFAULT '',
  salesman_id BIGINT NOT NULL DEFAULT 0,
  credit_limit {{decimal 18 4}},
  is_effective INTEGER NOT NULL DEFAULT 2,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_customer" "customer_code"}}
CREATE INDEX ix_customer_salesman ON bb_customer (tenant_id, salesman_id);

CREATE TABLE bb_supplier (
  {{base}},
  supplier_code VARCHAR(32) NOT NULL,
  supplier_name VARCHAR(128) NOT NULL,
  short_name VARCHAR(64) NOT NULL DEFAULT '',
  supplier_type INTEGER NOT NULL DEFAULT 0,
  contact_name VARCHAR(64) NOT NULL DEFAULT '',
  contact_phone VARCHAR(32) NOT NULL DEFAULT '',
  address VARCHAR(255) NOT NULL DEFAULT '',
  tax_no VARCHAR(32) NOT NULL DEFAULT '',
  bank_name VARCHAR(128) NOT NULL DEFAULT '',
  bank_account VARCHAR(64) NOT NULL DEFAULT '',
  payment_terms VARCHAR(255) NOT NULL DEFAULT '',
  rating INTEGER NOT NULL DEFAULT 0,
  is_effective INTEGER NOT NULL DEFAULT 2,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_supplier" "supplier_code"}}

-- One price line per supplier and material; tax_rate is a percentage.
CREATE TABLE bb_supplier_detail (
  {{base}},
  supplier_id BIGINT NOT NULL,
  material_id BIGINT NOT NULL,
  supplier_material_code VARCHAR(64) NOT NULL DEFAULT '',
  supplier_material_name VARCHAR(128) NOT NULL DEFAULT '',
  unit_price {{decimal 18 4}},
  tax_rate {{decimal 9 4}},
  currency VARCHAR(8) NOT NULL DEFAULT 'CNY',
  min_order_qty {{decimal 20 6}},
  lead_time_days INTEGER NOT NULL DEFAULT 0,
  is_default INTEGER NOT NULL DEFAULT 1,
  valid_from TIMESTAMP,
  valid_to TIMESTAMP,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_supplier_detail" "supplier_id" "material_id"}}
CREATE INDEX ix_supplier_detail_material ON bb_supplier_detail (tenant_id, material_id);

-- +goose Down
DROP TABLE bb_supplier_detail;
DROP TABLE bb_supplier;
DROP TABLE bb_customer;
