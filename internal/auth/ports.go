// Package auth is blade-auth: the token endpoint (password, captcha,
// refresh_token, social and phone grants), captcha, logout, user-info, and the
// middleware that turns a Blade-Auth token into a Principal.
package auth

import (
	"context"

	"github.com/bluebird/console/internal/platform/wire"
)

// Account is what login needs to know of a user.
type Account struct {
	ID       wire.ID
	TenantID string
	Account  string
	Name     string
	RealName string
	Avatar   string
	Phone    string
	Password string // stored hash
	Status   int    // 1 enabled
	RoleIDs  []wire.ID
	DeptIDs  []wire.ID
	PostIDs  []wire.ID
}

// TenantInfo is what login needs to know of a tenant.
type TenantInfo struct {
	TenantID   string
	Name       string
	ExpireTime wire.Time
	// AccountNumber is the user quota; -1 is unlimited.
	AccountNumber int
	PackageID     wire.ID
}

// ClientInfo is an OAuth client.
type ClientInfo struct {
	ClientID   string
	Secret     string
	GrantTypes []string
	AccessTTL  int
	RefreshTTL int
}

// Users is the user directory (blade-user owns it).
type Users interface {
	ByAccount(ctx context.Context, tenantID, account string) (*Account, error)
	ByPhone(ctx context.Context, tenantID, phone string) (*Account, error)
	ByID(ctx context.Context, id wire.ID) (*Account, error)
	SetPasswordHash(ctx context.Context, id wire.ID, hash string) error
}

// Platform is what blade-system tells login: tenants, clients, roles and parameters.
type Platform interface {
	Tenant(ctx context.Context, tenantID string) (*TenantInfo, error)
	// TenantNow reads the tenant past the cache (its generation says it
	// changed, maybe on an instance whose invalidation has not arrived yet).
	TenantNow(ctx context.Context, tenantID string) (*TenantInfo, error)
	Client(ctx context.Context, clientID string) (*ClientInfo, error)
	RoleAliases(ctx context.Context, tenantID string, ids []wire.ID) ([]string, error)
	Param(ctx context.Context, key, def string) string
}
