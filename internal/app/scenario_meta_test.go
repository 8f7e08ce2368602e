package app_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
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

// TestFieldValueTypes: the metadata says the JSON type of every field's value
// (valueType), the OpenAPI schema says the same, and submit holds to it: a
// dictionary on an integer column takes 1, not "1".
func TestFieldValueTypes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		var doc map[string]any
		if err := json.Unmarshal(h.Anon().Get("/api/openapi.json", nil).Body, &doc); err != nil {
			t.Fatal(err)
		}
		schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
		paths := doc["paths"].(map[string]any)
		wantType := map[string]any{"string": "string", "int": "integer", "bool": "boolean", "id": "string",
			"datetime": []any{"string", "null"}}
		valueType := map[string]string{} // "service/name.field" -> valueType
		checked := 0
		for _, res := range allMeta(t, admin) {
			var props map[string]any
			if submit, ok := paths[res.Path+"/submit"].(map[string]any); ok {
				ref := submit["post"].(map[string]any)["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["$ref"].(string)
				props = schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)["properties"].(map[string]any)
			}
			for _, f := range res.Fields {
				name, vt := f["name"].(string), fmt.Sprint(f["valueType"])
				valueType[res.Service+"/"+res.Name+"."+name] = vt
				want, known := wantType[vt]
				if !known {
					t.Errorf("%s.%s: valueType %q", res.Name, name, vt)
					continue
				}
				if props == nil {
					continue
				}
				p, _ := props[name].(map[string]any)
				if p == nil || !reflect.DeepEqual(p["type"], want) {
					t.Errorf("%s.%s (valueType %s): OpenAPI type %v, want %v", res.Name, name, vt, p["type"], want)
				}
				checked++
			}
		}
		if checked < 100 {
			t.Fatalf("only %d fields checked against the OpenAPI document", checked)
		}
		for field, want := range map[string]string{
			"blade-system/post.category": "int", "blade-system/menu.category": "int", "blade-system/menu.action": "int",
			"blade-user/user.sex": "int", "blade-user/user.status": "int", "blade-user/user.deptId": "string",
			"blade-system/tenant.packageId": "id", "blade-system/tenant.expireTime": "datetime", "blade-system/param.paramKey": "string",
		} {
			if got := valueType[field]; got != want {
				t.Errorf("%s: valueType %q, want %q", field, got, want)
			}
		}

		// submit takes what the schema says
		post := map[string]any{"postCode": "vt1", "postName": "Value types", "sort": 1, "category": "1"}
		admin.PostJSON("/api/blade-system/post/submit", post).Fail(t, 400)
		post["category"] = 1
		admin.PostJSON("/api/blade-system/post/submit", post).OK(t, nil)
		// and list filters parse an int field as an integer
		admin.Get("/api/blade-system/post/list", apptest.Q("category", "x")).Fail(t, 400)
		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-system/post/list", apptest.Q("category", "1", "postCode", "vt1")).OK(t, &page)
		if page.Total != 1 || page.Records[0]["category"] != float64(1) {
			t.Errorf("post filtered by category: %+v", page)
		}
	})
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
