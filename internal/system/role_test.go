package system_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

type idBody struct {
	ID string `json:"id"`
}

// newRole creates a role and returns its id.
func newRole(t *testing.T, c *apptest.Client, body map[string]any) string {
	t.Helper()
	var r idBody
	c.PostJSON("/api/blade-system/role/submit", body).OK(t, &r)
	if r.ID == "" {
		t.Fatalf("role submit returned no id")
	}
	return r.ID
}

func leafCodes(ns []node) []string {
	out := map[string]bool{}
	walk(ns, func(n node) {
		if len(n.Children) == 0 {
			out[n.Code] = true
		}
	})
	return sorted(out)
}

type treeKeys struct {
	Menu      []string `json:"menu"`
	DataScope []string `json:"dataScope"`
	APIScope  []string `json:"apiScope"`
}

func same(a []string, b ...string) bool {
	a, b = append([]string{}, a...), append([]string{}, b...)
	sort.Strings(a)
	sort.Strings(b)
	return strings.Join(a, ",") == strings.Join(b, ",")
}

// TestRoleGrantChangesWhatUsersSee: a tenant admin makes a role, grants it two
// menus and a button, gives it to a new user, and that user's routes and
// buttons follow every re-grant.
func TestRoleGrantChangesWhatUsersSee(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		ids := menuIDs(t, h.Admin())
		tenantID, ta := h.NewTenant("Grant Co")
		roleID := newRole(t, ta, map[string]any{"roleName": "店员", "roleAlias": "clerk", "sort": 2})
		grant := "/api/blade-system/role/grant"
		ta.PostJSON(grant, map[string]any{"roleIds": []string{roleID},
			"menuIds": []string{ids["notice"], ids["user"], ids["user_add"]}}).OK(t, nil)

		deptID, _ := ta.Login["dept_id"].(string)
		ta.PostJSON("/api/blade-user/submit", map[string]any{"account": "clerk1", "name": "Clerk", "realName": "Clerk",
			"password": "secret1", "roleId": roleID, "deptId": deptID}).OK(t, nil)
		clerk := h.Login(tenantID, "clerk1", "secret1")

		var routes, buttons []node
		clerk.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
		if got := sorted(codeSet(routes)); !same(got, "desk", "notice", "system", "user") {
			t.Errorf("clerk routes: %v", got)
		}
		clerk.Get("/api/blade-system/menu/buttons", nil).OK(t, &buttons)
		if got := leafCodes(buttons); !same(got, "user_add") {
			t.Errorf("clerk buttons: %v", got)
		}
		if tops := topMenuIDs(t, clerk); len(tops) != 1 || tops["000"] == "" {
			t.Errorf("clerk top menus: %v", tops)
		}

		// Re-grant: the change shows at once.
		ta.PostJSON(grant, map[string]any{"roleIds": []string{roleID}, "menuIds": []string{ids["role"], ids["role_view"]}}).OK(t, nil)
		clerk.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
		if got := sorted(codeSet(routes)); !same(got, "authority", "role") {
			t.Errorf("clerk routes after re-grant: %v", got)
		}
		clerk.Get("/api/blade-system/menu/buttons", nil).OK(t, &buttons)
		if got := leafCodes(buttons); !same(got, "role_view") {
			t.Errorf("clerk buttons after re-grant: %v", got)
		}
		// Nothing granted: nothing shown, no top menu.
		ta.PostJSON(grant, map[string]any{"roleIds": []string{roleID}, "menuIds": []string{}}).OK(t, nil)
		clerk.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
		if len(routes) != 0 || len(topMenuIDs(t, clerk)) != 0 {
			t.Errorf("clerk sees %v with no grants", sorted(codeSet(routes)))
		}

		// A plain user can neither grant nor edit roles.
		clerk.PostJSON(grant, map[string]any{"roleIds": []string{roleID}, "menuIds": []string{ids["user"]}}).Fail(t, 403)
		clerk.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": "x", "roleAlias": "x", "sort": 1}).Fail(t, 403)
		clerk.Get("/api/blade-system/menu/grant-tree", nil).Fail(t, 403)
	})
}

