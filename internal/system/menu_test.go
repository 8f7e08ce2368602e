package system_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/seed/seeddata"
)

// TestMain lives in main_test.go.

// node decodes menu routes, buttons, menu lists and select trees alike.
type node struct {
	ID          string `json:"id"`
	ParentID    string `json:"parentId"`
	Code        string `json:"code"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Category    int    `json:"category"`
	HasChildren bool   `json:"hasChildren"`
	Children    []node `json:"children"`
}

// walk visits every node of a forest.
func walk(ns []node, fn func(n node)) {
	for _, n := range ns {
		fn(n)
		walk(n.Children, fn)
	}
}

func codeSet(ns []node) map[string]bool {
	out := map[string]bool{}
	walk(ns, func(n node) { out[n.Code] = true })
	return out
}

func idSet(ns []node) map[string]bool {
	out := map[string]bool{}
	walk(ns, func(n node) { out[n.ID] = true })
	return out
}

func rootCodes(ns []node) []string {
	out := []string{}
	for _, n := range ns {
		out = append(out, n.Code)
	}
	sort.Strings(out)
	return out
}

func sorted(set map[string]bool) []string {
	out := []string{}
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// menuIDs maps every menu and button code to its id (menu/list as the super user).
func menuIDs(t *testing.T, admin *apptest.Client) map[string]string {
	t.Helper()
	var tree []node
	admin.Get("/api/blade-system/menu/list", nil).OK(t, &tree)
	out := map[string]string{}
	walk(tree, func(n node) { out[n.Code] = n.ID })
	if len(out) < 100 {
		t.Fatalf("menu/list returned only %d entries", len(out))
	}
	return out
}

func topMenuIDs(t *testing.T, c *apptest.Client) map[string]string {
	t.Helper()
	var tops []struct {
		ID   string `json:"id"`
		Code string `json:"code"`
		Name string `json:"name"`
	}
	c.Get("/api/blade-system/menu/top-menu", nil).OK(t, &tops)
	out := map[string]string{}
	for _, tm := range tops {
		out[tm.Code] = tm.ID
	}
	return out
}

// subtreeCodes is the seeded codes of the named menus and everything under them.
func subtreeCodes(codes ...string) map[string]bool {
	want := map[string]bool{}
	for _, c := range codes {
		want[c] = true
	}
	out := map[string]bool{}
	var add func(m seeddata.Menu, in bool)
	add = func(m seeddata.Menu, in bool) {
		in = in || want[m.Code]
		if in {
			out[m.Code] = true
			for _, b := range m.Buttons {
				out[b.Code] = true
			}
		}
		for _, c := range m.Children {
			add(c, in)
		}
	}
	for _, m := range seeddata.Menus {
		add(m, false)
	}
	return out
}

func TestSuperUserRoutes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		var routes []node
		admin.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
		got := map[string]bool{}
		for _, n := range routes {
			got[n.Code] = true
			if n.ParentID != "0" {
				t.Errorf("top-level route %s has parent %s", n.Code, n.ParentID)
			}
		}
		for _, m := range seeddata.Menus {
			if !m.Hidden && !got[m.Code] {
				t.Errorf("super user routes lack top-level menu %s", m.Code)
			}
		}
		walk(routes, func(n node) {
			if n.Category != 1 {
				t.Errorf("routes contain %s of category %d", n.Code, n.Category)
			}
		})
		// Sorted by sort, leaves carry an empty children list.
		raw := string(admin.Get("/api/blade-system/menu/routes", nil).Body)
		if !strings.Contains(raw, `"children":[]`) || !strings.Contains(raw, `"isOpen":1`) || !strings.Contains(raw, `"source":"`) {
			t.Errorf("route nodes lack fields: %.300s", raw)
		}

		// The top menus, in order, and the menus bound to 002.
		tops := topMenuIDs(t, admin)
		for _, code := range []string{"000", "001", "002", "003", "004"} {
			if tops[code] == "" {
				t.Fatalf("top-menu lacks %s: %v", code, tops)
			}
		}
		var pdm []node
		admin.Get("/api/blade-system/menu/routes", apptest.Q("topMenuId", tops["002"])).OK(t, &pdm)
		if got, want := strings.Join(rootCodes(pdm), ","), "basic,bom,product,quotation"; got != want {
			t.Errorf("routes of top menu 002: %s, want %s", got, want)
		}
		if !codeSet(pdm)["material"] {
			t.Errorf("routes of 002 lack the material screen under basic")
		}
		var none []node
		admin.Get("/api/blade-system/menu/routes", apptest.Q("topMenuId", "12345")).OK(t, &none)
		if len(none) != 0 {
			t.Errorf("an unknown top menu shows %d menus", len(none))
		}
		admin.Get("/api/blade-system/menu/routes", apptest.Q("topMenuId", "abc")).Fail(t, 400)

		// English names on request.
		admin.Lang = "en"
		var en []node
		admin.Get("/api/blade-system/menu/routes", nil).OK(t, &en)
		names := map[string]string{}
		walk(en, func(n node) { names[n.Code] = n.Name })
		for _, m := range seeddata.Menus {
			if names[m.Code] != m.Name.En {
				t.Errorf("en name of %s: %q, want %q", m.Code, names[m.Code], m.Name.En)
			}
		}
		var topsEn []struct{ Code, Name string }
		admin.Get("/api/blade-system/menu/top-menu", nil).OK(t, &topsEn)
		if len(topsEn) != 5 || topsEn[0].Code != "000" || topsEn[0].Name != seeddata.TopMenus[0].Name.En {
			t.Errorf("top menus in en: %+v", topsEn)
		}
		admin.Lang = ""

		// Buttons: every seeded button, under its menu.
		var buttons []node
		admin.Get("/api/blade-system/menu/buttons", nil).OK(t, &buttons)
		leaves := map[string]bool{}
		walk(buttons, func(n node) {
			if len(n.Children) == 0 {
				leaves[n.Code] = true
				if n.Category != 2 {
					t.Errorf("button leaf %s has category %d", n.Code, n.Category)
				}
			}
		})
		for _, code := range []string{"param_add", "param_edit", "user_reset", "role_grant", "material_start_process"} {
			if !leaves[code] {
				t.Errorf("buttons lack %s", code)
			}
		}
	})
}

