-- +goose Up
-- The to-do and claim lists page tasks newest first (t.id DESC) for one
-- assignee (0 = unclaimed) and status: with the id in the index a page is
-- read in order and stops at its size, instead of sorting every open task
-- of the assignee (issue #10: 100,000 open tasks, a page in at most 20 ms).
CREATE INDEX ix_flow_task_list ON bb_flow_task (tenant_id, assignee, status, id);

-- Which process a tenant's documents of one type (a flow_route dictionary
-- key: material, back_stock, ...) go through, set from the process manager.
-- def_key '' says "none" and overrides a default named in the dictionaries.
CREATE TABLE bb_flow_binding (
  id BIGINT PRIMARY KEY,
  tenant_id VARCHAR(12) NOT NULL,
  route VARCHAR(64) NOT NULL,
  def_key VARCHAR(64) NOT NULL DEFAULT '',
  update_user BIGINT NOT NULL DEFAULT 0,
  update_time TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX ux_flow_binding ON bb_flow_binding (tenant_id, route);

-- +goose Down
DROP TABLE bb_flow_binding;
DROP INDEX ix_flow_task_list;