func TestRoleGrantRefusals(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		ids := menuIDs(t, admin)
		tenantA, a := h.NewTenant("Tenant A")
		_, b := h.NewTenant("Tenant B")
		roleA := newRole(t, a, map[string]any{"roleName": "甲角色", "roleAlias": "role_a", "sort": 2})
		grant := "/api/blade-system/role/grant"

		// Outside the package, unknown, malformed, empty.
		msg := a.PostJSON(grant, map[string]any{"roleIds": []string{roleA}, "menuIds": []string{ids["user"], ids["param"]}}).Fail(t, 400)
		if !strings.Contains(msg, "参数管理") || !strings.Contains(msg, "产品包") {
			t.Errorf("grant outside the package: %q", msg)
		}
		a.Lang = "en"
		if msg := a.PostJSON(grant, map[string]any{"roleIds": []string{roleA}, "menuIds": []string{ids["tenant"]}}).Fail(t, 400); !strings.Contains(msg, "package") {
			t.Errorf("grant outside the package (en): %q", msg)
		}
		a.Lang = ""
		a.PostJSON(grant, map[string]any{"roleIds": []string{roleA}, "menuIds": []string{"42"}}).Fail(t, 400)
		a.PostJSON(grant, map[string]any{"roleIds": []string{}, "menuIds": []string{ids["user"]}}).Fail(t, 400)
		a.PostJSON(grant, map[string]any{"roleIds": []string{roleA}}).Fail(t, 400)
		a.PostJSON(grant, map[string]any{"roleIds": "q", "menuIds": []string{}}).Fail(t, 400)
		a.PostJSON(grant, map[string]any{"roleIds": map[string]any{}}).Fail(t, 400)
		a.PostJSON(grant, `{"roleIds": [1, 2}`).Fail(t, 400)
		a.PostJSON(grant, "").Fail(t, 400)
		a.PostJSON(grant, map[string]any{"roleIds": []string{roleA}, "dataScopeIds": []string{"42"}}).Fail(t, 400)
		// A refused grant changed nothing.
		var keys treeKeys
		a.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", roleA)).OK(t, &keys)
		if len(keys.Menu) != 0 {
			t.Errorf("refused grants left %v", keys.Menu)
		}

		// Tenant isolation: B neither grants nor reads A's roles.
		b.PostJSON(grant, map[string]any{"roleIds": []string{roleA}, "menuIds": []string{ids["user"]}}).Fail(t, 404)
		b.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", roleA)).Fail(t, 404)
		b.Get("/api/blade-system/role/detail", apptest.Q("id", roleA)).Fail(t, 404)
		b.Get("/api/blade-system/role/tree-by-id", apptest.Q("roleId", roleA)).Fail(t, 404)
		b.Edit("/api/blade-system/role/submit", map[string]any{"id": roleA, "roleName": "taken"}).Fail(t, 404)
		b.Post("/api/blade-system/role/remove", apptest.Q("ids", roleA)).Fail(t, 404)
		b.Get("/api/blade-system/role/tree", apptest.Q("tenantId", tenantA)).Fail(t, 403)
		var listB []node
		b.Get("/api/blade-system/role/list", apptest.Q("tenantId", tenantA)).OK(t, &listB)
		if idSet(listB)[roleA] {
			t.Errorf("tenant B lists tenant A's role")
		}
		// Mixed: one own role and one foreign is refused as a whole.
		var bRoles []node
		b.Get("/api/blade-system/role/tree", nil).OK(t, &bRoles)
		if len(bRoles) != 1 {
			t.Fatalf("tenant B roles: %d", len(bRoles))
		}
		b.PostJSON(grant, map[string]any{"roleIds": []string{bRoles[0].ID, roleA}, "menuIds": []string{ids["user"]}}).Fail(t, 404)

		// The super user grants across tenants, still within the package.
		admin.PostJSON(grant, map[string]any{"roleIds": []string{roleA}, "menuIds": []string{ids["param"]}}).Fail(t, 400)
		admin.PostJSON(grant, map[string]any{"roleIds": []string{roleA}, "menuIds": []string{ids["user"]}}).OK(t, nil)
		a.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", roleA)).OK(t, &keys)
		if !same(keys.Menu, ids["user"]) {
			t.Errorf("after the super user's grant: %v", keys.Menu)
		}
	})
}

