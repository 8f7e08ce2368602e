package app_test

import (
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// cast is the four callers of the sensitive-endpoint matrix (docs/security.md):
// the super user; a platform admin (tenant 000000, role alias admin); a fresh
// tenant's admin; and a plain user of tenant 000000 whose role has no alias
// the server knows but holds every menu and button.
type cast struct {
	super, platformAdmin, tenantAdmin, plain *apptest.Client

	tenantID   string            // the fresh tenant
	menus      map[string]string // menu and button ids by code
	superRole  string            // role administrator (000000)
	adminRole  string            // role admin of 000000
	plainRole  string            // the plain user's role (000000)
	tenantRole string            // the fresh tenant's admin role
	dept       string            // the platform head office
	superID    string            // the super user's id
}

const castPassword = "Passw0rd!"

func newCast(t *testing.T, h *apptest.H) *cast {
	t.Helper()
	c := &cast{super: h.Admin()}
	c.superRole, c.dept = adminIDs(t, c.super)
	c.superID = c.super.Login["user_id"].(string)
	c.menus = soMenuIDs(t, c.super)
	c.adminRole = roleByAlias(t, c.super, "000000", "admin")
	c.plainRole = newRole(t, c.super, "店员", "clerk")
	all := make([]string, 0, len(c.menus))
	for _, id := range c.menus {
		all = append(all, id)
	}
	c.super.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{c.plainRole}, "menuIds": all}).OK(t, nil)
	newUser(t, c.super, "padmin", castPassword, c.adminRole, c.dept)
	newUser(t, c.super, "clerk", castPassword, c.plainRole, c.dept)
	c.platformAdmin = h.Login("000000", "padmin", castPassword)
	c.plain = h.Login("000000", "clerk", castPassword)
	c.tenantID, c.tenantAdmin = h.NewTenant("Matrix Co")
	c.tenantRole, _ = adminIDs(t, c.tenantAdmin)
	return c
}

// roleByAlias finds a tenant's role by alias through the super user's role list.
func roleByAlias(t *testing.T, super *apptest.Client, tenantID, alias string) string {
	t.Helper()
	var tree []struct {
		ID        string `json:"id"`
		TenantID  string `json:"tenantId"`
		RoleAlias string `json:"roleAlias"`
	}
	super.Get("/api/blade-system/role/list", apptest.Q("roleAlias_equal", alias, "tenantId", tenantID)).OK(t, &tree)
	for _, r := range tree {
		if r.TenantID == tenantID && r.RoleAlias == alias {
			return r.ID
		}
	}
	t.Fatalf("no role %s in tenant %s: %+v", alias, tenantID, tree)
	return ""
}

// newRole creates a role in the caller's tenant and returns its id.
func newRole(t *testing.T, c *apptest.Client, name, alias string) string {
	t.Helper()
	var role struct {
		ID string `json:"id"`
	}
	c.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": name, "roleAlias": alias, "sort": 9}).OK(t, &role)
	return role.ID
}