func TestTenantAdminSeesItsPackage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, ta := h.NewTenant("Package Co")
		// Default package: tenant.default.menuCode and everything under those menus, plus ancestors.
		pkg := subtreeCodes("desk", "flow", "work", "monitor", "resource", "role", "user", "dept", "post", "dictbiz", "topmenu",
			"basic", "product", "bom", "quotation", "warehouse", "stock", "production", "cost", "customer", "supplier", "purchase")
		for _, anc := range []string{"system", "authority"} {
			pkg[anc] = true
		}
		var routes []node
		ta.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
		got := codeSet(routes)
		for code := range got {
			if !pkg[code] {
				t.Errorf("tenant admin sees %s outside the package", code)
			}
		}
		for _, code := range []string{"desk", "notice", "system", "user", "dept", "authority", "role", "resource", "oss"} {
			if !got[code] {
				t.Errorf("tenant admin does not see %s: %v", code, sorted(got))
			}
		}
		for _, code := range []string{"menu", "tenant", "param", "data_scope", "tool", "website"} {
			if got[code] {
				t.Errorf("tenant admin sees %s", code)
			}
		}
		var buttons []node
		ta.Get("/api/blade-system/menu/buttons", nil).OK(t, &buttons)
		b := codeSet(buttons)
		if !b["user_add"] || !b["role_grant"] || b["param_add"] || b["tenant_add"] {
			t.Errorf("tenant admin buttons: %v", sorted(b))
		}
		tops := topMenuIDs(t, ta)
		// the business areas come with their top menus; the website area is the platform's
		if tops["000"] == "" || tops["002"] == "" || tops["003"] == "" || tops["004"] == "" || tops["001"] != "" {
			t.Errorf("tenant admin top menus: %v", tops)
		}

		// Select and grant trees are bounded by the package too.
		admin := h.Admin()
		ids := menuIDs(t, admin)
		var tree []node
		ta.Get("/api/blade-system/menu/tree", nil).OK(t, &tree)
		treeIDs := idSet(tree)
		if !treeIDs[ids["user_add"]] || treeIDs[ids["param"]] || treeIDs[ids["param_add"]] {
			t.Errorf("tenant admin menu/tree is not bounded by the package")
		}
		var full []node
		admin.Get("/api/blade-system/menu/tree", nil).OK(t, &full)
		if !idSet(full)[ids["param_add"]] {
			t.Errorf("super user menu/tree lacks param_add")
		}
		var menusOnly []node
		admin.Get("/api/blade-system/menu/tree", apptest.Q("category", "1")).OK(t, &menusOnly)
		if idSet(menusOnly)[ids["param_add"]] || !idSet(menusOnly)[ids["param"]] {
			t.Errorf("menu/tree?category=1 is not menus only")
		}
		// The super user may ask for a tenant's view; a tenant admin may not ask for another's.
		tenantID := ta.Login["tenant_id"].(string)
		var forTenant []node
		admin.Get("/api/blade-system/menu/tree", apptest.Q("tenantId", tenantID)).OK(t, &forTenant)
		if got := idSet(forTenant); got[ids["param"]] || !got[ids["user"]] {
			t.Errorf("menu/tree?tenantId is not bounded by the tenant's package")
		}
		ta.Get("/api/blade-system/menu/tree", apptest.Q("tenantId", "000000")).Fail(t, 403)
		var flat map[string]node
		ta.Get("/api/blade-system/menu/tree-map", nil).OK(t, &flat)
		if len(flat) != len(treeIDs) || flat[ids["user_add"]].Title == "" || flat[ids["user_add"]].ParentID != ids["user"] {
			t.Errorf("tree-map: %d entries for %d tree nodes", len(flat), len(treeIDs))
		}
		var grant struct {
			Menu      []node `json:"menu"`
			DataScope []node `json:"dataScope"`
			APIScope  []node `json:"apiScope"`
		}
		ta.Get("/api/blade-system/menu/grant-tree", nil).OK(t, &grant)
		if g := idSet(grant.Menu); !g[ids["user_add"]] || g[ids["param"]] || grant.DataScope == nil || grant.APIScope == nil {
			t.Errorf("tenant admin grant-tree: %d menus", len(g))
		}
	})
}

