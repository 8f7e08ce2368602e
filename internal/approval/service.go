package approval

import (
	"context"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Service keeps the approval records.
type Service struct {
	DB *db.DB
	// Flow is the workflow engine (internal/flow); without it, or where a
	// tenant binds no process to a document type, startProcess approves at once.
	Flow Workflow
	res  struct {
		process *resource.Resource[Process]
		log     *resource.Resource[ProcessLog]
	}
}

// New returns the approval service on d.
func New(d *db.DB) *Service { return &Service{DB: d} }

// Mount routes the approval records (bluebird-basic/tgprocess): read by
// anyone signed in to the tenant, removed by administrators; they are
// written only by the lifecycle commands of the rows they record.
func (s *Service) Mount(r chi.Router, env *resource.Env) []resource.Registered {
	// the log has no routes of its own: it is read as the process's details
	s.res.log = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "tgprocesslog", Table: "bb_tgprocess_log", Label: i18n.T("审批日志", "Approval log"),
		DefaultOrder: "acted_at ASC, id ASC",
	}, resource.Hooks[ProcessLog]{})
	s.res.process = resource.New(resource.Spec{
		Service: "bluebird-basic", Name: "tgprocess", Table: "bb_tgprocess", Label: i18n.T("审批记录", "Approval record"),
		MenuCode: "tgprocess", Write: resource.Admin, Routes: []string{"list", "page", "detail", "remove", "export"},
		Unique: [][]string{{"processNo"}}, DefaultOrder: "id DESC",
		Lines: &resource.Lines{Field: "details", Child: s.res.log, Parent: "processId"},
	}, resource.Hooks[Process]{})
	s.res.process.Mount(r, env)
	return []resource.Registered{s.res.process}
}

// Workflow is what approval needs of the workflow engine (flow.Service).
type Workflow interface {
	// BoundProcess is the process key the tenant binds to a document type
	// (the flow_route dictionary), "" when none.
	BoundProcess(ctx context.Context, idb bun.IDB, tenantID, route string) (string, error)
	// StartBusiness starts the process for a business row: its instance id
	// and the names of the tasks it waits in.
	StartBusiness(ctx context.Context, tx bun.Tx, tenantID, key, table string, id wire.ID, title string, initiator wire.ID, vars map[string]any) (wire.ID, string, error)
	// CancelBusiness deletes a running instance with a reason, without calling back.
	CancelBusiness(ctx context.Context, tx bun.Tx, tenantID string, instanceID wire.ID, reason string) error
	// Link registers a business table: its resource, who may read a row,
	// and the callback of its instances' end (result approved, rejected, deleted).
	Link(table, service, name, menuCode string, visible func(ctx context.Context, idb bun.IDB, id wire.ID) bool,
		end func(ctx context.Context, tx bun.Tx, tenantID string, bizID, instanceID wire.ID, result, comment string) error)
}
