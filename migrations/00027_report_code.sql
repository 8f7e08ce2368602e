-- +goose Up
-- Report definitions (internal/report): a grouped summary of one registered
-- resource (or one of its views), run through the resource engine, so the
-- tenant and data scope of the caller apply. The fields and filters are the
-- resource's declared ones, checked when saved and again when run.
CREATE TABLE blade_report (
  {{base}},
  report_name VARCHAR(100) NOT NULL,
  source VARCHAR(100) NOT NULL,
  view_name VARCHAR(64) NOT NULL DEFAULT '',
  group_by VARCHAR(255) NOT NULL DEFAULT '',
  measures VARCHAR(255) NOT NULL DEFAULT '',
  filters VARCHAR(2000) NOT NULL DEFAULT '',
  columns_shown VARCHAR(500) NOT NULL DEFAULT '',
  chart_type VARCHAR(10) NOT NULL DEFAULT 'bar',
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE INDEX ix_report_tenant ON blade_report (tenant_id, is_deleted);

-- Code generator definitions (internal/develop/code.go): a table of a data
-- source and the names the generated resource takes.
CREATE TABLE blade_code (
  {{base}},
  code_name VARCHAR(100) NOT NULL,
  datasource_id BIGINT NOT NULL DEFAULT 0,
  table_name VARCHAR(64) NOT NULL,
  table_prefix VARCHAR(20) NOT NULL DEFAULT '',
  service_name VARCHAR(64) NOT NULL,
  package_name VARCHAR(32) NOT NULL,
  parent_menu VARCHAR(64) NOT NULL DEFAULT '',
  remark VARCHAR(255) NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE blade_code;
DROP INDEX ix_report_tenant;
DROP TABLE blade_report;