func TestMenuSubmitAndRemove(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		ids := menuIDs(t, admin)
		submit := "/api/blade-system/menu/submit"

		var created struct {
			ID string `json:"id"`
		}
		admin.PostJSON(submit, map[string]any{"parentId": ids["system"], "code": "audit", "name": "审计", "nameEn": "Audit",
			"path": "/system/audit", "source": "AuditOutlined", "sort": 99, "category": 1}).OK(t, &created)
		var btn struct {
			ID string `json:"id"`
		}
		admin.PostJSON(submit, map[string]any{"parentId": created.ID, "code": "audit_view", "name": "查看", "sort": 1, "category": 2, "action": 2}).OK(t, &btn)

		// The cache follows the write: routes and buttons show the new entries at once.
		var routes []node
		admin.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
		if !codeSet(routes)["audit"] {
			t.Fatalf("a new menu is missing from routes")
		}
		var buttons []node
		admin.Get("/api/blade-system/menu/buttons", nil).OK(t, &buttons)
		if !codeSet(buttons)["audit_view"] {
			t.Fatalf("a new button is missing from buttons")
		}

		cases := []struct {
			name string
			body map[string]any
			msg  string
		}{
			{"button without parent", map[string]any{"code": "x1", "name": "x", "sort": 1, "category": 2}, "上级菜单"},
			{"unknown parent", map[string]any{"parentId": "42", "code": "x2", "name": "x", "sort": 1, "category": 1}, "上级菜单不存在"},
			{"button as parent", map[string]any{"parentId": btn.ID, "code": "x3", "name": "x", "sort": 1, "category": 1}, "按钮不能作为上级菜单"},
			{"duplicate code", map[string]any{"parentId": ids["system"], "code": "user", "name": "x", "sort": 1, "category": 1}, "已存在"},
			{"bad category", map[string]any{"code": "x4", "name": "x", "sort": 1, "category": 7}, "菜单类型"},
			{"missing name", map[string]any{"code": "x5", "sort": 1, "category": 1}, "菜单名称"},
			{"own parent", map[string]any{"id": created.ID, "parentId": created.ID}, "自身"},
			{"under own child", map[string]any{"id": ids["system"], "parentId": created.ID}, "下级"},
			{"under a deep descendant", map[string]any{"id": ids["system"], "parentId": ids["user_monitor"]}, "下级"},
			{"under a button", map[string]any{"id": created.ID, "parentId": ids["user_add"]}, "按钮不能作为上级菜单"},
			{"menu with children to button", map[string]any{"id": created.ID, "category": 2}, "子节点"},
		}
		for _, tc := range cases {
			// an edit sends its version (the optimistic lock is checked before the tree)
			msg := admin.Edit(submit, tc.body).Fail(t, 400)
			if !strings.Contains(msg, tc.msg) {
				t.Errorf("%s: msg %q, want it to mention %q", tc.name, msg, tc.msg)
			}
		}
		admin.Edit(submit, map[string]any{"id": "987654321", "name": "x"}).Fail(t, 404)
		admin.PostJSON(submit, `{"code": [1, 2}`).Fail(t, 400)
		admin.PostJSON(submit, "").Fail(t, 400)

		// Moving is fine when it makes no cycle; an update keeps what it does not send.
		admin.Edit(submit, map[string]any{"id": created.ID, "parentId": ids["authority"]}).OK(t, nil)
		var detail struct {
			ParentID   string `json:"parentId"`
			Code       string `json:"code"`
			ParentName string `json:"parentName"`
			Category   int    `json:"category"`
		}
		admin.Get("/api/blade-system/menu/detail", apptest.Q("id", created.ID)).OK(t, &detail)
		if detail.ParentID != ids["authority"] || detail.Code != "audit" || detail.Category != 1 || detail.ParentName != "权限管理" {
			t.Errorf("after the move: %+v", detail)
		}

		// Remove: refused while children live, then child first, then parent.
		remove := "/api/blade-system/menu/remove"
		if msg := admin.Post(remove, apptest.Q("ids", created.ID)).Fail(t, 400); msg != "请先删除子节点" {
			t.Errorf("remove with children: %q", msg)
		}
		admin.Lang = "en"
		if msg := admin.Post(remove, apptest.Q("ids", ids["system"])).Fail(t, 400); msg != "Delete the children first" {
			t.Errorf("remove with children (en): %q", msg)
		}
		admin.Lang = ""
		admin.Post(remove, apptest.Q("ids", btn.ID)).OK(t, nil)
		admin.Post(remove, apptest.Q("ids", created.ID)).OK(t, nil)
		admin.Post(remove, apptest.Q("ids", created.ID)).Fail(t, 404)
		admin.Post(remove, nil).Fail(t, 400)
		admin.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
		if codeSet(routes)["audit"] {
			t.Errorf("a removed menu is still routed")
		}

		// Only the super user writes menus.
		_, ta := h.NewTenant("Menu Writers")
		ta.PostJSON(submit, map[string]any{"code": "x6", "name": "x", "sort": 1, "category": 1}).Fail(t, 403)
		ta.Post(remove, apptest.Q("ids", ids["desk"])).Fail(t, 403)
		ta.PostJSON("/api/blade-system/topmenu/grant", map[string]any{"topMenuIds": []string{"1"}, "menuIds": []string{ids["desk"]}}).Fail(t, 403)
	})
}

