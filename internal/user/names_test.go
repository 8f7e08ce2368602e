package user_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// TestNamesStayInTenant: a user's role names come from its own tenant only.
// The reference check keeps another tenant's role out of a submit, but a row
// written before it or by hand may hold one: it is not named, to the tenant
// admin or to the super user, whose list mixes tenants.
func TestNamesStayInTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		super := h.Admin()
		tenantA, adminA := h.NewTenant("Names A")
		tenantB, _ := h.NewTenant("Names B")
		rolesA, rolesB := roleIDs(t, super, tenantA), roleIDs(t, super, tenantB)
		super.Edit("/api/blade-system/role/submit", map[string]any{"id": rolesB["admin"], "roleName": "B的角色"}).OK(t, nil)
		id := fmt.Sprint(adminA.Login["user_id"])
		if _, err := h.App.DB.NewUpdate().Table("blade_user").Set("role_id = ?", rolesA["admin"]+","+rolesB["admin"]).
			Where("id = ?", id).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := userRow(t, adminA, id)["roleName"]; got != "管理员" {
			t.Errorf("tenant admin reads roleName %q, want only its tenant's 管理员", got)
		}
		var page struct {
			Records []map[string]any `json:"records"`
		}
		super.Get("/api/blade-user/page", apptest.Q("account", "admin", "size", "1000")).OK(t, &page)
		seen := false
		for _, u := range page.Records {
			if fmt.Sprint(u["id"]) == id {
				seen = true
				if u["roleName"] != "管理员" {
					t.Errorf("super user reads roleName %q, want only the user's tenant's 管理员", u["roleName"])
				}
			}
		}
		if !seen {
			t.Errorf("user %s is not on the super user's page", id)
		}
	})
}
