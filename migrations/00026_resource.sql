-- +goose Up
-- blade-resource settings per tenant: object storage (blade_oss) and SMS
-- (blade_sms) configurations, at most one of each enabled per tenant (the
-- partial unique indexes hold it even against two enables at once). Secret
-- keys are written, never read back. Uploads remember the configuration
-- they went to (oss_id: 0 is the console's own disk, -1 a link registered
-- without an upload) and the type read from their content.
CREATE TABLE blade_oss (
  {{base}},
  oss_code VARCHAR(32) NOT NULL,
  category INTEGER NOT NULL DEFAULT 1,
  endpoint VARCHAR(255) NOT NULL DEFAULT '',
  bucket_name VARCHAR(63) NOT NULL DEFAULT '',
  access_key VARCHAR(255) NOT NULL DEFAULT '',
  secret_key VARCHAR(255) NOT NULL DEFAULT '',
  region VARCHAR(64) NOT NULL DEFAULT '',
  path_style INTEGER NOT NULL DEFAULT 1,
  is_enabled INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
{{unique "blade_oss" "oss_code"}}
CREATE UNIQUE INDEX ux_oss_enabled ON blade_oss (tenant_id) WHERE is_enabled = 1 AND is_deleted = 0;

CREATE TABLE blade_sms (
  {{base}},
  sms_code VARCHAR(32) NOT NULL,
  category INTEGER NOT NULL DEFAULT 0,
  endpoint VARCHAR(255) NOT NULL DEFAULT '',
  template_id VARCHAR(64) NOT NULL DEFAULT '',
  access_key VARCHAR(255) NOT NULL DEFAULT '',
  secret_key VARCHAR(255) NOT NULL DEFAULT '',
  region_id VARCHAR(64) NOT NULL DEFAULT '',
  sign_name VARCHAR(64) NOT NULL DEFAULT '',
  app_id VARCHAR(64) NOT NULL DEFAULT '',
  is_enabled INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
{{unique "blade_sms" "sms_code"}}
CREATE UNIQUE INDEX ux_sms_enabled ON blade_sms (tenant_id) WHERE is_enabled = 1 AND is_deleted = 0;

ALTER TABLE blade_attach ADD COLUMN oss_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE blade_attach ADD COLUMN content_type VARCHAR(100) NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE blade_attach DROP COLUMN content_type;
ALTER TABLE blade_attach DROP COLUMN oss_id;
DROP TABLE blade_sms;
DROP TABLE blade_oss;
