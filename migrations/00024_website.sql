-- +goose Up
-- The company-website content area (internal/website): what the
-- office-manage screens edit and a website reads through the public
-- endpoints (published rows of its tenant, by sort), the client website's
-- customers and users, and the applications sent through its form.

CREATE TABLE bb_website_employee (
  {{base}},
  employee_name VARCHAR(64) NOT NULL,
  position VARCHAR(64) NOT NULL DEFAULT '',
  avatar_url VARCHAR(500) NOT NULL DEFAULT '',
  intro TEXT NOT NULL DEFAULT '',
  is_published INTEGER NOT NULL DEFAULT 0,
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_website_employee_public ON bb_website_employee (tenant_id, is_published, sort);

CREATE TABLE bb_website_news (
  {{base}},
  title VARCHAR(200) NOT NULL,
  cover_url VARCHAR(500) NOT NULL DEFAULT '',
  summary VARCHAR(500) NOT NULL DEFAULT '',
  content TEXT NOT NULL DEFAULT '',
  publish_time TIMESTAMP,
  is_published INTEGER NOT NULL DEFAULT 0,
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_website_news_public ON bb_website_news (tenant_id, is_published, sort);

CREATE TABLE bb_website_case (
  {{base}},
  title VARCHAR(200) NOT NULL,
  customer_name VARCHAR(128) NOT NULL DEFAULT '',
  cover_url VARCHAR(500) NOT NULL DEFAULT '',
  summary VARCHAR(500) NOT NULL DEFAULT '',
  content TEXT NOT NULL DEFAULT '',
  is_published INTEGER NOT NULL DEFAULT 0,
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_website_case_public ON bb_website_case (tenant_id, is_published, sort);

CREATE TABLE bb_website_video (
  {{base}},
  title VARCHAR(200) NOT NULL,
  cover_url VARCHAR(500) NOT NULL DEFAULT '',
  video_url VARCHAR(500) NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  is_published INTEGER NOT NULL DEFAULT 0,
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_website_video_public ON bb_website_video (tenant_id, is_published, sort);

CREATE TABLE bb_website_job (
  {{base}},
  job_name VARCHAR(128) NOT NULL,
  department VARCHAR(64) NOT NULL DEFAULT '',
  location VARCHAR(128) NOT NULL DEFAULT '',
  headcount INTEGER NOT NULL DEFAULT 0,
  salary VARCHAR(64) NOT NULL DEFAULT '',
  requirement TEXT NOT NULL DEFAULT '',
  is_published INTEGER NOT NULL DEFAULT 0,
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_website_job_public ON bb_website_job (tenant_id, is_published, sort);

CREATE TABLE bb_website_customer (
  {{base}},
  customer_name VARCHAR(128) NOT NULL,
  logo_url VARCHAR(500) NOT NULL DEFAULT '',
  contact_name VARCHAR(64) NOT NULL DEFAULT '',
  contact_phone VARCHAR(32) NOT NULL DEFAULT '',
  email VARCHAR(128) NOT NULL DEFAULT '',
  site_url VARCHAR(255) NOT NULL DEFAULT '',
  description VARCHAR(2000) NOT NULL DEFAULT '',
  is_published INTEGER NOT NULL DEFAULT 0,
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_website_customer_public ON bb_website_customer (tenant_id, is_published, sort);

CREATE TABLE bb_website_user (
  {{base}},
  account VARCHAR(64) NOT NULL,
  real_name VARCHAR(64) NOT NULL DEFAULT '',
  phone VARCHAR(32) NOT NULL DEFAULT '',
  email VARCHAR(128) NOT NULL DEFAULT '',
  company VARCHAR(128) NOT NULL DEFAULT '',
  remark VARCHAR(500) NOT NULL DEFAULT ''
);
{{unique "bb_website_user" "account"}}

CREATE TABLE bb_website_message (
  {{base}},
  applicant_name VARCHAR(64) NOT NULL,
  phone VARCHAR(32) NOT NULL,
  email VARCHAR(128) NOT NULL DEFAULT '',
  job_id BIGINT NOT NULL DEFAULT 0,
  content VARCHAR(2000) NOT NULL DEFAULT '',
  client_ip VARCHAR(64) NOT NULL DEFAULT '',
  is_handled INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_website_message_tenant ON bb_website_message (tenant_id, id);

-- +goose Down
DROP TABLE bb_website_message;
DROP TABLE bb_website_user;
DROP TABLE bb_website_customer;
DROP TABLE bb_website_job;
DROP TABLE bb_website_video;
DROP TABLE bb_website_case;
DROP TABLE bb_website_news;
DROP TABLE bb_website_employee;
