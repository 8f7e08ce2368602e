-- +goose Up
-- Approval records (domain.md §3): one process per submission of a record
-- for approval, and its log. Until the workflow engine runs processes,
-- a submission is approved at once and logged as such.
CREATE TABLE bb_tgprocess (
  {{base}},
  process_no VARCHAR(40) NOT NULL,
  biz_type VARCHAR(32) NOT NULL,
  biz_id BIGINT NOT NULL,
  biz_no VARCHAR(64) NOT NULL DEFAULT '',
  title VARCHAR(200) NOT NULL DEFAULT '',
  initiator_id BIGINT NOT NULL DEFAULT 0,
  start_time TIMESTAMP,
  end_time TIMESTAMP,
  process_status INTEGER NOT NULL DEFAULT 1,
  current_node VARCHAR(64) NOT NULL DEFAULT '',
  current_approver_ids VARCHAR(1000) NOT NULL DEFAULT '',
  definition_id BIGINT NOT NULL DEFAULT 0,
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_tgprocess" "process_no"}}
CREATE INDEX ix_tgprocess_biz ON bb_tgprocess (tenant_id, biz_type, biz_id);
CREATE TABLE bb_tgprocess_log (
  {{base}},
  process_id BIGINT NOT NULL,
  node_name VARCHAR(64) NOT NULL DEFAULT '',
  action INTEGER NOT NULL,
  operator_id BIGINT NOT NULL DEFAULT 0,
  comment VARCHAR(500) NOT NULL DEFAULT '',
  acted_at TIMESTAMP
);
CREATE INDEX ix_tgprocess_log_process ON bb_tgprocess_log (tenant_id, process_id);

-- +goose Down
DROP TABLE bb_tgprocess_log;
DROP TABLE bb_tgprocess;
