-- +goose Up
-- Error logs (blade-log error). Rows come from the web console's error-log
-- upload (service_id bluebird-web): the browser's own errors, which the server
-- never sees otherwise. The columns follow BladeX's LogError so that the
-- server's own error logging can write here as well.
CREATE TABLE blade_log_error (
  id BIGINT PRIMARY KEY,
  tenant_id VARCHAR(12) NOT NULL DEFAULT '000000',
  create_user BIGINT NOT NULL DEFAULT 0,
  create_dept BIGINT NOT NULL DEFAULT 0,
  create_time TIMESTAMP,
  update_user BIGINT NOT NULL DEFAULT 0,
  update_time TIMESTAMP,
  status INTEGER NOT NULL DEFAULT 1,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1,
  service_id VARCHAR(32) NOT NULL DEFAULT '',
  server_host VARCHAR(255) NOT NULL DEFAULT '',
  server_ip VARCHAR(255) NOT NULL DEFAULT '',
  env VARCHAR(255) NOT NULL DEFAULT '',
  method VARCHAR(10) NOT NULL DEFAULT '',
  request_uri VARCHAR(1000) NOT NULL DEFAULT '',
  remote_ip VARCHAR(255) NOT NULL DEFAULT '',
  user_agent VARCHAR(1000) NOT NULL DEFAULT '',
  exception_name VARCHAR(255) NOT NULL DEFAULT '',
  message TEXT NOT NULL DEFAULT '',
  stack_trace TEXT NOT NULL DEFAULT '',
  params TEXT NOT NULL DEFAULT '',
  client_time VARCHAR(32) NOT NULL DEFAULT '',
  create_by VARCHAR(64) NOT NULL DEFAULT ''
);
CREATE INDEX ix_log_error_tenant ON blade_log_error (tenant_id, is_deleted, create_time);

-- +goose Down
DROP TABLE blade_log_error;
