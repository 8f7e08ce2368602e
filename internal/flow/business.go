package flow

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/wire"
)

// The business link (approval.Workflow): documents bound to a process by
// the flow_route dictionary start it on startProcess and hear of its end.

// StartBusiness starts process key for a business row; it answers the
// instance and the names of the tasks it waits in.
func (s *Service) StartBusiness(ctx context.Context, tx bun.Tx, tenantID, key, table string, id wire.ID, title string, initiator wire.ID, vars map[string]any) (wire.ID, string, error) {
	inst, err := s.Engine.Start(ctx, tx, StartInput{TenantID: tenantID, Key: key, BusinessTable: table, BusinessID: id, Title: title,
		Initiator: initiator, Vars: vars})
	if err != nil {
		return 0, "", err
	}
	var names []string
	if err := tx.NewSelect().Table("bb_flow_task").Column("name").Where("tenant_id = ? AND instance_id = ? AND status = ?", tenantID, inst.ID, TaskOpen).
		OrderExpr("id").Scan(ctx, &names); err != nil {
		return 0, "", err
	}
	return inst.ID, strings.Join(names, ","), nil
}

// CancelBusiness deletes a business row's running instance without
// calling back (the row is being voided by its own command).
func (s *Service) CancelBusiness(ctx context.Context, tx bun.Tx, tenantID string, instanceID wire.ID, reason string) error {
	_, err := s.Engine.Delete(ctx, tx, tenantID, instanceID, reason, false)
	if err == errNotRunning {
		return nil
	}
	return err
}

// Link registers a business table (approval.Workflow).
func (s *Service) Link(table, service, name, menuCode string, visible func(ctx context.Context, idb bun.IDB, id wire.ID) bool,
	end func(ctx context.Context, tx bun.Tx, tenantID string, bizID, instanceID wire.ID, result, comment string) error) {
	s.RegisterBusiness(table, &Business{Service: service, Name: name, MenuCode: menuCode, Visible: visible},
		func(ctx context.Context, tx bun.Tx, inst *Instance, result, comment string) error {
			return end(ctx, tx, inst.TenantID, inst.BusinessID, inst.ID, result, comment)
		})
}
