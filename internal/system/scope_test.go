package system_test

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/wire"
)

const (
	dataScopeAPI = "/api/blade-system/data-scope/"
	apiScopeAPI  = "/api/blade-system/api-scope/"
)

// scFixture is a fresh tenant with departments, a non-admin role "clerk"
// and users holding it, for data-scope and API-scope tests.
type scFixture struct {
	h          *apptest.H
	tenant     string
	admin      *apptest.Client // the tenant's admin
	super      *apptest.Client
	roleID     string
	userMenuID string
	users      map[string]string // account → id
	depts      map[string]string // name → id
}

func scID(t *testing.T, s string) wire.ID {
	t.Helper()
	id, err := wire.ParseID(s)
	if err != nil || id == 0 {
		t.Fatalf("bad id %q", s)
	}
	return id
}

// newScFixture builds:
//
//	root ── D1 ── D1a
//	     └─ D2
//
// and users (all role clerk): usera, usera2, usera3 in D1, userb in D2, userc in D1a.
func newScFixture(t *testing.T, h *apptest.H) *scFixture {
	t.Helper()
	f := &scFixture{h: h, super: h.Admin(), users: map[string]string{}, depts: map[string]string{}}
	f.tenant, f.admin = h.NewTenant("Scope Co")
	root := deptRoot(t, f.admin)
	f.depts["root"] = root.ID
	f.depts["D1"] = deptCreate(t, f.admin, root.ID, "D1").ID
	f.depts["D1a"] = deptCreate(t, f.admin, f.depts["D1"], "D1a").ID
	f.depts["D2"] = deptCreate(t, f.admin, root.ID, "D2").ID
	var role struct {
		ID string `json:"id"`
	}
	f.admin.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": "Clerk", "roleAlias": "clerk", "sort": 2, "parentId": "0"}).OK(t, &role)
	f.roleID = role.ID
	for _, u := range []struct{ account, dept string }{
		{"usera", "D1"}, {"usera2", "D1"}, {"usera3", "D1"}, {"userb", "D2"}, {"userc", "D1a"},
	} {
		var made struct {
			ID string `json:"id"`
		}
		f.admin.PostJSON("/api/blade-user/submit", map[string]any{"account": u.account, "name": u.account, "realName": u.account,
			"password": "123456", "roleId": f.roleID, "deptId": f.depts[u.dept]}).OK(t, &made)
		f.users[u.account] = made.ID
	}
	var page apptest.Page[struct {
		ID      string `json:"id"`
		Account string `json:"account"`
	}]
	f.admin.Get("/api/blade-user/page", apptest.Q("account_equal", "admin")).OK(t, &page)
	if len(page.Records) != 1 {
		t.Fatalf("tenant admin not found: %+v", page)
	}
	f.users["admin"] = page.Records[0].ID

	// Who created each user row decides what the create_user / create_dept
	// rules show. Only admins create users through the API, so the rows are
	// re-stamped here as if the clerks had created them:
	//   usera:  by usera in D1        usera2: by admin in D1
	//   usera3: by usera in D1, disabled
	//   userb:  by userb in D2        userc:  by userc in D1a
	stamp := func(account, by, dept string, status int) {
		_, err := h.App.DB.NewUpdate().Table("blade_user").Set("create_user = ?", scID(t, f.users[by])).
			Set("create_dept = ?", scID(t, f.depts[dept])).Set("status = ?", status).
			Where("id = ?", scID(t, f.users[account])).Exec(context.Background())
		if err != nil {
			t.Fatal(err)
		}
	}
	stamp("usera", "usera", "D1", 1)
	stamp("usera2", "admin", "D1", 1)
	stamp("usera3", "usera", "D1", 0)
	stamp("userb", "userb", "D2", 1)
	stamp("userc", "userc", "D1a", 1)

	if err := h.App.DB.NewSelect().Table("blade_menu").Column("id").Where("code = 'user' AND category = 1 AND is_deleted = 0").
		Limit(1).Scan(context.Background(), &f.userMenuID); err != nil {
		t.Fatal(err)
	}
	return f
}

// grant replaces the clerk role's data-scope (data != nil) or API-scope
// (api != nil) grants through role/grant.
func (f *scFixture) grant(t *testing.T, data, api []string) {
	t.Helper()
	body := map[string]any{"roleIds": []string{f.roleID}}
	if data != nil {
		body["dataScopeIds"] = data
	}
	if api != nil {
		body["apiScopeIds"] = api
	}
	f.admin.PostJSON("/api/blade-system/role/grant", body).OK(t, nil)
}

