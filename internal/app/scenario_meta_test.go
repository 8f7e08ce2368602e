package app_test

import (
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// metaOf is a resource's metadata as /api/meta/resources sends it, fields kept whole.
type metaOf struct {
	Name     string                  `json:"name"`
	Service  string                  `json:"service"`
	Path     string                  `json:"path"`
	MenuCode string                  `json:"menuCode"`
	Label    struct{ Zh, En string } `json:"label"`
	Actions  []string                `json:"actions"`
	Fields   []map[string]any        `json:"fields"`
}

func allMeta(t *testing.T, c *apptest.Client) []metaOf {
	t.Helper()
	var all []metaOf
	c.Get("/api/meta/resources", nil).OK(t, &all)
	if len(all) < 15 {
		t.Fatalf("only %d resources in metadata", len(all))
	}
	return all
}

// TestResourceNames: every resource has a name, a label and a unique
// service/name the metadata endpoint finds it by; users and regions included.
func TestResourceNames(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		seen := map[string]bool{}
		codes := map[string]string{}
		for _, res := range allMeta(t, admin) {
			key := res.Service + "/" + res.Name
			if res.Name == "" || res.Service == "" || res.Label.Zh == "" || res.Label.En == "" || seen[key] {
				t.Errorf("resource %q (%s): empty name or label, or a duplicate", key, res.Path)
			}
			seen[key] = true
			if prev, dup := codes[res.MenuCode]; dup && res.MenuCode != "" {
				t.Errorf("menu code %s names both %s and %s", res.MenuCode, prev, key)
			}
			codes[res.MenuCode] = key
			var one metaOf
			admin.Get("/api/meta/resource", apptest.Q("name", key)).OK(t, &one)
			if one.Path != res.Path || one.Name != res.Name {
				t.Errorf("meta/resource?name=%s: %s %s", key, one.Name, one.Path)
			}
		}
		for key, want := range map[string][2]string{
			"blade-user/user":     {"/api/blade-user", "user"},
			"blade-system/region": {"/api/blade-system/region", "region"},
		} {
			var m metaOf
			admin.Get("/api/meta/resource", apptest.Q("name", key)).OK(t, &m)
			if m.Path != want[0] || m.MenuCode != want[1] || len(m.Fields) == 0 {
				t.Errorf("%s: path %s menuCode %s, %d fields", key, m.Path, m.MenuCode, len(m.Fields))
			}
		}
		// regions follow the generic detail?id= of their metadata: a region's id is its code
		var region map[string]any
		admin.Get("/api/blade-system/region/detail", apptest.Q("id", "110101")).OK(t, &region)
		if region["name"] != "东城区" || region["id"] != "110101" {
			t.Errorf("region detail by id: %v", region)
		}
		admin.Get("/api/blade-system/region/detail", nil).Fail(t, 400)
	})
}
