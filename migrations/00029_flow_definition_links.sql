-- +goose Up
-- The process manager shows each definition's tenants from its deployment
-- links (those made later for new tenants too), read by definition for a
-- page of definitions; the primary key leads with the tenant.
CREATE INDEX ix_flow_definition_tenant_def ON bb_flow_definition_tenant (definition_id);

-- ix_flow_task_list (tenant_id, assignee, status, id) serves every work
-- list since 00020 (ids grow with time, and the date filters read the
-- same prefix); the older index on create_time was only written, on every
-- task created and completed.
DROP INDEX ix_flow_task_assignee;

-- +goose Down
CREATE INDEX ix_flow_task_assignee ON bb_flow_task (tenant_id, assignee, status, create_time);
DROP INDEX ix_flow_definition_tenant_def;