// rule creates a data-scope rule on the user resource as the super user.
func (f *scFixture) rule(t *testing.T, name string, scopeType int, column, value string) string {
	t.Helper()
	var made struct {
		ID string `json:"id"`
	}
	f.super.PostJSON(dataScopeAPI+"submit", map[string]any{"menuId": f.userMenuID, "resourceCode": "user", "scopeName": name,
		"scopeType": scopeType, "scopeColumn": column, "scopeValue": value}).OK(t, &made)
	return made.ID
}

// visible is the sorted accounts c sees on the user page.
func visible(t *testing.T, c *apptest.Client) []string {
	t.Helper()
	var page apptest.Page[struct {
		Account string `json:"account"`
	}]
	c.Get("/api/blade-user/page", apptest.Q("size", "100")).OK(t, &page)
	out := []string{}
	for _, r := range page.Records {
		out = append(out, r.Account)
	}
	sort.Strings(out)
	if int(page.Total) != len(out) {
		t.Errorf("page total %d but %d records", page.Total, len(out))
	}
	return out
}

func expectVisible(t *testing.T, c *apptest.Client, what string, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := visible(t, c); !slices.Equal(got, want) {
		t.Errorf("%s: sees %v, want %v", what, got, want)
	}
}

var everyone = []string{"admin", "usera", "usera2", "usera3", "userb", "userc"}

