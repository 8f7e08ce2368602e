package user

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// The approval of registered accounts (register.go): an account waiting
// for approval (status 2) is approved (enabled) or rejected (removed, so
// the account name and the third-party identity may register again). Both
// need the user_audit button and refuse an account in another state.
var (
	msgAuditPass     = i18n.T("审核通过", "Approve")
	msgAuditRefuse   = i18n.T("审核拒绝", "Reject")
	msgAuditPassAsk  = i18n.T("确定通过选择的注册申请?", "Approve the selected registrations?")
	msgAuditRefAsk   = i18n.T("确定拒绝选择的注册申请?拒绝后账号将被删除", "Reject the selected registrations? The accounts will be deleted")
	msgAuditPassDone = i18n.T("已审核通过", "Approved")
	msgAuditRefDone  = i18n.T("已拒绝注册申请", "Registrations rejected")
	// A registration takes the tenant's "user" role when it has one; a tenant
	// without it (a new one has only admin) must give the account a role
	// first, or the approved account could not sign in.
	msgAuditNoRole = i18n.T("账号 %s 还没有角色:请先用“角色配置”为其分配角色,再审核通过",
		"Account %s has no role yet: give it one with Role setting first, then approve it")
)

func (s *Service) auditCommands() []resource.Command[User] {
	pending := &resource.States{Field: "status", Values: []int{auth.UserPending}}
	return []resource.Command[User]{
		{Name: "auditPass", Label: msgAuditPass, Button: "audit", Confirm: msgAuditPassAsk, From: pending, Done: msgAuditPassDone, Toolbar: true,
			Run: func(ctx context.Context, tx bun.Tx, res *resource.Resource[User], rows []*User, _ *resource.CommandRequest) (any, error) {
				for _, u := range rows {
					if strings.TrimSpace(u.RoleID) == "" {
						return nil, httpx.Badf(msgAuditNoRole.Zh, msgAuditNoRole.En, u.Account)
					}
				}
				return nil, res.SetFields(ctx, tx, rows, map[string]any{"status": auth.UserEnabled})
			}},
		{Name: "auditRefuse", Label: msgAuditRefuse, Button: "audit", Confirm: msgAuditRefAsk, From: pending, Done: msgAuditRefDone, Toolbar: true,
			Run: func(ctx context.Context, tx bun.Tx, res *resource.Resource[User], rows []*User, _ *resource.CommandRequest) (any, error) {
				ids := make([]wire.ID, len(rows))
				for i, u := range rows {
					ids[i] = u.ID
				}
				_, err := res.Remove(ctx, tx, ids)
				return nil, err
			}},
	}
}
