package user

import (
	"context"
	"slices"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// The privilege rules of user writes (docs/security.md, "Roles"): nobody
// gives a role above their own. Tenant administrators (and the platform
// tenant's admins) manage the users of their own tenant, with that tenant's
// roles except administrator; only the super user assigns administrator, and
// only the super user changes, resets, disables or removes an account that
// holds it. Reading is left to the tenant scope of the resource.
//
// The checks read through the plain handle (blade-system's role aliases),
// so they run before the write transaction opens.

var (
	errSuperAccount = &httpx.Error{Status: 403, Msg: i18n.T("只有超级管理员可以修改超级管理员账号", "Only the super administrator may change a super administrator account")}
	errAssignSuper  = &httpx.Error{Status: 403, Msg: i18n.T("只有超级管理员可以分配超级管理员角色", "Only the super administrator may assign the super administrator role")}
	msgForeignRole  = i18n.T("角色不存在或不属于该用户的租户", "A role does not exist or belongs to another tenant")
	errSelfDisable  = httpx.Badf("不能禁用当前登录用户", "You cannot disable the account you are signed in with")
)

// targets loads the users among ids that the caller may change: each visible
// to them (else 404) and, unless the caller is the super user, none holding
// the super role.
func (s *Service) targets(ctx context.Context, ids []wire.ID) ([]User, error) {
	out := make([]User, 0, len(ids))
	for _, id := range ids {
		u, err := s.Users.Get(ctx, s.DB, id)
		if err != nil {
			return nil, err
		}
		if err := s.mayChange(ctx, u); err != nil {
			return nil, err
		}
		out = append(out, *u)
	}
	return out, nil
}

// mayChange refuses a super-user account to anyone but the super user.
func (s *Service) mayChange(ctx context.Context, u *User) error {
	if authz.From(ctx).IsSuper() || u.TenantID != authz.SuperTenant {
		return nil
	}
	ids, _ := wire.ParseIDs(u.RoleID)
	aliases, err := s.Platform.RoleAliases(ctx, u.TenantID, ids)
	if err != nil {
		return err
	}
	if slices.Contains(aliases, authz.RoleSuper) {
		return errSuperAccount
	}
	return nil
}

// mayAssign checks the roles (a comma list) given to a user of tenantID: live
// roles of that tenant, and administrator only from the super user.
func (s *Service) mayAssign(ctx context.Context, tenantID, list string) error {
	ids, err := wire.ParseIDs(list)
	if err != nil {
		return resource.FieldErrorOf(ctx, "roleId", msgForeignRole)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	aliases, err := s.Platform.RoleAliases(ctx, tenantID, ids)
	if err != nil {
		return err
	}
	if len(aliases) != len(ids) {
		return resource.FieldErrorOf(ctx, "roleId", msgForeignRole)
	}
	if slices.Contains(aliases, authz.RoleSuper) && !authz.From(ctx).IsSuper() {
		return errAssignSuper
	}
	return nil
}

// write runs fn in a transaction and then tells the sessions of the changed
// users to re-read their accounts: once inside the transaction, so that a
// store that cannot take the news aborts the change, and again after the
// commit, since a request in between may have re-read the rows as they were.
func (s *Service) write(ctx context.Context, changed []wire.ID, fn func(tx bun.Tx) error) error {
	err := s.DB.Tx(ctx, func(tx bun.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return s.Sessions.UsersChanged(ctx, changed...)
	})
	if err != nil {
		return err
	}
	return s.Sessions.UsersChanged(ctx, changed...)
}
