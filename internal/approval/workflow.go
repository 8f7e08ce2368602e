package approval

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// The link between rows with an approval lifecycle and the workflow
// engine (architecture.md §6): where the tenant binds a process to the
// row type (flow_route dictionary), startProcess starts it and the row is
// in approval; the process's end approves it, a rejection rejects it (and
// releases what BeforeStart held), a deletion from process tracking sends
// it back to a draft; cancellation of a row in approval deletes its
// running process. One callback per business table, registered when the
// resource is mounted, so it works for every resource declaring
// startProcess, and after a restart.

var (
	msgInApproval = i18n.T("已提交审批", "Submitted for approval")
	msgDefaultWhy = i18n.T("单据作废", "Record voided")
	msgDeletedBy  = i18n.T("流程被删除: %s", "Process deleted: %s")
)

func (s *Service) boundProcess(ctx context.Context, tx bun.Tx, route string) (string, error) {
	if s.Flow == nil {
		return "", nil
	}
	return s.Flow.BoundProcess(ctx, tx, authz.From(ctx).TenantID, route)
}

// startProcesses moves rows into approval and starts the bound process of each.
func startProcesses[T any](ctx context.Context, s *Service, tx bun.Tx, res *resource.Resource[T], l Lifecycle[T], rows []*T, key string) (any, error) {
	if err := res.SetFields(ctx, tx, rows, map[string]any{"status": InApproval}); err != nil {
		return nil, err
	}
	p := authz.From(ctx)
	table := res.Spec().Table
	out := make([]Outcome, len(rows))
	for i, row := range rows {
		b := resource.BaseOf(row)
		proc := &Process{BizType: l.BizType, BizID: b.ID, InitiatorID: p.UserID, StartTime: wire.Now(), ProcessStatus: ProcessRunning}
		proc.ID, proc.TenantID, proc.Status = db.NewID(), b.TenantID, InApproval
		proc.ProcessNo = "AP" + proc.ID.String()
		if l.No != nil {
			proc.BizNo = truncate(l.No(row), 64)
		}
		if l.Title != nil {
			proc.Title = truncate(l.Title(row), 200)
		}
		if err := s.res.process.Insert(ctx, tx, proc); err != nil {
			return nil, err
		}
		if err := s.log(ctx, tx, proc, ActionSubmit, ""); err != nil {
			return nil, err
		}
		inst, node, err := s.Flow.StartBusiness(ctx, tx, b.TenantID, key, table, b.ID, proc.Title, p.UserID, rowVars(row))
		if err != nil {
			return nil, err
		}
		if _, err := tx.NewUpdate().Table("bb_tgprocess").Set("process_instance_id = ?", inst).Set("current_node = ?", truncate(node, 64)).
			Where("id = ? AND tenant_id = ?", proc.ID, proc.TenantID).Exec(ctx); err != nil {
			return nil, err
		}
		out[i] = Outcome{ID: b.ID, AuditStatus: b.Status, ProcessID: proc.ID}
	}
	return httpx.Message{Text: msgInApproval, Data: out}, nil
}

// rowVars are a row's scalar fields as process variables (conditions
// such as ${warehouseType == 1}); decimals stay strings.
func rowVars(row any) map[string]any {
	b, err := json.Marshal(row)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	vars := map[string]any{}
	for k, v := range m {
		switch v.(type) {
		case string, float64, bool:
			if len(k) <= 64 {
				vars[k] = v
			}
		}
	}
	return vars
}

// link registers the resource's table with the workflow at mount.
func link[T any](s *Service, res *resource.Resource[T], l Lifecycle[T]) {
	if s.Flow == nil {
		return
	}
	spec := res.Spec()
	visible := func(ctx context.Context, idb bun.IDB, id wire.ID) bool {
		_, err := res.Get(ctx, idb, id)
		return err == nil
	}
	s.Flow.Link(spec.Table, spec.Service, spec.Name, spec.MenuCode, visible, ended(s, res, l))
}

