-- +goose Up
-- Code rules (document numbering, docs/domain.md §4; internal/numbering).
-- A rule numbers one business type (biz_type: MIN, MOUT, ... BATCH); its
-- segments (bb_code_rule_detail) are resolved in seq order. status is the
-- audit status (dictionary audit_status, 1 draft .. 5 voided).
CREATE TABLE bb_code_rule (
  {{base}},
  rule_code VARCHAR(32) NOT NULL,
  rule_name VARCHAR(64) NOT NULL,
  biz_type VARCHAR(32) NOT NULL,
  -- dictionary effective_status: 1 not effective, 2 effective
  is_effective INTEGER NOT NULL DEFAULT 1,
  -- dictionary business_yes_no: 1 no, 2 yes (the user may type the number)
  allow_manual INTEGER NOT NULL DEFAULT 1,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_code_rule" "rule_code"}}
-- Next looks up the tenant's effective rule of a business type.
CREATE INDEX ix_code_rule_biz_type ON bb_code_rule (tenant_id, biz_type, is_deleted);

CREATE TABLE bb_code_rule_detail (
  {{base}},
  rule_id BIGINT NOT NULL,
  seq INTEGER NOT NULL DEFAULT 1,
  -- dictionary segment_type: 1 FIXED, 2 DATE, 3 SERIAL, 4 FIELD
  segment_type INTEGER NOT NULL,
  fixed_value VARCHAR(32) NOT NULL DEFAULT '',
  -- dictionary date_format: yyyy, yy, MM, dd, yyyyMM, yyyyMMdd
  date_format VARCHAR(16) NOT NULL DEFAULT '',
  field_name VARCHAR(64) NOT NULL DEFAULT '',
  serial_length INTEGER NOT NULL DEFAULT 0,
  serial_start INTEGER NOT NULL DEFAULT 1,
  serial_step INTEGER NOT NULL DEFAULT 1,
  separator VARCHAR(8) NOT NULL DEFAULT '',
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
CREATE INDEX ix_code_rule_detail_rule ON bb_code_rule_detail (rule_id, is_deleted);

-- One row per (rule, period): period_key is the resolved text of every
-- segment but the serial, so a date segment starts a new counter each day
-- (or month, year). Counters are never soft-deleted or moved back (a number
-- is never given twice), so their key is unique over all rows, not only the
-- live ones: the upsert of numbering.Next names exactly this index.
CREATE TABLE bb_code_rule_counter (
  {{base}},
  rule_id BIGINT NOT NULL,
  period_key VARCHAR(100) NOT NULL,
  current_value BIGINT NOT NULL
);
CREATE UNIQUE INDEX ux_code_rule_counter_key ON bb_code_rule_counter (tenant_id, rule_id, period_key);

-- +goose Down
DROP TABLE bb_code_rule_counter;
DROP TABLE bb_code_rule_detail;
DROP TABLE bb_code_rule;
