package system_test

import (
	"context"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// userScopes makes a data scope (本人数据) and an API scope (用户列表) of the user menu.
func userScopes(t *testing.T, admin *apptest.Client, ids map[string]string) (data, api idBody) {
	t.Helper()
	admin.PostJSON("/api/blade-system/data-scope/submit", map[string]any{"menuId": ids["user"], "resourceCode": "user",
		"scopeName": "本人数据", "scopeType": 2, "scopeColumn": "create_user"}).OK(t, &data)
	admin.PostJSON("/api/blade-system/api-scope/submit", map[string]any{"menuId": ids["user"], "resourceCode": "user",
		"scopeName": "用户列表", "scopePath": "/api/blade-user/page", "scopeType": 1}).OK(t, &api)
	return data, api
}

// TestTenantRemovalDeletesRoleLinks: removing a tenant deletes the menu and
// scope grants of its roles (link rows without is_deleted), as removing a
// role does, and leaves another tenant's grants alone.
func TestTenantRemovalDeletesRoleLinks(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		ids := menuIDs(t, admin)
		data, api := userScopes(t, admin, ids)

		// Two tenants, each with a granted role of its own beside its admin role.
		grant := func(ta *apptest.Client, alias string) string {
			roleID := newRole(t, ta, map[string]any{"roleName": alias, "roleAlias": alias, "sort": 2})
			ta.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{roleID},
				"menuIds": []string{ids["user"], ids["user_view"]}, "dataScopeIds": []string{data.ID}, "apiScopeIds": []string{api.ID}}).OK(t, nil)
			return roleID
		}
		doomed, ta := h.NewTenant("Doomed Links")
		grant(ta, "doomed")
		kept, tb := h.NewTenant("Kept Links")
		keptRole := grant(tb, "kept")

		ctx := context.Background()
		// links counts the rows of a link table that belong to a tenant's roles (deleted roles included).
		links := func(table, tenantID string) int64 {
			t.Helper()
			n, err := h.App.DB.NewSelect().Table(table).
				Where("role_id IN (?)", h.App.DB.NewSelect().Table("blade_role").Column("id").Where("tenant_id = ?", tenantID)).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := map[string]int64{}
		for _, table := range []string{"blade_role_menu", "blade_role_scope"} {
			for _, tenant := range []string{doomed, kept} {
				if before[table+tenant] = links(table, tenant); before[table+tenant] == 0 {
					t.Fatalf("%s has no row of tenant %s before the removal", table, tenant)
				}
			}
		}

		var tenantRowID string
		if err := h.App.DB.NewSelect().Table("blade_tenant").Column("id").Where("tenant_id = ?", doomed).Scan(ctx, &tenantRowID); err != nil {
			t.Fatal(err)
		}
		admin.Post("/api/blade-system/tenant/remove", apptest.Q("ids", tenantRowID)).OK(t, nil)

		for _, table := range []string{"blade_role_menu", "blade_role_scope"} {
			if n := links(table, doomed); n != 0 {
				t.Errorf("%s keeps %d rows of the removed tenant's roles", table, n)
			}
			if n := links(table, kept); n != before[table+kept] {
				t.Errorf("%s: the other tenant's rows went from %d to %d", table, before[table+kept], n)
			}
		}
		// The roles themselves are soft-deleted, not gone.
		n, err := h.App.DB.NewSelect().Table("blade_role").Where("tenant_id = ? AND is_deleted = 1", doomed).Count(ctx)
		if err != nil || n < 2 {
			t.Errorf("soft-deleted roles of the removed tenant: %d (%v)", n, err)
		}
		// The other tenant's role still holds its grants.
		var keys treeKeys
		tb.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", keptRole)).OK(t, &keys)
		if !same(keys.Menu, ids["user"], ids["user_view"]) || !same(keys.DataScope, data.ID) || !same(keys.APIScope, api.ID) {
			t.Errorf("the kept tenant's role after the removal: %+v", keys)
		}
	})
}
