-- +goose Up
-- Uploaded files (blade-resource attach): one row per put-file. name is the
-- generated storage key, never the client's file name; original_name keeps
-- that for display and downloads. link is the signed URL as issued.
CREATE TABLE blade_attach (
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
  link VARCHAR(1000) NOT NULL DEFAULT '',
  domain_url VARCHAR(500) NOT NULL DEFAULT '',
  name VARCHAR(500) NOT NULL,
  original_name VARCHAR(500) NOT NULL DEFAULT '',
  extension VARCHAR(12) NOT NULL DEFAULT '',
  attach_size BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX ux_attach_name ON blade_attach (name);
CREATE INDEX ix_attach_tenant ON blade_attach (tenant_id, is_deleted, id);

-- +goose Down
DROP TABLE blade_attach;