func TestMenuLists(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		ids := menuIDs(t, admin)

		var roots []node
		admin.Get("/api/blade-system/menu/lazy-list", nil).OK(t, &roots)
		if len(roots) != len(seeddata.Menus) {
			t.Errorf("lazy-list roots: %d, want %d", len(roots), len(seeddata.Menus))
		}
		var kids []node
		admin.Get("/api/blade-system/menu/lazy-list", apptest.Q("parentId", ids["user"])).OK(t, &kids)
		if c := codeSet(kids); !c["user_add"] || c["dept"] || len(c) != len(subtreeCodes("user"))-1 {
			t.Errorf("lazy-list of user: %v", sorted(c))
		}
		var sys []node
		admin.Get("/api/blade-system/menu/lazy-list", apptest.Q("parentId", ids["system"])).OK(t, &sys)
		for _, k := range sys {
			if k.Code == "user" && !k.HasChildren || len(k.Children) > 0 {
				t.Errorf("lazy-list of system, %s: hasChildren %v, %d children", k.Code, k.HasChildren, len(k.Children))
			}
		}
		if c := codeSet(sys); !c["user"] || !c["user_monitor"] || c["user_add"] {
			t.Errorf("lazy-list of system: %v", sorted(c))
		}
		var menuKids []node
		admin.Get("/api/blade-system/menu/lazy-menu-list", apptest.Q("parentId", ids["user"])).OK(t, &menuKids)
		if len(menuKids) != 0 {
			t.Errorf("lazy-menu-list of user holds buttons: %v", sorted(codeSet(menuKids)))
		}
		admin.Get("/api/blade-system/menu/lazy-menu-list", apptest.Q("parentId", ids["system"])).OK(t, &menuKids)
		for _, k := range menuKids {
			if k.Code == "user" && k.HasChildren {
				t.Errorf("lazy-menu-list: user has only buttons below it, yet hasChildren")
			}
		}
		var lazyMap map[string]node
		admin.Get("/api/blade-system/menu/lazy-map", apptest.Q("parentId", ids["user"])).OK(t, &lazyMap)
		if lazyMap[ids["user_add"]].Code != "user_add" || len(lazyMap) != len(kids) {
			t.Errorf("lazy-map: %d entries", len(lazyMap))
		}

		// Filters: a name or code filter lists matches from any level.
		var found []node
		admin.Get("/api/blade-system/menu/list", apptest.Q("code", "param")).OK(t, &found)
		if c := codeSet(found); !c["param"] || !c["param_add"] || c["user"] {
			t.Errorf("list?code=param: %v", sorted(c))
		}
		admin.Get("/api/blade-system/menu/lazy-list", apptest.Q("name", "用户管理")).OK(t, &found)
		if c := codeSet(found); !c["user"] || c["system"] {
			t.Errorf("lazy-list?name=用户管理: %v", sorted(c))
		}
		var menus []node
		admin.Get("/api/blade-system/menu/menu-list", nil).OK(t, &menus)
		walk(menus, func(n node) {
			if n.Category != 1 {
				t.Errorf("menu-list holds %s of category %d", n.Code, n.Category)
			}
		})
		if !codeSet(menus)["user_monitor"] {
			t.Errorf("menu-list lacks nested menus")
		}
		var top []node
		admin.Get("/api/blade-system/menu/grant-top-tree", nil).OK(t, &top)
		if g := idSet(top); !g[ids["material"]] || g[ids["material_add"]] {
			t.Errorf("grant-top-tree must hold menus only")
		}
		admin.Get("/api/blade-system/menu/lazy-list", apptest.Q("parentId", "%")).Fail(t, 400)
		admin.Get("/api/blade-system/menu/list", apptest.Q("descs", "nope")).Fail(t, 400)
	})
}