func TestDataScopeEnforcement(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		f := newScFixture(t, h)
		a := h.Login(f.tenant, "usera", "123456")

		expectVisible(t, a, "no rule granted", everyone...)

		all := f.rule(t, "all", 1, "", "")
		own := f.rule(t, "own", 2, "", "")
		ownDept := f.rule(t, "own dept", 3, "", "")
		subtree := f.rule(t, "dept subtree", 4, "", "")
		custom := f.rule(t, "custom", 5, "", "status = 1 and create_user = ${userId}")

		f.grant(t, []string{all}, nil)
		expectVisible(t, a, "type 1 all", everyone...)
		f.grant(t, []string{own}, nil)
		expectVisible(t, a, "type 2 own (create_user)", "usera", "usera3")
		f.grant(t, []string{ownDept}, nil)
		expectVisible(t, a, "type 3 own dept (create_dept)", "usera", "usera2", "usera3")
		f.grant(t, []string{subtree}, nil)
		expectVisible(t, a, "type 4 dept and below", "usera", "usera2", "usera3", "userc")
		f.grant(t, []string{custom}, nil)
		expectVisible(t, a, "type 5 custom", "usera")

		// several rules: the union; with "all" among them, everything
		pick := f.rule(t, "userc only", 5, "", "id = "+f.users["userc"])
		f.grant(t, []string{own, pick}, nil)
		expectVisible(t, a, "own ∪ custom", "usera", "usera3", "userc")
		f.grant(t, []string{own, all}, nil)
		expectVisible(t, a, "own ∪ all", everyone...)

		// a rule of another resource does not touch users
		var other struct {
			ID string `json:"id"`
		}
		f.super.PostJSON(dataScopeAPI+"submit", map[string]any{"menuId": f.userMenuID, "resourceCode": "dept", "scopeName": "other",
			"scopeType": 2}).OK(t, &other)
		f.grant(t, []string{other.ID}, nil)
		expectVisible(t, a, "a rule on another resource", everyone...)

		// editing a granted rule takes effect at once (the rule cache is dropped)
		f.grant(t, []string{own}, nil)
		expectVisible(t, a, "own before the edit", "usera", "usera3")
		f.super.Edit(dataScopeAPI+"submit", map[string]any{"id": own, "scopeType": 3}).OK(t, nil)
		expectVisible(t, a, "own edited into own dept", "usera", "usera2", "usera3")
		// a scopeColumn overrides the default column
		f.super.Edit(dataScopeAPI+"submit", map[string]any{"id": own, "scopeType": 2, "scopeColumn": "id"}).OK(t, nil)
		expectVisible(t, a, "own on column id", "usera")
		// and removing it lifts the restriction, grant and all
		f.super.Post(dataScopeAPI+"remove", apptest.Q("ids", own)).OK(t, nil)
		expectVisible(t, a, "rule removed", everyone...)
		var left int
		if err := h.App.DB.NewSelect().Table("blade_role_scope").ColumnExpr("count(*)").Where("scope_id = ?", scID(t, own)).
			Scan(context.Background(), &left); err != nil || left != 0 {
			t.Errorf("grants of a removed rule: %d %v", left, err)
		}

		// fail closed: a rule naming a column the resource does not declare hides everything
		unknown := f.rule(t, "unknown column", 5, "", "no_such_column = 1")
		f.grant(t, []string{unknown}, nil)
		expectVisible(t, a, "custom rule on an unknown column")
		badCol := f.rule(t, "unknown scope column", 2, "no_such_column", "")
		f.grant(t, []string{badCol}, nil)
		expectVisible(t, a, "own rule on an unknown column")
		// ... even next to a rule that would show something: the bad rule adds nothing
		f.grant(t, []string{badCol, custom}, nil)
		expectVisible(t, a, "bad rule ∪ custom", "usera")

		// malformed custom rules are refused when stored
		for _, v := range []string{
			"", "1 = 1 or 1 = 1", "status = 1; drop table blade_user", "status = (select 1)", "status in (1, 2)",
			"create_user = ${password}", "status = 1 and", "status == 1", "status = 1 -- x",
		} {
			r := f.super.PostJSON(dataScopeAPI+"submit", map[string]any{"menuId": f.userMenuID, "resourceCode": "user",
				"scopeName": "bad", "scopeType": 5, "scopeValue": v})
			if msg := r.Fail(t, 400); !strings.Contains(msg, "自定义规则格式错误") {
				t.Errorf("custom rule %q: %q", v, msg)
			}
		}
		f.super.PostJSON(dataScopeAPI+"submit", map[string]any{"menuId": f.userMenuID, "resourceCode": "user",
			"scopeName": "bad type", "scopeType": 9}).Fail(t, 400)
		f.super.Edit(dataScopeAPI+"submit", map[string]any{"id": custom, "scopeValue": "x = ;"}).Fail(t, 400)

		// administrators are never restricted
		expectVisible(t, f.admin, "tenant admin", everyone...)
		// other clerks get the same rule with their own identity
		f.grant(t, []string{subtree}, nil)
		expectVisible(t, h.Login(f.tenant, "userb", "123456"), "userb, dept subtree", "userb")
		expectVisible(t, h.Login(f.tenant, "userc", "123456"), "userc, dept subtree", "userc")
		// the subtree follows department moves (the ancestors dept/submit keeps)
		f.admin.Edit(deptAPI+"submit", map[string]any{"id": f.depts["D2"], "parentId": f.depts["D1a"]}).OK(t, nil)
		expectVisible(t, a, "dept subtree after D2 moved under D1a", "usera", "usera2", "usera3", "userb", "userc")
		f.admin.Edit(deptAPI+"submit", map[string]any{"id": f.depts["D1a"], "parentId": f.depts["root"]}).OK(t, nil)
		expectVisible(t, a, "dept subtree after D1a (with D2) left D1", "usera", "usera2", "usera3")
	})
}

