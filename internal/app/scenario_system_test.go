package app_test

import (
	"archive/zip"
	"bytes"
	"net/url"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

func TestParamRoundTrip(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		// validation messages, zh by default and en on request
		r := admin.PostJSON("/api/blade-system/param/submit", map[string]any{})
		if msg := r.Fail(t, 400); msg != "请输入参数名称" {
			t.Errorf("first message %q", msg)
		}
		if !strings.Contains(string(r.Body), "请输入参数键名") || !strings.Contains(string(r.Body), "请输入参数键值") {
			t.Errorf("field messages missing: %s", r.Body)
		}
		admin.Lang = "en"
		if msg := admin.PostJSON("/api/blade-system/param/submit", map[string]any{"paramKey": "k", "paramValue": "v"}).Fail(t, 400); msg != "Please enter parameter name" {
			t.Errorf("en message %q", msg)
		}
		admin.Lang = ""
		// create, read, search, update with version, delete
		var p map[string]any
		admin.PostJSON("/api/blade-system/param/submit", map[string]any{"paramName": "测试参数", "paramKey": "test.key", "paramValue": "line1\nline2"}).OK(t, &p)
		id := p["id"].(string)
		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-system/param/list", apptest.Q("paramKey", "test.k", "current", "1", "size", "10")).OK(t, &page)
		if page.Total != 1 || page.Records[0]["paramValue"] != "line1\nline2" {
			t.Fatalf("search by key: %+v", page)
		}
		admin.PostJSON("/api/blade-system/param/submit", map[string]any{"paramKey": "test.key", "paramName": "dup", "paramValue": "x"}).Fail(t, 400)
		var upd map[string]any
		admin.Edit("/api/blade-system/param/submit", map[string]any{"id": id, "paramValue": "v2", "version": 1}).OK(t, &upd)
		if upd["paramValue"] != "v2" || upd["paramName"] != "测试参数" || upd["version"].(float64) != 2 {
			t.Fatalf("partial update: %v", upd)
		}
		// a stale version is refused and changes nothing
		msg := admin.Edit("/api/blade-system/param/submit", map[string]any{"id": id, "paramValue": "v3", "version": 1}).Fail(t, 400)
		if !strings.Contains(msg, "已被他人修改") {
			t.Errorf("stale version msg %q", msg)
		}
		var got map[string]any
		admin.Get("/api/blade-system/param/detail", apptest.Q("id", id)).OK(t, &got)
		if got["paramValue"] != "v2" {
			t.Fatalf("stale update leaked: %v", got)
		}
		// sorting only on declared columns
		admin.Get("/api/blade-system/param/list", apptest.Q("descs", "param_value")).Fail(t, 400)
		admin.Get("/api/blade-system/param/list", apptest.Q("descs", "paramKey")).OK(t, nil)
		// date range filter as the UI sends it
		admin.Get("/api/blade-system/param/list", apptest.Q("createTime_dategt", "2000-01-01 00:00:00", "createTime_datelt", "2999-01-01 00:00:00")).OK(t, &page)
		if page.Total < 7 {
			t.Errorf("date range: %d", page.Total)
		}
		admin.Get("/api/blade-system/param/list", apptest.Q("createTime_dategt", "not-a-date")).Fail(t, 400)
		// export: a real xlsx with the header in the language asked for
		ex := admin.Get("/api/blade-system/param/export", apptest.Q("paramKey", "test"))
		if ex.Status != 200 || !strings.Contains(ex.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export: %d %v", ex.Status, ex.Header)
		}
		zr, err := zip.NewReader(bytes.NewReader(ex.Body), int64(len(ex.Body)))
		if err != nil {
			t.Fatalf("export is not xlsx: %v", err)
		}
		if !zipContains(t, zr, "参数名称") || !zipContains(t, zr, "test.key") {
			t.Errorf("export lacks header or row")
		}
		// delete: nothing selected, then the row
		admin.Post("/api/blade-system/param/remove", nil).Fail(t, 400)
		admin.Post("/api/blade-system/param/remove", apptest.Q("ids", id)).OK(t, nil)
		admin.Get("/api/blade-system/param/detail", apptest.Q("id", id)).Fail(t, 404)
		// a tenant admin may read but not write global parameters
		_, ta := h.NewTenant("Param Co")
		ta.Get("/api/blade-system/param/list", nil).OK(t, nil)
		ta.PostJSON("/api/blade-system/param/submit", map[string]any{"paramName": "a", "paramKey": "b", "paramValue": "c"}).Fail(t, 403)
	})
}

