package system_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/authz"
)

// TestDictChoices: the entries an Excel import reads labels from, in order,
// a business dictionary's from the caller's tenant only.
func TestDictChoices(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		sys, d := h.App.System, h.App.DB
		got, err := sys.DictChoices(context.Background(), d, "sex", false)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != "[{1 {男 Male}} {2 {女 Female}} {3 {未知 Unknown}}]" {
			t.Errorf("sex: %v", got)
		}
		tenantID, admin := h.NewTenant("Acme")
		var root struct{ ID string }
		admin.PostJSON("/api/blade-system/dict-biz/submit", map[string]any{"code": "grade", "dictKey": "-1", "dictValue": "等级", "sort": 1, "isSealed": 0}).OK(t, &root)
		admin.PostJSON("/api/blade-system/dict-biz/submit", map[string]any{"parentId": root.ID, "code": "grade", "dictKey": "A", "dictValue": "甲", "sort": 1, "isSealed": 0}).OK(t, nil)
		as := func(tenant string) context.Context {
			return authz.With(context.Background(), &authz.Principal{UserID: 1, TenantID: tenant, RoleAliases: []string{authz.RoleAdmin}})
		}
		if got, err := sys.DictChoices(as(tenantID), d, "grade", true); err != nil || fmt.Sprint(got) != "[{A {甲 甲}}]" {
			t.Errorf("own business dictionary: %v %v", got, err)
		}
		if got, _ := sys.DictChoices(as("000000"), d, "grade", true); len(got) != 0 {
			t.Errorf("another tenant's business dictionary: %v", got)
		}
	})
}