func TestRoleTreeKeysRoundTrip(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		ids := menuIDs(t, admin)
		data, api := userScopes(t, admin, ids) // tenant_remove_test.go
		var paramRule idBody
		admin.PostJSON("/api/blade-system/data-scope/submit", map[string]any{"menuId": ids["param"], "resourceCode": "param",
			"scopeName": "全部参数", "scopeType": 1}).OK(t, &paramRule)

		_, ta := h.NewTenant("Keys Co")
		roleID := newRole(t, ta, map[string]any{"roleName": "查看员", "roleAlias": "viewer", "sort": 3})

		// The grant tree offers the rules under their menus, within the package.
		var tree struct {
			Menu      []node `json:"menu"`
			DataScope []node `json:"dataScope"`
			APIScope  []node `json:"apiScope"`
		}
		ta.Get("/api/blade-system/menu/grant-tree", nil).OK(t, &tree)
		ds := idSet(tree.DataScope)
		if !ds[data.ID] || !ds[ids["user"]] || !ds[ids["system"]] || ds[paramRule.ID] {
			t.Errorf("tenant data-scope grant tree: %v", ds)
		}
		walk(tree.DataScope, func(n node) {
			if n.ID == data.ID && (n.ParentID != ids["user"] || n.Title != "本人数据") {
				t.Errorf("rule node %+v", n)
			}
		})
		if !idSet(tree.APIScope)[api.ID] {
			t.Errorf("tenant api-scope grant tree lacks the rule")
		}
		var maps struct {
			Menu      map[string]node `json:"menu"`
			DataScope map[string]node `json:"dataScope"`
			APIScope  map[string]node `json:"apiScope"`
		}
		ta.Get("/api/blade-system/menu/grant-tree-map", nil).OK(t, &maps)
		if maps.DataScope[data.ID].ParentID != ids["user"] || maps.APIScope[api.ID].Title != "用户列表" || len(maps.Menu) < 50 {
			t.Errorf("grant-tree-map: %d menus", len(maps.Menu))
		}

		// Grant: menu-node ids among the scope ids (checked parents in the UI) are dropped.
		grant := "/api/blade-system/role/grant"
		ta.PostJSON(grant, map[string]any{"roleIds": []string{roleID}, "menuIds": []string{ids["user"], ids["user_view"]},
			"dataScopeIds": []string{ids["user"], data.ID}, "apiScopeIds": []string{api.ID}}).OK(t, nil)
		var keys treeKeys
		ta.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", roleID)).OK(t, &keys)
		if !same(keys.Menu, ids["user"], ids["user_view"]) || !same(keys.DataScope, data.ID) || !same(keys.APIScope, api.ID) {
			t.Errorf("role-tree-keys: %+v", keys)
		}
		// A rule of a menu outside the package is refused.
		if msg := ta.PostJSON(grant, map[string]any{"roleIds": []string{roleID}, "dataScopeIds": []string{paramRule.ID}}).Fail(t, 400); !strings.Contains(msg, "全部参数") {
			t.Errorf("rule outside the package: %q", msg)
		}
		// Lists left out stay as they are; a list sent empty clears.
		ta.PostJSON(grant, map[string]any{"roleIds": []string{roleID}, "menuIds": []string{ids["dept"]}}).OK(t, nil)
		ta.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", roleID)).OK(t, &keys)
		if !same(keys.Menu, ids["dept"]) || !same(keys.DataScope, data.ID) || !same(keys.APIScope, api.ID) {
			t.Errorf("role-tree-keys after a menu-only grant: %+v", keys)
		}
		ta.PostJSON(grant, map[string]any{"roleIds": roleID, "dataScopeIds": nil, "apiScopeIds": []string{}}).OK(t, nil)
		ta.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", roleID)).OK(t, &keys)
		if !same(keys.Menu, ids["dept"]) || !same(keys.DataScope, data.ID) || len(keys.APIScope) != 0 || keys.APIScope == nil {
			t.Errorf("role-tree-keys after clearing api scopes: %+v", keys)
		}
		ta.Get("/api/blade-system/menu/role-tree-keys", nil).Fail(t, 400)
		ta.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", "q")).Fail(t, 400)

		// Two roles: the union.
		other := newRole(t, ta, map[string]any{"roleName": "审核员", "roleAlias": "checker", "sort": 4})
		ta.PostJSON(grant, map[string]any{"roleIds": []string{other}, "menuIds": []string{ids["post"]}}).OK(t, nil)
		ta.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", roleID+","+other)).OK(t, &keys)
		if !same(keys.Menu, ids["dept"], ids["post"]) {
			t.Errorf("role-tree-keys of two roles: %v", keys.Menu)
		}
	})
}

