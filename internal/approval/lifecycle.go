package approval

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Lifecycle declares how a resource's rows go through approval: the
// business type their records carry and how a row is named in them.
type Lifecycle[T any] struct {
	BizType string // "MATERIAL", "WAREHOUSE"...
	// Void adds cancellation: only where the screen's menu has its button
	// (spec.md §4 lists which records may be voided), else nobody but the
	// super user could run it.
	Void bool
	// No and Title name the row in its approval record ("M001", "物料 M001 螺栓").
	No    func(*T) string
	Title func(*T) string
	// BeforeStart and BeforeVoid hold the resource's own checks, inside the
	// command's transaction, before any row moves.
	BeforeStart func(ctx context.Context, tx bun.Tx, rows []*T) error
	BeforeVoid  func(ctx context.Context, tx bun.Tx, rows []*T) error
	// Route is the row type's key in the flow_route dictionary (default:
	// BizType in lower case), which binds a tenant's process to it.
	Route string
	// AfterApprove runs when rows become approved: at once, or at the end
	// of their process (in the transaction of the last approval).
	AfterApprove func(ctx context.Context, tx bun.Tx, res *resource.Resource[T], rows []*T) error
	// Release undoes what BeforeStart holds (stock locks) when a process
	// is rejected or deleted: the row goes back to be edited.
	Release func(ctx context.Context, tx bun.Tx, rows []*T) error
}

func (l *Lifecycle[T]) route() string {
	if l.Route != "" {
		return l.Route
	}
	return strings.ToLower(l.BizType)
}

// MasterStates are the state rules of master data: editable while a draft,
// once approved (a name corrected) or rejected, never while in approval or
// once voided; removable unless in approval or approved (approved master
// data is voided, so that what refers to it keeps its meaning).
func MasterStates() *resource.StateRules {
	return &resource.StateRules{Field: "status", Initial: Draft,
		Edit: []int{Draft, Approved, Rejected}, Remove: []int{Draft, Rejected, Voided},
		Dict: "audit_status", Label: i18n.T("审核状态", "Audit status")}
}

// DocStates are the state rules of documents (domain.md §3): edited and
// removed only while a draft or rejected.
func DocStates() *resource.StateRules {
	return &resource.StateRules{Field: "status", Initial: Draft,
		Edit: []int{Draft, Rejected}, Remove: []int{Draft, Rejected},
		Dict: "audit_status", Label: i18n.T("审核状态", "Audit status")}
}

// Outcome is what startProcess and cancellation answer per row (domain.md §8).
type Outcome struct {
	ID          wire.ID `json:"id"`
	AuditStatus int     `json:"auditStatus"`
	ProcessID   wire.ID `json:"processId,omitempty"`
}

var (
	msgStart       = i18n.T("提交审批", "Submit for approval")
	msgStartDone   = i18n.T("提交成功,已审批通过", "Submitted and approved")
	msgVoid        = i18n.T("作废", "Void")
	msgVoidDone    = i18n.T("作废成功", "Voided")
	msgVoidConfirm = i18n.T("确定作废选择的数据?作废后不能恢复", "Void the selected records? This cannot be undone")
	msgAutoApprove = i18n.T("未启用审批流程,自动通过", "No approval process configured: approved automatically")
)

