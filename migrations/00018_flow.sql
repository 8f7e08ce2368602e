-- +goose Up
-- The workflow engine's state (internal/flow, architecture.md §6): models
-- being drawn, deployed definitions, and the running side (instances,
-- tasks with their candidates, join and multi-instance executions,
-- variables, history). Everything the engine knows lives here, so a
-- restart loses nothing; every row carries its tenant and every query
-- filters on it.

-- A model is a process being drawn in the designer (BPMN XML).
CREATE TABLE bb_flow_model (
  {{base}},
  model_key VARCHAR(64) NOT NULL,
  name VARCHAR(128) NOT NULL,
  description VARCHAR(500) NOT NULL DEFAULT '',
  category VARCHAR(64) NOT NULL DEFAULT '',
  model_version INTEGER NOT NULL DEFAULT 0,
  xml TEXT NOT NULL
);
{{unique "bb_flow_model" "model_key"}}

-- A definition is one deployed version of a process, immutable but for
-- its suspension state. tenant_id is the deploying tenant; the tenants it
-- was deployed to are in bb_flow_definition_tenant.
CREATE TABLE bb_flow_definition (
  {{base}},
  deployment_id BIGINT NOT NULL,
  def_key VARCHAR(64) NOT NULL,
  name VARCHAR(128) NOT NULL,
  def_version INTEGER NOT NULL,
  category VARCHAR(64) NOT NULL DEFAULT '',
  resource_name VARCHAR(255) NOT NULL DEFAULT '',
  suspension_state INTEGER NOT NULL DEFAULT 1,
  tenant_ids VARCHAR(1000) NOT NULL DEFAULT '',
  deploy_time TIMESTAMP,
  xml TEXT NOT NULL
);
CREATE UNIQUE INDEX ux_flow_definition_key_version ON bb_flow_definition (def_key, def_version);
CREATE INDEX ix_flow_definition_deployment ON bb_flow_definition (deployment_id);
CREATE TABLE bb_flow_definition_tenant (
  definition_id BIGINT NOT NULL,
  tenant_id VARCHAR(12) NOT NULL,
  def_key VARCHAR(64) NOT NULL,
  PRIMARY KEY (tenant_id, definition_id)
);
CREATE INDEX ix_flow_definition_tenant_key ON bb_flow_definition_tenant (tenant_id, def_key);

