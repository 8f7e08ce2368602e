package app_test

import (
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// TestTenantRemoval: removing a tenant soft-deletes what it owns in the same
// transaction (docs/decisions.md): none of its users can sign in, keep a
// session or appear in a list; its roles, departments and posts are gone
// from the super user's lists (business dictionaries
// are seen by the tenant only: the same sweep removes them); the platform tenant
// cannot be removed.
func TestTenantRemoval(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Doomed Co")
		roleID, deptID := adminIDs(t, ta)
		newUser(t, ta, "worker", "w0rker", roleID, deptID)
		ta.PostJSON("/api/blade-system/post/submit", map[string]any{"category": 1, "postCode": "P1", "postName": "Doomed post", "sort": 1}).OK(t, nil)
		ta.PostJSON("/api/blade-system/dict-biz/submit", map[string]any{"code": "doomed", "dictKey": "-1", "dictValue": "Doomed", "sort": 1, "isSealed": 0}).OK(t, nil)
		worker := h.Login(tenantID, "worker", "w0rker")

		admin := h.Admin()
		// rows reads a page or a list (a tree's nodes flattened) and keeps the tenant's rows and the blank-tenant ones
		var rows func(path string) []map[string]any
		rows = func(path string) []map[string]any {
			t.Helper()
			r := admin.Get(path, apptest.Q("tenantId", tenantID, "size", "100"))
			var all []map[string]any
			if page := (apptest.Page[map[string]any]{}); len(r.Env.Data) > 0 && r.Env.Data[0] == '{' {
				r.OK(t, &page)
				all = page.Records
			} else {
				r.OK(t, &all)
			}
			var out []map[string]any
			var walk func([]map[string]any)
			walk = func(list []map[string]any) {
				for _, row := range list {
					if row["tenantId"] == tenantID || row["tenantId"] == "" {
						out = append(out, row)
					}
					if kids, ok := row["children"].([]any); ok {
						for _, k := range kids {
							walk([]map[string]any{k.(map[string]any)})
						}
					}
				}
			}
			walk(all)
			return out
		}
		lists := []string{"/api/blade-user/page", "/api/blade-system/role/list", "/api/blade-system/post/list", "/api/blade-system/dept/list"}
		for _, path := range lists {
			if len(rows(path)) == 0 {
				t.Fatalf("%s lists no row of the tenant before the removal", path)
			}
		}
		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", tenantID)).OK(t, &page)
		admin.Post("/api/blade-system/tenant/remove", apptest.Q("ids", page.Records[0]["id"].(string))).OK(t, nil)

		for _, path := range lists {
			if left := rows(path); len(left) > 0 {
				t.Errorf("%s still lists rows of the removed tenant: %v", path, left)
			}
		}
		// no user of the tenant signs in or keeps a session
		for _, acc := range [][2]string{{"admin", "admin"}, {"worker", "w0rker"}} {
			if r := h.Anon().Token_(tenantID, acc[0], acc[1]); r.Status == 200 {
				t.Errorf("%s of the removed tenant signed in", acc[0])
			}
		}
		worker.Get("/api/blade-user/info", nil).Fail(t, 401)
		ta.Get("/api/blade-user/page", nil).Fail(t, 401)

		// the platform tenant cannot be removed, and its users are untouched
		admin.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", "000000")).OK(t, &page)
		if msg := admin.Post("/api/blade-system/tenant/remove", apptest.Q("ids", page.Records[0]["id"].(string))).Fail(t, 400); msg == "" {
			t.Error("no message for the platform tenant")
		}
		h.Admin()
	})
}