func TestDataScopeCRUD(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		f := newScFixture(t, h)
		id := f.rule(t, "mine", 2, "", "")
		type rule struct {
			ID           string `json:"id"`
			MenuID       string `json:"menuId"`
			ResourceCode string `json:"resourceCode"`
			ScopeName    string `json:"scopeName"`
			ScopeType    int    `json:"scopeType"`
		}
		var page apptest.Page[rule]
		f.super.Get(dataScopeAPI+"list", apptest.Q("menuId", f.userMenuID)).OK(t, &page)
		if page.Total != 1 || page.Records[0].ID != id || page.Records[0].ResourceCode != "user" {
			t.Fatalf("list by menu: %+v", page)
		}
		f.super.Get(dataScopeAPI+"list", apptest.Q("menuId", "1")).OK(t, &page)
		if page.Total != 0 {
			t.Errorf("list of another menu: %+v", page)
		}
		f.super.Get(dataScopeAPI+"list", apptest.Q("menuId", "x")).Fail(t, 400)
		var d rule
		f.super.Get(dataScopeAPI+"detail", apptest.Q("id", id)).OK(t, &d)
		if d.ScopeName != "mine" || d.ScopeType != 2 || d.MenuID != f.userMenuID {
			t.Errorf("detail: %+v", d)
		}
		// rules are global: any signed-in user reads them, only the super user writes
		f.admin.Get(dataScopeAPI+"detail", apptest.Q("id", id)).OK(t, nil)
		f.admin.Edit(dataScopeAPI+"submit", map[string]any{"id": id, "scopeType": 1}).Fail(t, 403)
		f.admin.Post(dataScopeAPI+"remove", apptest.Q("ids", id)).Fail(t, 403)
		f.super.PostJSON(dataScopeAPI+"submit", map[string]any{}).Fail(t, 400)
		if msg := f.super.PostJSON(dataScopeAPI+"submit", map[string]any{"menuId": f.userMenuID, "resourceCode": "user", "scopeType": 1}).Fail(t, 400); msg != "请输入数据权限名称" {
			t.Errorf("missing name: %q", msg)
		}
		f.super.Post(dataScopeAPI+"remove", apptest.Q("ids", id)).OK(t, nil)
		f.super.Get(dataScopeAPI+"detail", apptest.Q("id", id)).Fail(t, 404)

		// the same for API-scope rules
		var made rule
		f.super.PostJSON(apiScopeAPI+"submit", map[string]any{"menuId": f.userMenuID, "resourceCode": "user", "scopeName": "page",
			"scopePath": "/api/blade-user/page", "scopeType": 1}).OK(t, &made)
		f.super.Get(apiScopeAPI+"list", apptest.Q("menuId", f.userMenuID)).OK(t, &page)
		if page.Total != 1 || page.Records[0].ID != made.ID {
			t.Fatalf("api-scope list by menu: %+v", page)
		}
		f.super.Get(apiScopeAPI+"detail", apptest.Q("id", made.ID)).OK(t, nil)
		f.super.PostJSON(apiScopeAPI+"submit", map[string]any{"menuId": f.userMenuID, "resourceCode": "user", "scopeName": "bad",
			"scopePath": "no-slash", "scopeType": 1}).Fail(t, 400)
		f.admin.Edit(apiScopeAPI+"submit", map[string]any{"id": made.ID, "scopeName": "x"}).Fail(t, 403)
		f.super.Post(apiScopeAPI+"remove", apptest.Q("ids", made.ID)).OK(t, nil)
		f.super.Get(apiScopeAPI+"detail", apptest.Q("id", made.ID)).Fail(t, 404)
	})
}

func TestAPIScopeEnforcement(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		f := newScFixture(t, h)
		a := h.Login(f.tenant, "usera", "123456")
		detail := apptest.Q("id", f.users["usera2"])

		// without any API-scope grant A calls both
		a.Get("/api/blade-user/page", nil).OK(t, nil)
		a.Get("/api/blade-user/detail", detail).OK(t, nil)

		var made struct {
			ID string `json:"id"`
		}
		f.super.PostJSON(apiScopeAPI+"submit", map[string]any{"menuId": f.userMenuID, "resourceCode": "user", "scopeName": "page only",
			"scopePath": "/api/blade-user/page", "scopeType": 1}).OK(t, &made)
		// a rule nobody holds changes nothing
		a.Get("/api/blade-user/detail", detail).OK(t, nil)

		f.grant(t, nil, []string{made.ID})
		a.Get("/api/blade-user/page", nil).OK(t, nil)
		a.Get("/api/blade-user/detail", detail).Fail(t, 403)
		// other resources are not restricted by a rule on "user"
		a.Get(deptAPI+"tree", nil).OK(t, nil)
		// the tenant admin is never restricted
		f.admin.Get("/api/blade-user/detail", detail).OK(t, nil)

		// widening the rule takes effect at once
		f.super.Edit(apiScopeAPI+"submit", map[string]any{"id": made.ID, "scopePath": "/api/blade-user/**"}).OK(t, nil)
		a.Get("/api/blade-user/detail", detail).OK(t, nil)
		f.super.Edit(apiScopeAPI+"submit", map[string]any{"id": made.ID, "scopePath": "/api/blade-user/page"}).OK(t, nil)
		a.Get("/api/blade-user/detail", detail).Fail(t, 403)

		// taking the grant away, or removing the rule, lifts the restriction
		f.grant(t, nil, []string{})
		a.Get("/api/blade-user/detail", detail).OK(t, nil)
		f.grant(t, nil, []string{made.ID})
		a.Get("/api/blade-user/detail", detail).Fail(t, 403)
		f.super.Post(apiScopeAPI+"remove", apptest.Q("ids", made.ID)).OK(t, nil)
		a.Get("/api/blade-user/detail", detail).OK(t, nil)
	})
}
