package flow

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// DeployInput deploys one BPMN document.
type DeployInput struct {
	XML          string
	ResourceName string
	Category     string
	TenantIDs    []string // who may start it; at least one
	Owner        string   // the deploying tenant
	User         wire.ID
	DeploymentID wire.ID // shared by the files of one upload; 0: a new one
}

var (
	msgNoTenants  = i18n.T("请选择部署的租户", "Choose the tenants to deploy to")
	msgVersionRun = i18n.T("流程 %s 正在被同时部署, 请重试", "The process %s is being deployed at the same time; try again")
)

// Deploy parses, checks and stores a new version of the process in xml,
// deployed to the given tenants.
func (e *Engine) Deploy(ctx context.Context, tx bun.Tx, in DeployInput) (*Definition, error) {
	proc, err := Parse([]byte(in.XML))
	if err != nil {
		return nil, err
	}
	if len(in.TenantIDs) == 0 {
		return nil, httpx.BadRequest(msgNoTenants)
	}
	var last int
	if err := tx.NewSelect().Table("bb_flow_definition").ColumnExpr("COALESCE(MAX(def_version), 0)").Where("def_key = ?", proc.Key).Scan(ctx, &last); err != nil {
		return nil, err
	}
	now := wire.Now()
	def := &Definition{ID: db.NewID(), TenantID: in.Owner, CreateUser: in.User, UpdateUser: in.User, CreateTime: now, UpdateTime: now,
		Status: 1, RowVersion: 1, DeploymentID: in.DeploymentID, Key: proc.Key, Name: proc.Name, Version: last + 1,
		Category: in.Category, ResourceName: in.ResourceName, SuspensionState: Active, TenantIDs: strings.Join(in.TenantIDs, ","),
		DeployTime: now, XML: in.XML}
	if def.DeploymentID == 0 {
		def.DeploymentID = db.NewID()
	}
	if def.ResourceName == "" {
		def.ResourceName = proc.Key + ".bpmn20.xml"
	}
	if _, err := tx.NewInsert().Model(def).Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return nil, httpx.BadRequest(msgVersionRun.Format(proc.Key))
		}
		return nil, err
	}
	for _, t := range in.TenantIDs {
		if err := db.InsertRow(ctx, tx, "bb_flow_definition_tenant", map[string]any{"definition_id": def.ID, "tenant_id": t, "def_key": def.Key}); err != nil {
			return nil, err
		}
	}
	e.procs.Store(def.ID, proc)
	return def, nil
}