-- An instance is one run of a definition, for a business key <table>:<id>.
-- status: running, approved, rejected, deleted.
CREATE TABLE bb_flow_instance (
  id BIGINT PRIMARY KEY,
  tenant_id VARCHAR(12) NOT NULL,
  definition_id BIGINT NOT NULL,
  def_key VARCHAR(64) NOT NULL,
  def_name VARCHAR(128) NOT NULL DEFAULT '',
  def_version INTEGER NOT NULL DEFAULT 1,
  category VARCHAR(64) NOT NULL DEFAULT '',
  business_key VARCHAR(128) NOT NULL DEFAULT '',
  business_table VARCHAR(64) NOT NULL DEFAULT '',
  business_id BIGINT NOT NULL DEFAULT 0,
  title VARCHAR(200) NOT NULL DEFAULT '',
  initiator BIGINT NOT NULL DEFAULT 0,
  status VARCHAR(16) NOT NULL,
  start_time TIMESTAMP NOT NULL,
  end_time TIMESTAMP,
  delete_reason VARCHAR(500) NOT NULL DEFAULT '',
  flows TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX ix_flow_instance_business ON bb_flow_instance (tenant_id, business_key);
CREATE INDEX ix_flow_instance_initiator ON bb_flow_instance (tenant_id, initiator, start_time);
CREATE INDEX ix_flow_instance_status ON bb_flow_instance (tenant_id, status, start_time);

-- A task is one user task waiting for (status 1 open), done by (2) or
-- cancelled before (3) a person. execution_id names its multi-instance
-- execution (0 for a plain task).
CREATE TABLE bb_flow_task (
  id BIGINT PRIMARY KEY,
  tenant_id VARCHAR(12) NOT NULL,
  instance_id BIGINT NOT NULL,
  execution_id BIGINT NOT NULL DEFAULT 0,
  activity_id VARCHAR(64) NOT NULL,
  name VARCHAR(128) NOT NULL DEFAULT '',
  assignee BIGINT NOT NULL DEFAULT 0,
  status INTEGER NOT NULL DEFAULT 1,
  loop_index INTEGER NOT NULL DEFAULT 0,
  create_time TIMESTAMP NOT NULL,
  claim_time TIMESTAMP,
  end_time TIMESTAMP,
  comment VARCHAR(500) NOT NULL DEFAULT '',
  pass INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX ix_flow_task_assignee ON bb_flow_task (tenant_id, assignee, status, create_time);
CREATE INDEX ix_flow_task_instance ON bb_flow_task (tenant_id, instance_id, status);
-- Candidates of a task nobody has claimed: one row per candidate user or
-- group (role alias), removed when the task is claimed or closed, so the
-- claim list reads only what is claimable.
CREATE TABLE bb_flow_task_candidate (
  id BIGINT PRIMARY KEY,
  tenant_id VARCHAR(12) NOT NULL,
  task_id BIGINT NOT NULL,
  user_id BIGINT NOT NULL DEFAULT 0,
  group_alias VARCHAR(64) NOT NULL DEFAULT ''
);
CREATE INDEX ix_flow_candidate_user ON bb_flow_task_candidate (tenant_id, user_id, task_id);
CREATE INDEX ix_flow_candidate_group ON bb_flow_task_candidate (tenant_id, group_alias, task_id);
CREATE INDEX ix_flow_candidate_task ON bb_flow_task_candidate (task_id);

-- Executions a token waits in: a parallel join counting its arrivals
-- (kind join), a multi-instance task counting its completions (kind multi).
CREATE TABLE bb_flow_execution (
  id BIGINT PRIMARY KEY,
  tenant_id VARCHAR(12) NOT NULL,
  instance_id BIGINT NOT NULL,
  activity_id VARCHAR(64) NOT NULL,
  kind VARCHAR(16) NOT NULL,
  arrived INTEGER NOT NULL DEFAULT 0,
  total INTEGER NOT NULL DEFAULT 0,
  completed INTEGER NOT NULL DEFAULT 0,
  approved INTEGER NOT NULL DEFAULT 0,
  next_index INTEGER NOT NULL DEFAULT 0,
  collection TEXT NOT NULL
);
CREATE INDEX ix_flow_execution_instance ON bb_flow_execution (tenant_id, instance_id, activity_id);

-- Variables of an instance, JSON values.
CREATE TABLE bb_flow_variable (
  id BIGINT PRIMARY KEY,
  tenant_id VARCHAR(12) NOT NULL,
  instance_id BIGINT NOT NULL,
  name VARCHAR(64) NOT NULL,
  value TEXT NOT NULL
);
CREATE UNIQUE INDEX ux_flow_variable ON bb_flow_variable (instance_id, name);

-- History: every activity an instance passed, with who, when, how long,
-- the comment and the pass flag (1 approved, 0 rejected, -1 not a decision).
CREATE TABLE bb_flow_history (
  id BIGINT PRIMARY KEY,
  tenant_id VARCHAR(12) NOT NULL,
  instance_id BIGINT NOT NULL,
  task_id BIGINT NOT NULL DEFAULT 0,
  activity_id VARCHAR(64) NOT NULL,
  activity_name VARCHAR(128) NOT NULL DEFAULT '',
  activity_type VARCHAR(32) NOT NULL,
  assignee BIGINT NOT NULL DEFAULT 0,
  start_time TIMESTAMP NOT NULL,
  end_time TIMESTAMP,
  duration_ms BIGINT NOT NULL DEFAULT 0,
  comment VARCHAR(500) NOT NULL DEFAULT '',
  pass INTEGER NOT NULL DEFAULT -1,
  seq INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ix_flow_history_instance ON bb_flow_history (tenant_id, instance_id, seq);
CREATE INDEX ix_flow_history_task ON bb_flow_history (task_id);

-- The approval record of a business row names its workflow instance.
ALTER TABLE bb_tgprocess ADD COLUMN process_instance_id BIGINT NOT NULL DEFAULT 0;

-- The leave request, the reference process of blade-desk (api-contract.md §7).
CREATE TABLE bb_leave (
  {{base}},
  process_definition_id BIGINT NOT NULL DEFAULT 0,
  process_instance_id BIGINT NOT NULL DEFAULT 0,
  start_time TIMESTAMP,
  end_time TIMESTAMP,
  days {{decimal 10 2}} NOT NULL,
  reason VARCHAR(500) NOT NULL DEFAULT '',
  task_user BIGINT NOT NULL DEFAULT 0,
  apply_time TIMESTAMP
);
CREATE INDEX ix_leave_instance ON bb_leave (tenant_id, process_instance_id);

-- +goose Down
DROP TABLE bb_leave;
ALTER TABLE bb_tgprocess DROP COLUMN process_instance_id;
DROP TABLE bb_flow_history;
DROP TABLE bb_flow_variable;
DROP TABLE bb_flow_execution;
DROP TABLE bb_flow_task_candidate;
DROP TABLE bb_flow_task;
DROP TABLE bb_flow_instance;
DROP TABLE bb_flow_definition_tenant;
DROP TABLE bb_flow_definition;
DROP TABLE bb_flow_model;
