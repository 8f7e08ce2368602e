package system

import (
	"context"
	"slices"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// removeTenantRows soft-deletes everything the tenants own, in the
// transaction that removes the tenants themselves (docs/decisions.md,
// "Deleting a tenant"): every table with a tenant_id and an is_deleted
// column (users, roles, departments, posts, the tenant's business
// dictionaries, files, social identities, parameters, and the business
// documents and master data of the other areas). The tables are read from
// the schema, so a table a later migration adds is swept too.
//
// The grant links of the tenants' roles (blade_role_menu, blade_role_scope)
// have no is_deleted: they are deleted, as removing a role deletes them
// (role.go), so no grant of a removed role stays in the grant and scope
// caches or is extended by a seed upgrade that grants a new button to every
// role holding its siblings.
func removeTenantRows(ctx context.Context, tx bun.Tx, tenantIDs []string) error {
	if len(tenantIDs) == 0 {
		return nil
	}
	roles := tx.NewSelect().Table("blade_role").Column("id").Where("tenant_id IN (?)", bun.In(tenantIDs))
	if err := deleteRoleLinks(ctx, tx, roles); err != nil { // role.go
		return err
	}
	tables, err := tenantTables(ctx, tx)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if _, err := tx.NewUpdate().Table(t).Set("is_deleted = 1").
			Where("tenant_id IN (?) AND is_deleted = 0", bun.In(tenantIDs)).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// tenantTables lists the soft-deletable tables that hold tenant rows, less
// blade_tenant (the engine removes those rows itself).
func tenantTables(ctx context.Context, tx bun.Tx) ([]string, error) {
	q := `SELECT m.name FROM sqlite_master m WHERE m.type = 'table'
		AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) p WHERE p.name = 'tenant_id')
		AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) p WHERE p.name = 'is_deleted')`
	if tx.Dialect().Name() == dialect.PG {
		q = `SELECT table_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND column_name IN ('tenant_id', 'is_deleted')
			GROUP BY table_name HAVING COUNT(DISTINCT column_name) = 2`
	}
	var tables []string
	if err := tx.NewRaw(q).Scan(ctx, &tables); err != nil {
		return nil, err
	}
	tables = slices.DeleteFunc(tables, func(t string) bool { return t == "blade_tenant" })
	slices.Sort(tables)
	return tables, nil
}