// Commands are a resource's startProcess and cancellation (domain.md §3):
// startProcess from draft or rejected (approved at once, or in approval
// when the tenant binds a process to the row type: workflow.go),
// cancellation from draft, in approval (its running process is deleted
// with the reason), rejected or approved. Their buttons are
// <menu>_start_process and <menu>_cancellation (menus.md).
func Commands[T any](s *Service, l Lifecycle[T]) []resource.Command[T] {
	start := resource.Command[T]{Name: resource.StartProcess, Label: msgStart, Button: "start_process", Done: msgStartDone,
		From: &resource.States{Field: "status", Values: []int{Draft, Rejected}},
		Run: func(ctx context.Context, tx bun.Tx, res *resource.Resource[T], rows []*T, _ *resource.CommandRequest) (any, error) {
			if l.BeforeStart != nil {
				if err := l.BeforeStart(ctx, tx, rows); err != nil {
					return nil, err
				}
			}
			key, err := s.boundProcess(ctx, tx, l.route())
			if err != nil {
				return nil, err
			}
			if key != "" {
				return startProcesses(ctx, s, tx, res, l, rows, key)
			}
			out := make([]Outcome, len(rows))
			for i, row := range rows {
				id, err := approveAtOnce(ctx, s, tx, l, row)
				if err != nil {
					return nil, err
				}
				out[i] = Outcome{ID: resource.BaseOf(row).ID, AuditStatus: Approved, ProcessID: id}
			}
			if err := res.SetFields(ctx, tx, rows, map[string]any{"status": Approved}); err != nil {
				return nil, err
			}
			if l.AfterApprove != nil {
				if err := l.AfterApprove(ctx, tx, res, rows); err != nil {
					return nil, err
				}
			}
			return out, nil
		},
		Mounted: func(res *resource.Resource[T]) { link(s, res, l) }}
	if !l.Void {
		return []resource.Command[T]{start}
	}
	void := resource.Command[T]{Name: "cancellation", Label: msgVoid, Button: "cancellation", Done: msgVoidDone, Confirm: msgVoidConfirm,
		From: &resource.States{Field: "status", Values: []int{Draft, InApproval, Rejected, Approved}},
		Run: func(ctx context.Context, tx bun.Tx, res *resource.Resource[T], rows []*T, req *resource.CommandRequest) (any, error) {
			for _, row := range rows {
				if resource.BaseOf(row).Status == InApproval {
					if err := s.cancelRunning(ctx, tx, l.BizType, resource.BaseOf(row).ID, voidReason(ctx, req)); err != nil {
						return nil, err
					}
				}
			}
			if l.BeforeVoid != nil {
				if err := l.BeforeVoid(ctx, tx, rows); err != nil {
					return nil, err
				}
			}
			out := make([]Outcome, len(rows))
			for i, row := range rows {
				id, err := s.terminate(ctx, tx, l.BizType, resource.BaseOf(row).ID)
				if err != nil {
					return nil, err
				}
				out[i] = Outcome{ID: resource.BaseOf(row).ID, AuditStatus: Voided, ProcessID: id}
			}
			return out, res.SetFields(ctx, tx, rows, map[string]any{"status": Voided})
		}}
	return []resource.Command[T]{start, void}
}

// approveAtOnce records a submission approved at once: the process and its
// two log lines (submitted; approved by the system, since no workflow runs).
// The engine's Insert stamps them as the caller's, in the row's tenant.
func approveAtOnce[T any](ctx context.Context, s *Service, tx bun.Tx, l Lifecycle[T], row *T) (wire.ID, error) {
	p := authz.From(ctx)
	now := wire.Now()
	b := resource.BaseOf(row)
	proc := &Process{BizType: l.BizType, BizID: b.ID, InitiatorID: p.UserID, StartTime: now, EndTime: now, ProcessStatus: ProcessApproved}
	proc.ID, proc.TenantID, proc.Status = db.NewID(), b.TenantID, Approved
	proc.ProcessNo = "AP" + proc.ID.String()
	if l.No != nil {
		proc.BizNo = truncate(l.No(row), 64)
	}
	if l.Title != nil {
		proc.Title = truncate(l.Title(row), 200)
	}
	if err := s.res.process.Insert(ctx, tx, proc); err != nil {
		return 0, err
	}
	if err := s.log(ctx, tx, proc, ActionSubmit, ""); err != nil {
		return 0, err
	}
	return proc.ID, s.log(ctx, tx, proc, ActionApprove, msgAutoApprove.In(i18n.From(ctx)))
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// terminate closes the row's latest process with a terminate log line; a
// row never submitted has none.
func (s *Service) terminate(ctx context.Context, tx bun.Tx, bizType string, bizID wire.ID) (wire.ID, error) {
	var procs []*Process
	q, err := s.res.process.Select(ctx, tx, &procs)
	if err != nil {
		return 0, err
	}
	if err := q.Where("biz_type = ? AND biz_id = ?", bizType, bizID).OrderExpr("id DESC").Limit(1).Scan(ctx); err != nil || len(procs) == 0 {
		return 0, err
	}
	if err := s.res.process.SetFields(ctx, tx, procs, map[string]any{"processStatus": ProcessTerminated, "endTime": wire.Now()}); err != nil {
		return 0, err
	}
	return procs[0].ID, s.log(ctx, tx, procs[0], ActionTerminate, msgVoid.In(i18n.From(ctx)))
}

// log adds one step to a process, as the caller.
func (s *Service) log(ctx context.Context, tx bun.Tx, proc *Process, action int, comment string) error {
	entry := &ProcessLog{ProcessID: proc.ID, Action: action, OperatorID: authz.From(ctx).UserID, Comment: comment, ActedAt: wire.Now()}
	entry.TenantID = proc.TenantID
	return s.res.log.Insert(ctx, tx, entry)
}