// voidReason is the reason a cancellation gives, or 单据作废.
func voidReason(ctx context.Context, req *resource.CommandRequest) string {
	if req != nil {
		for _, k := range []string{"reason", "voidReason", "deleteReason"} {
			if v := strings.TrimSpace(req.Values.Get(k)); v != "" {
				return truncate(v, 500)
			}
		}
	}
	return msgDefaultWhy.In(i18n.From(ctx))
}

// cancelRunning deletes the running process of a row in approval.
func (s *Service) cancelRunning(ctx context.Context, tx bun.Tx, bizType string, bizID wire.ID, reason string) error {
	p := authz.From(ctx)
	var inst []wire.ID
	if err := tx.NewSelect().Table("bb_tgprocess").Column("process_instance_id").
		Where("tenant_id = ? AND biz_type = ? AND biz_id = ? AND process_status = ? AND is_deleted = 0", p.TenantID, bizType, bizID, ProcessRunning).
		OrderExpr("id DESC").Limit(1).Scan(ctx, &inst); err != nil {
		return err
	}
	if len(inst) == 0 || inst[0] == 0 || s.Flow == nil {
		return nil
	}
	return s.Flow.CancelBusiness(ctx, tx, p.TenantID, inst[0], reason)
}

// ended is the callback of a row's process end, in the transaction of
// the approval, rejection or deletion that ended it. The approver may not
// see the row through their data scope: the row is read and moved as its
// tenant's administrator would, and that is logged.
func ended[T any](s *Service, res *resource.Resource[T], l Lifecycle[T]) func(ctx context.Context, tx bun.Tx, tenantID string, bizID, instanceID wire.ID, result, comment string) error {
	return func(ctx context.Context, tx bun.Tx, tenantID string, bizID, instanceID wire.ID, result, comment string) error {
		actor := authz.From(ctx)
		if actor == nil || actor.TenantID != tenantID {
			return httpx.ErrForbidden
		}
		elevated := *actor
		elevated.RoleAliases = append(append([]string(nil), actor.RoleAliases...), authz.RoleAdmin)
		ctx = authz.With(ctx, &elevated)
		slog.InfoContext(ctx, "workflow end moves a business row", "table", res.Spec().Table, "id", bizID, "user", actor.UserID, "result", result)
		row, err := res.Get(ctx, tx, bizID)
		if err != nil {
			return err
		}
		if resource.BaseOf(row).Status != InApproval {
			return nil // voided or moved meanwhile: the process outlived its row's approval
		}
		rows := []*T{row}
		status, procStatus, action := Approved, ProcessApproved, ActionApprove
		switch result {
		case "rejected":
			status, procStatus, action = Rejected, ProcessRejected, ActionReject
		case "deleted":
			status, procStatus, action = Draft, ProcessWithdrawn, ActionWithdraw
			comment = msgDeletedBy.Format(comment).In(i18n.From(ctx))
		}
		if err := res.SetFields(ctx, tx, rows, map[string]any{"status": status}); err != nil {
			return err
		}
		if status != Approved && l.Release != nil {
			if err := l.Release(ctx, tx, rows); err != nil {
				return err
			}
		}
		if status == Approved && l.AfterApprove != nil {
			if err := l.AfterApprove(ctx, tx, res, rows); err != nil {
				return err
			}
		}
		var procs []*Process
		if err := tx.NewSelect().Model(&procs).ModelTableExpr("bb_tgprocess AS ?TableAlias").
			Where("?TableAlias.tenant_id = ? AND ?TableAlias.process_instance_id = ? AND ?TableAlias.is_deleted = 0", tenantID, instanceID).Scan(ctx); err != nil {
			return err
		}
		if len(procs) == 0 {
			return nil
		}
		if err := s.res.process.SetFields(ctx, tx, procs, map[string]any{"processStatus": procStatus, "endTime": wire.Now(), "status": status, "currentNode": ""}); err != nil {
			return err
		}
		return s.log(ctx, tx, procs[0], action, truncate(comment, 500))
	}
}
