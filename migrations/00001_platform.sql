-- +goose Up
CREATE TABLE blade_tenant (
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
  tenant_name VARCHAR(50) NOT NULL,
  domain_url VARCHAR(255) NOT NULL DEFAULT '',
  background_url VARCHAR(1000) NOT NULL DEFAULT '',
  linkman VARCHAR(50) NOT NULL DEFAULT '',
  contact_number VARCHAR(50) NOT NULL DEFAULT '',
  address VARCHAR(255) NOT NULL DEFAULT '',
  account_number INTEGER NOT NULL DEFAULT -1,
  expire_time TIMESTAMP,
  package_id BIGINT NOT NULL DEFAULT 0,
  datasource_id BIGINT NOT NULL DEFAULT 0,
  license_key VARCHAR(1000) NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ux_tenant_tenant_id ON blade_tenant (tenant_id) WHERE is_deleted = 0;
CREATE TABLE blade_tenant_package (
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
  package_name VARCHAR(50) NOT NULL,
  menu_id TEXT NOT NULL DEFAULT '',
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE TABLE blade_client (
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
  client_id VARCHAR(48) NOT NULL,
  client_secret VARCHAR(256) NOT NULL,
  resource_ids VARCHAR(256) NOT NULL DEFAULT '',
  scope VARCHAR(256) NOT NULL DEFAULT 'all',
  authorized_grant_types VARCHAR(256) NOT NULL DEFAULT '',
  web_server_redirect_uri VARCHAR(256) NOT NULL DEFAULT '',
  authorities VARCHAR(256) NOT NULL DEFAULT '',
  access_token_validity INTEGER NOT NULL DEFAULT 3600,
  refresh_token_validity INTEGER NOT NULL DEFAULT 604800,
  additional_information VARCHAR(4096) NOT NULL DEFAULT '',
  autoapprove VARCHAR(256) NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ux_client_client_id ON blade_client (client_id) WHERE is_deleted = 0;
CREATE TABLE blade_user (
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
  code VARCHAR(12) NOT NULL DEFAULT '',
  user_type INTEGER NOT NULL DEFAULT 1,
  account VARCHAR(45) NOT NULL,
  password VARCHAR(255) NOT NULL DEFAULT '',
  name VARCHAR(20) NOT NULL DEFAULT '',
  real_name VARCHAR(10) NOT NULL DEFAULT '',
  avatar VARCHAR(500) NOT NULL DEFAULT '',
  email VARCHAR(45) NOT NULL DEFAULT '',
  phone VARCHAR(45) NOT NULL DEFAULT '',
  birthday TIMESTAMP,
  sex INTEGER NOT NULL DEFAULT 3,
  role_id VARCHAR(1000) NOT NULL DEFAULT '',
  dept_id VARCHAR(1000) NOT NULL DEFAULT '',
  post_id VARCHAR(1000) NOT NULL DEFAULT '',
  user_ext TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ux_user_account ON blade_user (tenant_id, account) WHERE is_deleted = 0;
CREATE INDEX ix_user_tenant ON blade_user (tenant_id, is_deleted, id);
CREATE INDEX ix_user_phone ON blade_user (tenant_id, phone);
CREATE TABLE blade_user_oauth (
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
  uuid VARCHAR(255) NOT NULL,
  user_id BIGINT NOT NULL DEFAULT 0,
  username VARCHAR(255) NOT NULL DEFAULT '',
  nickname VARCHAR(255) NOT NULL DEFAULT '',
  avatar VARCHAR(1000) NOT NULL DEFAULT '',
  email VARCHAR(255) NOT NULL DEFAULT '',
  source VARCHAR(255) NOT NULL DEFAULT '',
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ux_user_oauth ON blade_user_oauth (tenant_id, source, uuid) WHERE is_deleted = 0;
CREATE TABLE blade_role (
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
  parent_id BIGINT NOT NULL DEFAULT 0,
  role_name VARCHAR(255) NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0,
  role_alias VARCHAR(255) NOT NULL
);
CREATE UNIQUE INDEX ux_role_alias ON blade_role (tenant_id, role_alias) WHERE is_deleted = 0;
CREATE TABLE blade_menu (
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
  parent_id BIGINT NOT NULL DEFAULT 0,
  code VARCHAR(255) NOT NULL,
  name VARCHAR(255) NOT NULL,
  name_en VARCHAR(255) NOT NULL DEFAULT '',
  alias VARCHAR(255) NOT NULL DEFAULT '',
  path VARCHAR(255) NOT NULL DEFAULT '',
  source VARCHAR(255) NOT NULL DEFAULT '',
  sort INTEGER NOT NULL DEFAULT 0,
  category INTEGER NOT NULL DEFAULT 1,
  action INTEGER NOT NULL DEFAULT 0,
  is_open INTEGER NOT NULL DEFAULT 1,
  component VARCHAR(255) NOT NULL DEFAULT '',
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ux_menu_code ON blade_menu (code) WHERE is_deleted = 0;
CREATE INDEX ix_menu_parent ON blade_menu (parent_id);
CREATE TABLE blade_top_menu (
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
  code VARCHAR(255) NOT NULL,
  name VARCHAR(255) NOT NULL,
  name_en VARCHAR(255) NOT NULL DEFAULT '',
  source VARCHAR(255) NOT NULL DEFAULT '',
  path VARCHAR(255) NOT NULL DEFAULT '',
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX ux_top_menu_code ON blade_top_menu (tenant_id, code) WHERE is_deleted = 0;
CREATE TABLE blade_dept (
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
  parent_id BIGINT NOT NULL DEFAULT 0,
  ancestors VARCHAR(2000) NOT NULL DEFAULT '0',
  dept_category INTEGER NOT NULL DEFAULT 1,
  dept_name VARCHAR(45) NOT NULL,
  full_name VARCHAR(45) NOT NULL DEFAULT '',
  sort INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE INDEX ix_dept_tenant ON blade_dept (tenant_id, parent_id);
CREATE TABLE blade_post (
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
  category INTEGER NOT NULL DEFAULT 1,
  post_code VARCHAR(12) NOT NULL,
  post_name VARCHAR(64) NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ux_post_code ON blade_post (tenant_id, post_code) WHERE is_deleted = 0;
CREATE TABLE blade_dict (
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
  parent_id BIGINT NOT NULL DEFAULT 0,
  code VARCHAR(255) NOT NULL,
  dict_key VARCHAR(255) NOT NULL,
  dict_value VARCHAR(255) NOT NULL,
  dict_value_en VARCHAR(255) NOT NULL DEFAULT '',
  sort INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(255) NOT NULL DEFAULT '',
  is_sealed INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX ux_dict_key ON blade_dict (code, dict_key) WHERE is_deleted = 0;
CREATE INDEX ix_dict_parent ON blade_dict (parent_id);
CREATE TABLE blade_dict_biz (
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
  parent_id BIGINT NOT NULL DEFAULT 0,
  code VARCHAR(255) NOT NULL,
  dict_key VARCHAR(255) NOT NULL,
  dict_value VARCHAR(255) NOT NULL,
  dict_value_en VARCHAR(255) NOT NULL DEFAULT '',
  sort INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(255) NOT NULL DEFAULT '',
  is_sealed INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX ux_dict_biz_key ON blade_dict_biz (tenant_id, code, dict_key) WHERE is_deleted = 0;
CREATE INDEX ix_dict_biz_parent ON blade_dict_biz (tenant_id, parent_id);
CREATE TABLE blade_param (
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
  param_name VARCHAR(255) NOT NULL,
  param_key VARCHAR(255) NOT NULL,
  param_value TEXT NOT NULL DEFAULT '',
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ux_param_key ON blade_param (param_key) WHERE is_deleted = 0;
CREATE TABLE blade_scope_data (
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
  menu_id BIGINT NOT NULL DEFAULT 0,
  resource_code VARCHAR(255) NOT NULL,
  scope_name VARCHAR(255) NOT NULL,
  scope_field VARCHAR(255) NOT NULL DEFAULT '',
  scope_class VARCHAR(500) NOT NULL DEFAULT '',
  scope_column VARCHAR(255) NOT NULL DEFAULT '',
  scope_type INTEGER NOT NULL DEFAULT 1,
  scope_value VARCHAR(2000) NOT NULL DEFAULT '',
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE TABLE blade_scope_api (
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
  menu_id BIGINT NOT NULL DEFAULT 0,
  resource_code VARCHAR(255) NOT NULL,
  scope_name VARCHAR(255) NOT NULL,
  scope_path VARCHAR(255) NOT NULL,
  scope_type INTEGER NOT NULL DEFAULT 1,
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE TABLE blade_datasource (
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
  name VARCHAR(100) NOT NULL,
  driver_class VARCHAR(100) NOT NULL DEFAULT '',
  url VARCHAR(500) NOT NULL,
  username VARCHAR(45) NOT NULL DEFAULT '',
  password VARCHAR(255) NOT NULL DEFAULT '',
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE TABLE bb_social_provider (
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
  source VARCHAR(64) NOT NULL,
  name VARCHAR(100) NOT NULL DEFAULT '',
  issuer VARCHAR(500) NOT NULL,
  client_id VARCHAR(255) NOT NULL,
  client_secret VARCHAR(500) NOT NULL DEFAULT '',
  redirect_uri VARCHAR(500) NOT NULL DEFAULT '',
  scopes VARCHAR(255) NOT NULL DEFAULT 'openid profile email',
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ux_social_source ON bb_social_provider (tenant_id, source) WHERE is_deleted = 0;
CREATE TABLE blade_role_menu (
  id BIGINT PRIMARY KEY,
  menu_id BIGINT NOT NULL,
  role_id BIGINT NOT NULL
);
CREATE INDEX ix_role_menu_role ON blade_role_menu (role_id);
CREATE TABLE blade_role_scope (
  id BIGINT PRIMARY KEY,
  scope_category INTEGER NOT NULL,
  scope_id BIGINT NOT NULL,
  role_id BIGINT NOT NULL
);
CREATE INDEX ix_role_scope_role ON blade_role_scope (role_id);
CREATE TABLE blade_top_menu_setting (
  id BIGINT PRIMARY KEY,
  top_menu_id BIGINT NOT NULL,
  menu_id BIGINT NOT NULL
);
CREATE INDEX ix_top_menu_setting ON blade_top_menu_setting (top_menu_id);
CREATE TABLE blade_region (
  code VARCHAR(12) PRIMARY KEY,
  parent_code VARCHAR(12) NOT NULL,
  ancestors VARCHAR(255) NOT NULL DEFAULT '',
  name VARCHAR(32) NOT NULL,
  region_level INTEGER NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0,
  remark VARCHAR(255) NOT NULL DEFAULT ''
);
CREATE INDEX ix_region_parent ON blade_region (parent_code, sort, code);
CREATE TABLE bb_setting (
  setting_key VARCHAR(100) PRIMARY KEY,
  setting_value TEXT NOT NULL
);
CREATE TABLE bb_login_failure (
  tenant_id VARCHAR(12) NOT NULL,
  account VARCHAR(45) NOT NULL,
  fail_count INTEGER NOT NULL DEFAULT 0,
  last_fail TIMESTAMP,
  PRIMARY KEY (tenant_id, account)
);
CREATE TABLE bb_revoked_token (
  jti VARCHAR(64) PRIMARY KEY,
  expires_at TIMESTAMP NOT NULL
);
CREATE TABLE bb_user_revocation (
  user_id BIGINT PRIMARY KEY,
  revoked_before TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE blade_tenant;
DROP TABLE blade_tenant_package;
DROP TABLE blade_client;
DROP TABLE blade_user;
DROP TABLE blade_user_oauth;
DROP TABLE blade_role;
DROP TABLE blade_menu;
DROP TABLE blade_top_menu;
DROP TABLE blade_dept;
DROP TABLE blade_post;
DROP TABLE blade_dict;
DROP TABLE blade_dict_biz;
DROP TABLE blade_param;
DROP TABLE blade_scope_data;
DROP TABLE blade_scope_api;
DROP TABLE blade_datasource;
DROP TABLE bb_social_provider;
DROP TABLE blade_role_menu;
DROP TABLE blade_role_scope;
DROP TABLE blade_top_menu_setting;
DROP TABLE blade_region;
DROP TABLE bb_setting;
DROP TABLE bb_login_failure;
DROP TABLE bb_revoked_token;
DROP TABLE bb_user_revocation;
