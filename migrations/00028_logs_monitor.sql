-- +goose Up
-- API and usual logs (blade-log api, usual), the goods-download monitor and
-- the online-duration statistics (issue #12, parts 4 and 7). Log rows are
-- written in batches after the request (internal/platform/batch), so
-- create_time is when a batch was stored and log_time when it happened;
-- the screens filter and sort by log_time, and retention purges by it.
CREATE TABLE blade_log_api (
  {{base}},
  service_id VARCHAR(32) NOT NULL DEFAULT '',
  server_host VARCHAR(255) NOT NULL DEFAULT '',
  env VARCHAR(255) NOT NULL DEFAULT '',
  title VARCHAR(255) NOT NULL DEFAULT '',
  method VARCHAR(10) NOT NULL DEFAULT '',
  request_uri VARCHAR(1000) NOT NULL DEFAULT '',
  params TEXT NOT NULL DEFAULT '',
  user_agent VARCHAR(1000) NOT NULL DEFAULT '',
  remote_ip VARCHAR(255) NOT NULL DEFAULT '',
  http_status INTEGER NOT NULL DEFAULT 0,
  duration_ms BIGINT NOT NULL DEFAULT 0,
  request_id VARCHAR(64) NOT NULL DEFAULT '',
  create_by VARCHAR(64) NOT NULL DEFAULT '',
  log_time TIMESTAMP
);
CREATE INDEX ix_log_api_tenant ON blade_log_api (tenant_id, is_deleted, log_time);
CREATE INDEX ix_log_api_time ON blade_log_api (log_time);

CREATE TABLE blade_log_usual (
  {{base}},
  service_id VARCHAR(32) NOT NULL DEFAULT '',
  server_host VARCHAR(255) NOT NULL DEFAULT '',
  env VARCHAR(255) NOT NULL DEFAULT '',
  log_level VARCHAR(10) NOT NULL DEFAULT '',
  log_id VARCHAR(32) NOT NULL DEFAULT '',
  title VARCHAR(255) NOT NULL DEFAULT '',
  log_data TEXT NOT NULL DEFAULT '',
  method VARCHAR(10) NOT NULL DEFAULT '',
  request_uri VARCHAR(1000) NOT NULL DEFAULT '',
  user_agent VARCHAR(1000) NOT NULL DEFAULT '',
  remote_ip VARCHAR(255) NOT NULL DEFAULT '',
  create_by VARCHAR(64) NOT NULL DEFAULT '',
  log_time TIMESTAMP
);
CREATE INDEX ix_log_usual_tenant ON blade_log_usual (tenant_id, is_deleted, log_time);
CREATE INDEX ix_log_usual_time ON blade_log_usual (log_time);

-- Every Excel export and every stored-file download (monitor/goodsDownloadM).
-- kind: dictionary download_kind (export, file); checked: dictionary yes_no
-- (0 not yet, 1 checked by an administrator).
CREATE TABLE bb_goods_download (
  {{base}},
  kind VARCHAR(16) NOT NULL DEFAULT '',
  target VARCHAR(255) NOT NULL DEFAULT '',
  file_name VARCHAR(255) NOT NULL DEFAULT '',
  row_count INTEGER NOT NULL DEFAULT 0,
  byte_size BIGINT NOT NULL DEFAULT 0,
  http_status INTEGER NOT NULL DEFAULT 0,
  duration_ms BIGINT NOT NULL DEFAULT 0,
  create_by VARCHAR(64) NOT NULL DEFAULT '',
  download_time TIMESTAMP,
  checked INTEGER NOT NULL DEFAULT 0,
  check_by VARCHAR(64) NOT NULL DEFAULT '',
  check_time TIMESTAMP
);
CREATE INDEX ix_goods_download_tenant ON bb_goods_download (tenant_id, is_deleted, download_time);

-- Online time per user and day (UTC), from the web console's heartbeats
-- (log-service/active): last_beat is the last heartbeat in Unix seconds,
-- online_seconds the sum of the gaps between heartbeats no longer than the
-- session gap, sessions how many runs of heartbeats the day had.
CREATE TABLE blade_user_active (
  {{base}},
  user_id BIGINT NOT NULL DEFAULT 0,
  account VARCHAR(64) NOT NULL DEFAULT '',
  day VARCHAR(10) NOT NULL,
  first_beat BIGINT NOT NULL DEFAULT 0,
  last_beat BIGINT NOT NULL DEFAULT 0,
  online_seconds BIGINT NOT NULL DEFAULT 0,
  sessions INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX ux_user_active_day ON blade_user_active (tenant_id, user_id, day);
CREATE INDEX ix_user_active_day ON blade_user_active (tenant_id, is_deleted, day);

-- +goose Down
DROP TABLE blade_user_active;
DROP TABLE bb_goods_download;
DROP TABLE blade_log_usual;
DROP TABLE blade_log_api;
