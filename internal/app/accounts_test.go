package app_test

import (
	"encoding/json"
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

// TestFormatRules: the format rules declared on the Go fields (format=,
// pattern=, confirm=) are refused by the server with their zh and en
// messages under the field, and the metadata carries the same rules and
// messages to the form.
func TestFormatRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		roleID, deptID := adminIDs(t, admin)
		user := func(kv ...any) map[string]any {
			u := map[string]any{"account": "fmt1", "name": "f", "realName": "f", "password": "p", "roleId": roleID, "deptId": deptID}
			for i := 0; i+1 < len(kv); i += 2 {
				u[kv[i].(string)] = kv[i+1]
			}
			return u
		}
		refused := func(path string, body map[string]any, field, zh, en string) {
			t.Helper()
			admin.Lang = ""
			r := admin.PostJSON(path, body)
			if msg := r.Fail(t, 400); msg != zh {
				t.Errorf("%s %v: zh %q, want %q", path, body, msg, zh)
			}
			var data map[string]string
			if json.Unmarshal(r.Env.Data, &data) != nil || data[field] != zh {
				t.Errorf("%s: field errors %s, want %s: %s", path, r.Env.Data, field, zh)
			}
			admin.Lang = "en"
			if msg := admin.PostJSON(path, body).Fail(t, 400); msg != en {
				t.Errorf("%s %v: en %q, want %q", path, body, msg, en)
			}
			admin.Lang = ""
		}
		const users = "/api/blade-user/submit"
		refused(users, user("phone", "123"), "phone", "手机号码长度不为11位", "Phone must be 11 digits long")
		refused(users, user("phone", "23800000000"), "phone", "手机号码格式不正确", "Phone is not a valid mobile number")
		refused(users, user("email", "not-an-email"), "email", "电子邮箱格式不正确", "Email is not a valid e-mail address")
		refused(users, user("password2", "q"), "password2", "两次密码输入不一致", "The two passwords do not match")
		admin.PostJSON(users, user("phone", "13800000000", "email", "f@example.com", "password2", "p")).OK(t, nil)

		menus := soMenuIDs(t, admin)
		refused("/api/blade-system/api-scope/submit", map[string]any{"menuId": menus["user"], "resourceCode": "user", "scopeName": "x",
			"scopePath": "api/blade-user/page", "scopeType": 1}, "scopePath", "接口权限地址必须以 / 开头且不含空格", "Path must start with / and contain no spaces")
		refused("/api/blade-system/client/submit", map[string]any{"clientId": "fmt", "clientSecret": "s", "scope": "all", "authorizedGrantTypes": "password",
			"accessTokenValidity": 600, "refreshTokenValidity": 600, "webServerRedirectUri": "ftp://x"}, "webServerRedirectUri",
			"回调地址必须以 http:// 或 https:// 开头", "Redirect URI must start with http:// or https://")

		// the metadata carries them
		var meta struct {
			Fields []struct {
				Name  string `json:"name"`
				Rules []struct {
					Pattern string            `json:"pattern"`
					Message map[string]string `json:"message"`
				} `json:"rules"`
				Confirm *struct {
					Name    string            `json:"name"`
					Message map[string]string `json:"message"`
				} `json:"confirm"`
			} `json:"fields"`
		}
		admin.Get("/api/meta/resource", apptest.Q("name", "blade-user/user")).OK(t, &meta)
		found := 0
		for _, f := range meta.Fields {
			switch f.Name {
			case "phone":
				if len(f.Rules) != 2 || f.Rules[0].Message["zh"] != "手机号码长度不为11位" || f.Rules[1].Message["en"] != "Phone is not a valid mobile number" {
					t.Errorf("phone rules in the metadata: %+v", f.Rules)
				}
				found++
			case "password":
				if f.Confirm == nil || f.Confirm.Name != "password2" || f.Confirm.Message["zh"] != "两次密码输入不一致" {
					t.Errorf("password confirm in the metadata: %+v", f.Confirm)
				}
				found++
			}
		}
		if found != 2 {
			t.Errorf("phone and password not in the metadata")
		}
	})
}