func zipContains(t *testing.T, zr *zip.Reader, s string) bool {
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(rc)
		rc.Close()
		if strings.Contains(b.String(), s) {
			return true
		}
	}
	return false
}

func TestTenantProvisioning(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Acme 制造")
		if len(tenantID) != 6 {
			t.Fatalf("tenant id %q", tenantID)
		}
		// the new tenant has an admin role, a root department and its admin account
		var users apptest.Page[map[string]any]
		ta.Get("/api/blade-user/page", nil).OK(t, &users)
		if users.Total != 1 || users.Records[0]["account"] != "admin" || users.Records[0]["roleName"] != "管理员" || users.Records[0]["deptName"] != "Acme 制造" {
			t.Fatalf("tenant users: %+v", users.Records)
		}
		if ta.Login["role_name"] != "admin" || ta.Login["tenant_id"] != tenantID {
			t.Fatalf("tenant admin login: %v", ta.Login)
		}
		// tenant screens are the super user's
		ta.Get("/api/blade-system/tenant/page", nil).Fail(t, 403)
		// quota: setting 1 account blocks a second user
		admin := h.Admin()
		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", tenantID)).OK(t, &page)
		id := page.Records[0]["id"].(string)
		admin.Post("/api/blade-system/tenant/setting", apptest.Q("ids", id, "accountNumber", "1")).OK(t, nil)
		roleID, deptID := users.Records[0]["roleId"], users.Records[0]["deptId"]
		msg := ta.PostJSON("/api/blade-user/submit", map[string]any{"account": "u2", "name": "u2", "realName": "u2", "password": "123456", "roleId": roleID, "deptId": deptID}).Fail(t, 400)
		if !strings.Contains(msg, "最大账号额度") {
			t.Errorf("quota message %q", msg)
		}
		// datasource binding and the public domain lookup
		var ds map[string]any
		admin.PostJSON("/api/blade-develop/datasource/submit", map[string]any{"name": "pg2", "driverClass": "org.postgresql.Driver", "url": "postgres://db2:5432/acme", "username": "u", "password": "secret"}).OK(t, &ds)
		if ds["password"] != nil && ds["password"] != "" {
			t.Errorf("datasource password is sent back: %v", ds["password"])
		}
		admin.Post("/api/blade-system/tenant/datasource", apptest.Q("tenantId", tenantID, "datasourceId", ds["id"].(string))).OK(t, nil)
		admin.PostJSON("/api/blade-develop/datasource/submit", map[string]any{"name": "bad", "driverClass": "x", "url": "mysql://x"}).Fail(t, 400)
		admin.Edit("/api/blade-system/tenant/submit", map[string]any{"id": id, "domainUrl": "acme.example.com"}).OK(t, nil)
		var info map[string]any
		h.Anon().Get("/api/blade-system/tenant/info", apptest.Q("domain", "acme.example.com")).OK(t, &info)
		if info["tenantId"] != tenantID {
			t.Errorf("tenant info by domain: %v", info)
		}
		// the platform tenant cannot be removed
		admin.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", "000000")).OK(t, &page)
		admin.Post("/api/blade-system/tenant/remove", apptest.Q("ids", page.Records[0]["id"].(string))).Fail(t, 400)
	})
}