func TestTopMenuGrant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		ids := menuIDs(t, admin)
		tops := topMenuIDs(t, admin)

		var keys []string
		admin.Get("/api/blade-system/menu/top-tree-keys", apptest.Q("topMenuIds", tops["004"])).OK(t, &keys)
		sort.Strings(keys)
		want := []string{ids["supplier"], ids["purchase"]}
		sort.Strings(want)
		if strings.Join(keys, ",") != strings.Join(want, ",") {
			t.Errorf("top-tree-keys of 004: %v, want %v", keys, want)
		}

		grant := "/api/blade-system/topmenu/grant"
		admin.PostJSON(grant, map[string]any{"topMenuIds": []string{tops["004"]}, "menuIds": []string{ids["supplier"], ids["customer"]}}).OK(t, nil)
		admin.Get("/api/blade-system/menu/top-tree-keys", apptest.Q("topMenuIds", tops["004"])).OK(t, &keys)
		sort.Strings(keys)
		want = []string{ids["supplier"], ids["customer"]}
		sort.Strings(want)
		if strings.Join(keys, ",") != strings.Join(want, ",") {
			t.Errorf("top-tree-keys after grant: %v, want %v", keys, want)
		}
		var routes []node
		admin.Get("/api/blade-system/menu/routes", apptest.Q("topMenuId", tops["004"])).OK(t, &routes)
		if got := strings.Join(rootCodes(routes), ","); got != "customer,supplier" {
			t.Errorf("routes of 004 after grant: %s", got)
		}
		// Several top menus at once, and ids sent as a comma string.
		admin.PostJSON(grant, map[string]any{"topMenuIds": tops["003"] + "," + tops["004"], "menuIds": ids["stock"]}).OK(t, nil)
		admin.Get("/api/blade-system/menu/top-tree-keys", apptest.Q("topMenuIds", tops["003"]+","+tops["004"])).OK(t, &keys)
		if len(keys) != 1 || keys[0] != ids["stock"] {
			t.Errorf("top-tree-keys of 003,004: %v", keys)
		}
		// Emptying a top menu hides it from top-menu.
		admin.PostJSON(grant, map[string]any{"topMenuIds": []string{tops["004"]}, "menuIds": []string{}}).OK(t, nil)
		if after := topMenuIDs(t, admin); after["004"] != "" || after["003"] == "" {
			t.Errorf("top menus after emptying 004: %v", after)
		}

		admin.PostJSON(grant, map[string]any{"menuIds": []string{ids["desk"]}}).Fail(t, 400)
		admin.PostJSON(grant, map[string]any{"topMenuIds": []string{"42"}, "menuIds": []string{ids["desk"]}}).Fail(t, 400)
		if msg := admin.PostJSON(grant, map[string]any{"topMenuIds": []string{tops["000"]}, "menuIds": []string{"42"}}).Fail(t, 400); !strings.Contains(msg, "42") {
			t.Errorf("unknown menu msg: %q", msg)
		}
		admin.PostJSON(grant, map[string]any{"topMenuIds": []string{"x"}}).Fail(t, 400)
		admin.PostJSON(grant, "").Fail(t, 400)
		admin.Get("/api/blade-system/menu/top-tree-keys", nil).Fail(t, 400)
		// A refused grant changed nothing.
		admin.Get("/api/blade-system/menu/top-tree-keys", apptest.Q("topMenuIds", tops["000"])).OK(t, &keys)
		if len(keys) != len(seeddata.TopMenus[0].Menus) {
			t.Errorf("top menu 000 bindings after refused grants: %d", len(keys))
		}
	})
}

