-- +goose Up
-- The process manager shows each definition's tenants from its deployment
-- links (those made later for new tenants too), read by definition for a
-- page of definitions; the primary key leads with the tenant.
CREATE INDEX ix_flow_definition_tenant_def ON bb_flow_definition_tenant (definition_id);

-- +goose Down
DROP INDEX ix_flow_definition_tenant_def;