func TestRoleTreeAndSubmit(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		tenantA, a := h.NewTenant("Roles A")
		_, b := h.NewTenant("Roles B")
		parent := newRole(t, a, map[string]any{"roleName": "经理", "roleAlias": "manager", "sort": 2})
		child := newRole(t, a, map[string]any{"roleName": "组长", "roleAlias": "lead", "sort": 3, "parentId": parent})
		grandchild := newRole(t, a, map[string]any{"roleName": "组员", "roleAlias": "member", "sort": 4, "parentId": child})

		var list []struct {
			ID       string `json:"id"`
			RoleName string `json:"roleName"`
			Children []struct {
				ID       string `json:"id"`
				Children []struct {
					ID string `json:"id"`
				} `json:"children"`
			} `json:"children"`
		}
		a.Get("/api/blade-system/role/list", nil).OK(t, &list)
		nested := false
		for _, r := range list {
			if r.ID == parent && len(r.Children) == 1 && r.Children[0].ID == child && len(r.Children[0].Children) == 1 &&
				r.Children[0].Children[0].ID == grandchild {
				nested = true
			}
		}
		if !nested || len(list) != 2 {
			t.Errorf("role list is not the tree admin + manager>lead>member: %+v", list)
		}
		var filtered []node
		a.Get("/api/blade-system/role/list", apptest.Q("roleName", "组")).OK(t, &filtered)
		if got := idSet(filtered); len(got) != 2 || !got[child] || !got[grandchild] {
			t.Errorf("role list filtered by name: %v", got)
		}

		var byID []node
		a.Get("/api/blade-system/role/tree-by-id", apptest.Q("roleId", child)).OK(t, &byID)
		if got := idSet(byID); got[child] || got[grandchild] || !got[parent] || len(got) != 2 {
			t.Errorf("tree-by-id of the lead: %v", got)
		}
		a.Get("/api/blade-system/role/tree-by-id", nil).Fail(t, 400)

		submit := "/api/blade-system/role/submit"
		cases := []struct {
			name string
			c    *apptest.Client
			body map[string]any
			msg  string
		}{
			{"own parent", a, map[string]any{"id": parent, "parentId": parent}, "自身"},
			{"under own grandchild", a, map[string]any{"id": parent, "parentId": grandchild}, "下级"},
			{"parent of another tenant", b, map[string]any{"roleName": "x", "roleAlias": "x", "sort": 1, "parentId": parent}, "上级角色"},
			{"unknown parent", a, map[string]any{"roleName": "x", "roleAlias": "x", "sort": 1, "parentId": "42"}, "上级角色"},
			{"administrator outside 000000", a, map[string]any{"roleName": "x", "roleAlias": "administrator", "sort": 1}, "administrator"},
			{"duplicate alias", a, map[string]any{"roleName": "x", "roleAlias": "manager", "sort": 1}, "已存在"},
			{"bad alias", a, map[string]any{"roleName": "x", "roleAlias": "no spaces", "sort": 1}, "格式"},
			{"missing name", a, map[string]any{"roleAlias": "nameless", "sort": 1}, "角色名称"},
		}
		for _, tc := range cases {
			// an edit sends its version (the optimistic lock is checked before the tree)
			if msg := tc.c.Edit(submit, tc.body).Fail(t, 400); !strings.Contains(msg, tc.msg) {
				t.Errorf("%s: %q, want it to mention %q", tc.name, msg, tc.msg)
			}
		}
		// A legal move, and an update that keeps what it does not send.
		a.Edit(submit, map[string]any{"id": grandchild, "parentId": parent}).OK(t, nil)
		var detail struct {
			ParentID   string `json:"parentId"`
			RoleAlias  string `json:"roleAlias"`
			ParentName string `json:"parentName"`
		}
		a.Get("/api/blade-system/role/detail", apptest.Q("id", grandchild)).OK(t, &detail)
		if detail.ParentID != parent || detail.RoleAlias != "member" || detail.ParentName != "经理" {
			t.Errorf("after the move: %+v", detail)
		}

		// Remove: children first; not while users hold it; never the platform's administrator.
		remove := "/api/blade-system/role/remove"
		if msg := a.Post(remove, apptest.Q("ids", parent)).Fail(t, 400); msg != "请先删除子节点" {
			t.Errorf("remove with children: %q", msg)
		}
		var adminRole []node
		a.Get("/api/blade-system/role/tree", nil).OK(t, &adminRole)
		var tenantAdminRole string
		for _, r := range adminRole {
			if r.Title == "管理员" {
				tenantAdminRole = r.ID
			}
		}
		if msg := a.Post(remove, apptest.Q("ids", tenantAdminRole)).Fail(t, 400); !strings.Contains(msg, "管理员") {
			t.Errorf("remove of a role users hold: %q", msg)
		}
		a.Post(remove, apptest.Q("ids", child+","+grandchild)).OK(t, nil)
		a.Post(remove, apptest.Q("ids", parent)).OK(t, nil)
		a.Post(remove, apptest.Q("ids", parent)).Fail(t, 404)

		var platform []node
		admin.Get("/api/blade-system/role/tree", nil).OK(t, &platform)
		var superRole string
		for _, r := range platform {
			if r.Title == "超级管理员" {
				superRole = r.ID
			}
		}
		if superRole == "" {
			t.Fatalf("no super administrator role in %+v", platform)
		}
		if msg := admin.Post(remove, apptest.Q("ids", superRole)).Fail(t, 400); !strings.Contains(msg, "超级管理员") {
			t.Errorf("remove of the administrator role: %q", msg)
		}
		admin.Edit(submit, map[string]any{"id": superRole, "roleAlias": "boss"}).Fail(t, 400)
		admin.Edit(submit, map[string]any{"id": superRole, "roleName": "超级管理员", "sort": 1}).OK(t, nil)

		// The super user sees every tenant's roles, filters by tenant, and creates roles in a tenant.
		made := newRole(t, admin, map[string]any{"roleName": "外派", "roleAlias": "visitor", "sort": 5, "tenantId": tenantA})
		var inA []struct {
			ID         string `json:"id"`
			TenantID   string `json:"tenantId"`
			TenantName string `json:"tenantName"`
		}
		admin.Get("/api/blade-system/role/list", apptest.Q("tenantId", tenantA)).OK(t, &inA)
		found := false
		for _, r := range inA {
			if r.TenantID != tenantA || r.TenantName != "Roles A" {
				t.Errorf("super user's list by tenant: %+v", r)
			}
			found = found || r.ID == made
		}
		if !found {
			t.Errorf("a role the super user made in tenant A is not listed there")
		}
		var treeA []node
		admin.Get("/api/blade-system/role/tree", apptest.Q("tenantId", tenantA)).OK(t, &treeA)
		if !idSet(treeA)[made] || idSet(treeA)[superRole] {
			t.Errorf("role/tree?tenantId of tenant A")
		}
		admin.PostJSON(submit, map[string]any{"roleName": "x", "roleAlias": "ghost", "sort": 1, "tenantId": "999999"}).Fail(t, 400)
		admin.Post(remove, nil).Fail(t, 400)
	})
}