// TestExplicitPackage: a tenant created with a package sees that package; an
// edit of the package (which tells no cache) bounds its users at once.
func TestExplicitPackage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		ids := menuIDs(t, admin)
		var pkg struct {
			ID string `json:"id"`
		}
		admin.PostJSON("/api/blade-system/tenant-package/submit", map[string]any{"packageName": "Desk only",
			"menuId": strings.Join([]string{ids["desk"], ids["notice"], ids["notice_add"], ids["notice_view"]}, ",")}).OK(t, &pkg)
		var tenant struct {
			TenantID string `json:"tenantId"`
		}
		admin.PostJSON("/api/blade-system/tenant/submit", map[string]any{"tenantName": "Desk Co", "linkman": "x", "packageId": pkg.ID}).OK(t, &tenant)
		ta := h.Login(tenant.TenantID, "admin", "admin")

		var routes, buttons []node
		ta.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
		if got := sorted(codeSet(routes)); !same(got, "desk", "notice") {
			t.Errorf("routes within the package: %v", got)
		}
		ta.Get("/api/blade-system/menu/buttons", nil).OK(t, &buttons)
		if got := leafCodes(buttons); !same(got, "notice_add", "notice_view") {
			t.Errorf("buttons within the package: %v", got)
		}
		// Shrink the package: the grants stay, the package bounds them.
		admin.Edit("/api/blade-system/tenant-package/submit", map[string]any{"id": pkg.ID,
			"menuId": strings.Join([]string{ids["desk"], ids["notice"], ids["notice_view"]}, ",")}).OK(t, nil)
		ta.Get("/api/blade-system/menu/buttons", nil).OK(t, &buttons)
		if got := leafCodes(buttons); !same(got, "notice_view") {
			t.Errorf("buttons after the package shrank: %v", got)
		}
		var keys treeKeys
		ta.Get("/api/blade-system/menu/role-tree-keys", apptest.Q("roleIds", ta.Login["role_id"].(string))).OK(t, &keys)
		if len(keys.Menu) != 4 {
			t.Errorf("the admin role's grants: %v", keys.Menu)
		}
		if msg := ta.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{ta.Login["role_id"].(string)},
			"menuIds": []string{ids["notice_add"]}}).Fail(t, 400); !strings.Contains(msg, "产品包") {
			t.Errorf("grant of a button the package dropped: %q", msg)
		}
	})
}