func TestClientGrantTypes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		admin.PostJSON("/api/blade-system/client/submit", map[string]any{"clientId": "mobile", "clientSecret": "m0bile", "scope": "all",
			"authorizedGrantTypes": "refresh_token", "accessTokenValidity": 600, "refreshTokenValidity": 6000}).OK(t, nil)
		// the client exists but may not use the password grant
		q := url.Values{"tenantId": {"000000"}, "username": {"admin"}, "password": {"21232f297a57a5a743894a0e4a801fc3"}, "grant_type": {"password"}}
		r := h.Anon().Do("POST", "/api/blade-auth/oauth/token?"+q.Encode(), nil, map[string]string{"Authorization": "Basic bW9iaWxlOm0wYmlsZQ=="})
		if r.Status != 400 || !strings.Contains(string(r.Body), "unsupported_grant_type") {
			t.Fatalf("grant not allowed: %d %s", r.Status, r.Body)
		}
	})
}

func TestDictionaries(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		var items []map[string]any
		admin.Get("/api/blade-system/dict/dictionary", apptest.Q("code", "sex")).OK(t, &items)
		if len(items) != 3 || items[0]["dictValue"] != "男" {
			t.Fatalf("sex dictionary: %v", items)
		}
		admin.Lang = "en"
		admin.Get("/api/blade-system/dict/dictionary", apptest.Q("code", "sex")).OK(t, &items)
		if items[0]["dictValue"] != "Male" {
			t.Errorf("en dictionary: %v", items[0])
		}
		admin.Lang = ""
		admin.Get("/api/blade-system/dict/dictionary", nil).Fail(t, 400)
		// dictionary screen messages (spec §5)
		r := admin.PostJSON("/api/blade-system/dict/submit", map[string]any{})
		for _, m := range []string{"请输入字典编号", "请输入字典名称", "请输入字典排序", "请输入字典键值", "请选择封存"} {
			if !strings.Contains(string(r.Body), m) {
				t.Errorf("missing %s in %s", m, r.Body)
			}
		}
		// business dictionaries are per tenant
		_, a := h.NewTenant("Dict A")
		_, b := h.NewTenant("Dict B")
		var root map[string]any
		a.PostJSON("/api/blade-system/dict-biz/submit", map[string]any{"code": "color", "dictKey": "-1", "dictValue": "颜色", "sort": 1, "isSealed": 0}).OK(t, &root)
		a.PostJSON("/api/blade-system/dict-biz/submit", map[string]any{"parentId": root["id"], "code": "x", "dictKey": "red", "dictValue": "红", "sort": 1, "isSealed": 0}).OK(t, nil)
		a.Get("/api/blade-system/dict-biz/dictionary", apptest.Q("code", "color")).OK(t, &items)
		if len(items) != 1 || items[0]["code"] != "color" {
			t.Fatalf("child takes the root's code: %v", items)
		}
		b.Get("/api/blade-system/dict-biz/dictionary", apptest.Q("code", "color")).OK(t, &items)
		if len(items) != 0 {
			t.Fatalf("tenant B sees tenant A's business dictionary: %v", items)
		}
		var parents apptest.Page[map[string]any]
		a.Get("/api/blade-system/dict-biz/parent-list", nil).OK(t, &parents)
		if parents.Total != 1 {
			t.Errorf("parent-list: %d", parents.Total)
		}
		var children apptest.Page[map[string]any]
		a.Get("/api/blade-system/dict-biz/child-list", apptest.Q("parentId", root["id"].(string))).OK(t, &children)
		if children.Total != 1 {
			t.Errorf("child-list: %d", children.Total)
		}
		var tree []map[string]any
		a.Get("/api/blade-system/dict-biz/tree", apptest.Q("code", "DICT")).OK(t, &tree)
		if len(tree) != 1 || tree[0]["children"] == nil {
			t.Errorf("tree: %v", tree)
		}
		a.Get("/api/blade-system/dict-biz/child-list", nil).Fail(t, 400)
		// removing the root removes its items
		a.Post("/api/blade-system/dict-biz/remove", apptest.Q("ids", root["id"].(string))).OK(t, nil)
		a.Get("/api/blade-system/dict-biz/dictionary", apptest.Q("code", "color")).OK(t, &items)
		if len(items) != 0 {
			t.Errorf("items survive their root: %v", items)
		}
	})
}
