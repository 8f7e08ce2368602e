package flow

import (
	"context"
	"embed"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
)

// The processes every tenant gets: the default one-step document approval
// (candidate group: the tenant's admin role), bound to no document type
// until an administrator names it in the flow_route dictionary, and the
// leave process of blade-desk.
//
//go:embed processes/*.bpmn
var builtin embed.FS

var builtinProcesses = []struct{ file, key, category string }{
	{"processes/approval.bpmn", "approval", "document"},
	{"processes/leave.bpmn", "leave", "leave"},
}

// Seed deploys the built-in processes once, to every live tenant. Two
// instances starting on one empty database at once both try: the second's
// insert of version 1 fails, and it finds them deployed by the first.
func (s *Service) Seed(ctx context.Context) error {
	err := s.seedOnce(ctx)
	for attempt := 0; err != nil && attempt < 3; attempt++ {
		done, cerr := s.seeded(ctx)
		if cerr == nil && done {
			return nil
		}
		err = s.seedOnce(ctx)
	}
	return err
}

// seeded tells whether every built-in process is deployed.
func (s *Service) seeded(ctx context.Context) (bool, error) {
	for _, b := range builtinProcesses {
		exists, err := s.DB.NewSelect().Table("bb_flow_definition").Where("def_key = ?", b.key).Exists(ctx)
		if err != nil || !exists {
			return false, err
		}
	}
	return true, nil
}

func (s *Service) seedOnce(ctx context.Context) error {
	return s.DB.Tx(ctx, func(tx bun.Tx) error {
		var tenants []string
		if err := tx.NewSelect().Table("blade_tenant").Column("tenant_id").Where("is_deleted = 0").Scan(ctx, &tenants); err != nil {
			return err
		}
		if len(tenants) == 0 {
			tenants = []string{authz.SuperTenant}
		}
		for _, b := range builtinProcesses {
			exists, err := tx.NewSelect().Table("bb_flow_definition").Where("def_key = ?", b.key).Exists(ctx)
			if err != nil || exists {
				if err != nil {
					return err
				}
				continue
			}
			xml, err := builtin.ReadFile(b.file)
			if err != nil {
				return err
			}
			if _, err := s.Engine.Deploy(ctx, tx, DeployInput{XML: string(xml), ResourceName: b.key + ".bpmn", Category: b.category,
				TenantIDs: tenants, Owner: authz.SuperTenant}); err != nil {
				return err
			}
		}
		return nil
	})
}

// Provision deploys the built-in processes' latest versions to a new
// tenant, in the tenant's creation transaction (system.Service.TenantProvisioners).
func (s *Service) Provision(ctx context.Context, tx bun.Tx, tenantID string) error {
	for _, b := range builtinProcesses {
		var ids []int64
		if err := tx.NewSelect().Table("bb_flow_definition").Column("id").Where("def_key = ? AND is_deleted = 0 AND tenant_id = ?", b.key, authz.SuperTenant).
			OrderExpr("def_version DESC").Limit(1).Scan(ctx, &ids); err != nil {
			return err
		}
		if len(ids) == 0 {
			continue
		}
		if err := db.InsertRow(ctx, tx, "bb_flow_definition_tenant", map[string]any{"definition_id": ids[0], "tenant_id": tenantID, "def_key": b.key}); err != nil {
			return err
		}
	}
	return nil
}
