package app_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
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
	// Fixed marks a further screen of a resource listed before it.
	Fixed map[string]string `json:"fixed"`
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

// routed tells whether the API routes method+path: neither "no such endpoint" nor 405.
func routed(c *apptest.Client, method, path string) (*apptest.Resp, bool) {
	r := c.Do(method, path, nil, nil)
	return r, r.Status != 405 && !(r.Status == 404 && r.Env.Msg == "请求的接口不存在")
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
			"datetime": []any{"string", "null"}, "decimal": []any{"string", "null"}}
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

// TestMetadataURLsRouted: every URL the metadata of any registered resource
// names (tree and select sources, the dictionaries of dict fields, the
// resource's own actions) is routed and answers an admin.
func TestMetadataURLsRouted(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		// a package, so that the tenant's package select has a row to look at
		admin.PostJSON("/api/blade-system/tenant-package/submit", map[string]any{"packageName": "URL check"}).OK(t, nil)
		// and a data source, for the code generator's data source select
		admin.PostJSON("/api/blade-develop/datasource/submit", map[string]any{"name": "URL check", "driverClass": "org.postgresql.Driver",
			"url": "postgres://db.example.com/erp"}).OK(t, nil)
		if _, ok := routed(admin, "GET", "/api/blade-system/tenant-package/select"); ok {
			t.Fatalf("routed() does not tell an unrouted URL")
		}
		kinds := map[string]int{}
		for _, res := range allMeta(t, admin) {
			key := res.Service + "/" + res.Name
			for _, f := range res.Fields {
				for prop, v := range f {
					u, _ := v.(string)
					if !strings.HasPrefix(u, "/api/") {
						continue
					}
					kinds[prop]++
					r, ok := routed(admin, "GET", u)
					if !ok || r.Status != 200 {
						t.Errorf("%s.%s %s=%s: %d %s", key, f["name"], prop, u, r.Status, r.Body)
						continue
					}
					var data any
					_ = json.Unmarshal(r.Env.Data, &data)
					switch prop {
					case "treeUrl":
						if _, ok := data.([]any); !ok {
							t.Errorf("%s.%s: tree %s is not an array: %.200s", key, f["name"], u, r.Env.Data)
						}
					case "selectUrl":
						rows, ok := data.([]any)
						if page, isPage := data.(map[string]any); isPage {
							rows, ok = page["records"].([]any)
						}
						if !ok || len(rows) == 0 {
							t.Errorf("%s.%s: select %s has no rows: %.200s", key, f["name"], u, r.Env.Data)
						}
						for _, row := range rows {
							m, _ := row.(map[string]any)
							if _, ok := m[fmt.Sprint(f["selectLabel"])]; !ok || m["id"] == nil {
								t.Errorf("%s.%s: a row of %s lacks id or %v: %v", key, f["name"], u, f["selectLabel"], m)
							}
						}
					}
				}
				if code, _ := f["dict"].(string); code != "" {
					kinds["dict"]++
					u, biz := "/api/blade-system/dict/dictionary?code="+code, f["dictBiz"] == true
					if biz {
						u = "/api/blade-system/dict-biz/dictionary?code=" + code
					}
					var items []map[string]any
					admin.Get(u, nil).OK(t, &items)
					if !biz && len(items) == 0 {
						t.Errorf("%s.%s: system dictionary %s is empty", key, f["name"], code)
					}
				}
			}
			for _, a := range res.Actions {
				method := "GET"
				if a == "submit" || a == "remove" || a == "import" {
					method = "POST"
				}
				if r, ok := routed(admin, method, res.Path+"/"+a); !ok || r.Status >= 500 {
					t.Errorf("%s action %s: %s %s/%s answers %d", key, a, method, res.Path, a, r.Status)
				}
			}
		}
		if kinds["treeUrl"] == 0 || kinds["selectUrl"] == 0 || kinds["dict"] == 0 {
			t.Fatalf("URLs checked by kind: %v", kinds)
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
			if res.Fixed != nil { // a screen: its resource's name, its own menu
				if !seen[key] || res.MenuCode == "" || codes[res.MenuCode] != "" {
					t.Errorf("screen %s of %q: before its resource, with a menu of its own", res.MenuCode, key)
				}
				codes[res.MenuCode] = key
				continue
			}
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

// TestDocumentFormsEndWithHandlerAndRemark: every stock document declares
// its handler and remark in the shared header, yet its form ends with them
// (tag last) instead of opening with them before the document's own fields.
func TestDocumentFormsEndWithHandlerAndRemark(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		docs := 0
		for _, m := range allMeta(t, h.Admin()) {
			var form []string
			for _, f := range m.Fields {
				if f["form"] == true {
					form = append(form, f["name"].(string))
				}
			}
			if !slices.Contains(form, "docNo") || !slices.Contains(form, "handlerId") {
				continue
			}
			docs++
			if n := len(form); form[n-2] != "handlerId" || form[n-1] != "remark" {
				t.Errorf("%s/%s form ends with %v", m.Service, m.Name, form[max(0, n-3):])
			}
		}
		if docs < 5 {
			t.Errorf("only %d documents with a handler", docs)
		}
	})
}
