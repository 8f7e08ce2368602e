// Package authz knows who is calling (the Principal taken from the token) and
// what they may see: data-scope predicates and API-scope checks. It fails
// closed: a rule it cannot apply hides everything.
package authz

import (
	"context"
	"slices"

	"github.com/bluebird/console/internal/platform/wire"
)

// SuperTenant is the platform tenant; its administrator is the super user.
const SuperTenant = "000000"

// Role aliases with a meaning to the server.
const (
	RoleSuper = "administrator"
	RoleAdmin = "admin"
)

// Principal is the authenticated caller, built from a verified token.
type Principal struct {
	UserID      wire.ID
	TenantID    string
	Account     string
	UserName    string
	RealName    string
	DeptID      wire.ID
	RoleIDs     []wire.ID
	RoleAliases []string
	ClientID    string
	TokenID     string
}

// IsSuper is the platform super user: role administrator in tenant 000000.
func (p *Principal) IsSuper() bool {
	return p != nil && p.TenantID == SuperTenant && slices.Contains(p.RoleAliases, RoleSuper)
}

// IsTenantAdmin holds for a tenant's admin role (and the super user).
func (p *Principal) IsTenantAdmin() bool {
	return p != nil && (p.IsSuper() || slices.Contains(p.RoleAliases, RoleAdmin) || slices.Contains(p.RoleAliases, RoleSuper))
}

type principalKey struct{}

// With stores the principal in the context.
func With(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// From returns the principal, or nil for an anonymous request.
func From(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}
