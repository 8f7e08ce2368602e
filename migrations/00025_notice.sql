-- +goose Up
-- Notices (blade-desk notice): a tenant's announcements, with a category from
-- the notice dictionary and a rich-text body the server has sanitised.
CREATE TABLE blade_notice (
  {{base}},
  title VARCHAR(255) NOT NULL DEFAULT '',
  category INTEGER NOT NULL DEFAULT 0,
  release_time TIMESTAMP,
  content TEXT NOT NULL DEFAULT ''
);
CREATE INDEX ix_notice_tenant ON blade_notice (tenant_id, is_deleted, release_time);

-- Who has opened which notice: one row per reader, so the bell marks the
-- others unread for each user.
CREATE TABLE blade_notice_read (
  notice_id BIGINT NOT NULL,
  user_id BIGINT NOT NULL,
  tenant_id VARCHAR(12) NOT NULL DEFAULT '000000',
  read_time TIMESTAMP,
  PRIMARY KEY (notice_id, user_id)
);

-- +goose Down
DROP TABLE blade_notice_read;
DROP TABLE blade_notice;
