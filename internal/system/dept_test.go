package system_test

import (
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// deptRow is a department as the API answers it.
type deptRow struct {
	ID          string     `json:"id"`
	TenantID    string     `json:"tenantId"`
	ParentID    string     `json:"parentId"`
	Ancestors   string     `json:"ancestors"`
	DeptName    string     `json:"deptName"`
	FullName    string     `json:"fullName"`
	ParentName  string     `json:"parentName"`
	TenantName  string     `json:"tenantName"`
	HasChildren bool       `json:"hasChildren"`
	Children    []*deptRow `json:"children"`
}

// treeNode is a select-tree node.
type treeNode struct {
	ID          string      `json:"id"`
	ParentID    string      `json:"parentId"`
	Title       string      `json:"title"`
	Value       string      `json:"value"`
	Key         string      `json:"key"`
	HasChildren bool        `json:"hasChildren"`
	Children    []*treeNode `json:"children"`
}

const deptAPI = "/api/blade-system/dept/"

// deptRoot is the root department a new tenant is given.
func deptRoot(t *testing.T, c *apptest.Client) *deptRow {
	t.Helper()
	var roots []*deptRow
	c.Get(deptAPI+"lazy-list", nil).OK(t, &roots)
	if len(roots) != 1 {
		t.Fatalf("a new tenant has %d root departments", len(roots))
	}
	return roots[0]
}

// deptCreate adds a department under parentID.
func deptCreate(t *testing.T, c *apptest.Client, parentID, name string) *deptRow {
	t.Helper()
	var d deptRow
	c.PostJSON(deptAPI+"submit", map[string]any{"parentId": parentID, "deptName": name, "fullName": name + " 全称",
		"deptCategory": 1, "sort": 1}).OK(t, &d)
	if d.ID == "" {
		t.Fatalf("dept %s created without id", name)
	}
	return &d
}

func deptDetail(t *testing.T, c *apptest.Client, id string) *deptRow {
	t.Helper()
	var d deptRow
	c.Get(deptAPI+"detail", apptest.Q("id", id)).OK(t, &d)
	return &d
}

// findDept looks for id anywhere in a tree.
func findDept(rows []*deptRow, id string) *deptRow {
	for _, r := range rows {
		if r.ID == id {
			return r
		}
		if f := findDept(r.Children, id); f != nil {
			return f
		}
	}
	return nil
}

func findNode(rows []*treeNode, id string) *treeNode {
	for _, r := range rows {
		if r.ID == id {
			return r
		}
		if f := findNode(r.Children, id); f != nil {
			return f
		}
	}
	return nil
}

func TestDeptTreeAndMoves(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, ta := h.NewTenant("Dept Co")
		root := deptRoot(t, ta)
		if root.Ancestors != "0" || root.ParentID != "0" {
			t.Fatalf("tenant root: %+v", root)
		}
		a := deptCreate(t, ta, root.ID, "A")
		b := deptCreate(t, ta, a.ID, "B")
		c := deptCreate(t, ta, b.ID, "C")
		x := deptCreate(t, ta, root.ID, "X")
		if want := "0," + root.ID + "," + a.ID + "," + b.ID; c.Ancestors != want {
			t.Fatalf("C ancestors %q, want %q", c.Ancestors, want)
		}
		if d := deptDetail(t, ta, b.ID); d.ParentName != "A" || d.Ancestors != "0,"+root.ID+","+a.ID {
			t.Fatalf("B detail: %+v", d)
		}

		// move the middle node: B (with C) goes under X
		ta.Edit(deptAPI+"submit", map[string]any{"id": b.ID, "parentId": x.ID}).OK(t, nil)
		if d := deptDetail(t, ta, b.ID); d.ParentID != x.ID || d.ParentName != "X" || d.Ancestors != "0,"+root.ID+","+x.ID {
			t.Fatalf("B after the move: %+v", d)
		}
		if d := deptDetail(t, ta, c.ID); d.Ancestors != "0,"+root.ID+","+x.ID+","+b.ID || d.ParentID != b.ID {
			t.Fatalf("C after its parent moved: %+v", d)
		}
		// an edit without parentId leaves the place alone
		ta.Edit(deptAPI+"submit", map[string]any{"id": c.ID, "deptName": "C2"}).OK(t, nil)
		if d := deptDetail(t, ta, c.ID); d.DeptName != "C2" || d.ParentID != b.ID || d.Ancestors != "0,"+root.ID+","+x.ID+","+b.ID {
			t.Fatalf("C after a rename: %+v", d)
		}
		// moving X to the root level rewrites the whole branch
		ta.Edit(deptAPI+"submit", map[string]any{"id": x.ID, "parentId": "0"}).OK(t, nil)
		if d := deptDetail(t, ta, c.ID); d.Ancestors != "0,"+x.ID+","+b.ID {
			t.Fatalf("C after X moved to the root level: %+v", d)
		}
		ta.Edit(deptAPI+"submit", map[string]any{"id": x.ID, "parentId": root.ID}).OK(t, nil)

		// cycles (the engine's tree check) and unknown parents
		for _, c := range []struct {
			body map[string]any
			msg  string
		}{
			{map[string]any{"id": x.ID, "parentId": c.ID}, "上级机构不能是其下级"},
			{map[string]any{"id": x.ID, "parentId": b.ID}, "上级机构不能是其下级"},
			{map[string]any{"id": b.ID, "parentId": b.ID}, "上级机构不能是自身"},
		} {
			if msg := ta.Edit(deptAPI+"submit", c.body).Fail(t, 400); msg != c.msg {
				t.Errorf("cycle %v: %q, want %q", c.body, msg, c.msg)
			}
		}
		if msg := ta.PostJSON(deptAPI+"submit", map[string]any{"parentId": "12345", "deptName": "N", "fullName": "N", "deptCategory": 1, "sort": 1}).Fail(t, 400); msg != "上级机构不存在或无权引用" {
			t.Errorf("unknown parent: %q", msg)
		}
		ta.PostJSON(deptAPI+"submit", map[string]any{"parentId": root.ID}).Fail(t, 400)
		ta.PostJSON(deptAPI+"submit", map[string]any{"parentId": "x1", "deptName": "N"}).Fail(t, 400)
		ta.PostJSON(deptAPI+"submit", `{"deptName": `).Fail(t, 400)

		// list: the whole tree
		var tree []*deptRow
		ta.Get(deptAPI+"list", nil).OK(t, &tree)
		if len(tree) != 1 || tree[0].ID != root.ID || len(tree[0].Children) != 2 {
			t.Fatalf("list tree: %+v", tree)
		}
		if n := findDept(tree, x.ID); n == nil || len(n.Children) != 1 || n.Children[0].ID != b.ID || n.Children[0].Children[0].ID != c.ID {
			t.Fatalf("X branch in the list tree: %+v", n)
		}
		// list with a filter: the matches, as roots
		ta.Get(deptAPI+"list", apptest.Q("deptName", "C2")).OK(t, &tree)
		if len(tree) != 1 || tree[0].ID != c.ID || tree[0].ParentName != "B" {
			t.Fatalf("list deptName=C2: %+v", tree)
		}
		// lazy-list: one level with hasChildren; a search without parentId looks everywhere
		var level []*deptRow
		ta.Get(deptAPI+"lazy-list", apptest.Q("parentId", x.ID)).OK(t, &level)
		if len(level) != 1 || level[0].ID != b.ID || !level[0].HasChildren {
			t.Fatalf("lazy-list of X: %+v", level)
		}
		ta.Get(deptAPI+"lazy-list", apptest.Q("parentId", b.ID)).OK(t, &level)
		if len(level) != 1 || level[0].HasChildren {
			t.Fatalf("lazy-list of B: %+v", level)
		}
		ta.Get(deptAPI+"lazy-list", apptest.Q("fullName", "C2")).OK(t, &level)
		if len(level) != 0 {
			t.Errorf("fullName still says C: %+v", level)
		}
		ta.Get(deptAPI+"lazy-list", apptest.Q("deptName", "C2")).OK(t, &level)
		if len(level) != 1 || level[0].ID != c.ID {
			t.Errorf("lazy-list search: %+v", level)
		}
		ta.Get(deptAPI+"lazy-list", apptest.Q("parentId", "%")).Fail(t, 400)

		// select trees
		var nodes []*treeNode
		ta.Get(deptAPI+"tree", nil).OK(t, &nodes)
		if n := findNode(nodes, c.ID); n == nil || n.Title != "C2" || n.Value != c.ID || n.Key != c.ID || n.ParentID != b.ID {
			t.Fatalf("tree node of C: %+v", n)
		}
		if len(nodes) != 1 || nodes[0].ID != root.ID {
			t.Fatalf("tree roots: %+v", nodes)
		}
		ta.Get(deptAPI+"lazy-tree", apptest.Q("parentId", root.ID)).OK(t, &nodes)
		if len(nodes) != 2 || findNode(nodes, x.ID) == nil || !findNode(nodes, x.ID).HasChildren || findNode(nodes, a.ID).HasChildren {
			t.Fatalf("lazy-tree of the root: %+v", nodes)
		}
		ta.Get(deptAPI+"lazy-tree", nil).OK(t, &nodes)
		if len(nodes) != 1 || nodes[0].ID != root.ID || !nodes[0].HasChildren {
			t.Fatalf("lazy-tree roots: %+v", nodes)
		}
		ta.Get(deptAPI+"lazy-tree", apptest.Q("parentId", "q")).Fail(t, 400)
	})
}

func TestDeptRemove(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, ta := h.NewTenant("Remove Co")
		root := deptRoot(t, ta)
		a := deptCreate(t, ta, root.ID, "A")
		b := deptCreate(t, ta, a.ID, "B")
		// a user in B: B cannot go while the user is there (blade_user.dept_id is a comma list)
		var role struct {
			ID string `json:"id"`
		}
		ta.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": "Staff", "roleAlias": "staff", "sort": 2, "parentId": "0"}).OK(t, &role)
		var u struct {
			ID string `json:"id"`
		}
		ta.PostJSON("/api/blade-user/submit", map[string]any{"account": "inb", "name": "In B", "realName": "In B", "password": "123456",
			"roleId": role.ID, "deptId": root.ID + "," + b.ID}).OK(t, &u)

		if msg := ta.Post(deptAPI+"remove", apptest.Q("ids", a.ID)).Fail(t, 400); msg != "请先删除子节点" {
			t.Errorf("remove A with child B: %q", msg)
		}
		ta.Lang = "en"
		if msg := ta.Post(deptAPI+"remove", apptest.Q("ids", a.ID)).Fail(t, 400); msg != "Delete the children first" {
			t.Errorf("english: %q", msg)
		}
		ta.Lang = ""
		if msg := ta.Post(deptAPI+"remove", apptest.Q("ids", b.ID)).Fail(t, 400); msg != "请先删除或调离该机构下的用户" {
			t.Errorf("remove B with a user: %q", msg)
		}
		ta.Post(deptAPI+"remove", apptest.Q("ids", root.ID)).Fail(t, 400)
		// the user leaves B; then B and A go (together: A's only child goes with it)
		ta.Edit("/api/blade-user/submit", map[string]any{"id": u.ID, "deptId": root.ID}).OK(t, nil)
		ta.Post(deptAPI+"remove", apptest.Q("ids", a.ID+","+b.ID)).OK(t, nil)
		ta.Get(deptAPI+"detail", apptest.Q("id", b.ID)).Fail(t, 404)
		ta.Post(deptAPI+"remove", apptest.Q("ids", b.ID)).Fail(t, 404)
		ta.Post(deptAPI+"remove", nil).Fail(t, 400)
		// the root still has the user
		ta.Post(deptAPI+"remove", apptest.Q("ids", root.ID)).Fail(t, 400)
	})
}

func TestDeptTenantIsolation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantA, ta := h.NewTenant("Dept A")
		tenantB, tb := h.NewTenant("Dept B")
		rootA := deptRoot(t, ta)
		a1 := deptCreate(t, ta, rootA.ID, "A1")
		a2 := deptCreate(t, ta, a1.ID, "A2")
		rootB := deptRoot(t, tb)

		// B's admin cannot read, change, remove or build under A's departments
		tb.Get(deptAPI+"detail", apptest.Q("id", a1.ID)).Fail(t, 404)
		tb.Edit(deptAPI+"submit", map[string]any{"id": a1.ID, "deptName": "hijacked"}).Fail(t, 404)
		tb.Edit(deptAPI+"submit", map[string]any{"id": a1.ID, "parentId": rootB.ID}).Fail(t, 404)
		tb.Post(deptAPI+"remove", apptest.Q("ids", a2.ID)).Fail(t, 404)
		if msg := tb.PostJSON(deptAPI+"submit", map[string]any{"parentId": a1.ID, "deptName": "Inside", "fullName": "Inside",
			"deptCategory": 1, "sort": 1}).Fail(t, 400); msg != "上级机构不存在或无权引用" {
			t.Errorf("submit under another tenant's dept: %q", msg)
		}
		// nor move its own department under A's
		b1 := deptCreate(t, tb, rootB.ID, "B1")
		tb.Edit(deptAPI+"submit", map[string]any{"id": b1.ID, "parentId": a1.ID}).Fail(t, 400)
		// a tenant id in the body does not help a tenant admin
		var made deptRow
		tb.PostJSON(deptAPI+"submit", map[string]any{"tenantId": tenantA, "parentId": "0", "deptName": "Sneak", "fullName": "Sneak",
			"deptCategory": 1, "sort": 1}).OK(t, &made)
		if made.TenantID != tenantB {
			t.Errorf("tenant admin created a dept in tenant %s", made.TenantID)
		}

		var tree []*deptRow
		tb.Get(deptAPI+"list", nil).OK(t, &tree)
		if findDept(tree, a1.ID) != nil || findDept(tree, rootA.ID) != nil || findDept(tree, b1.ID) == nil {
			t.Fatalf("B's list: %+v", tree)
		}
		tb.Get(deptAPI+"list", apptest.Q("tenantId", tenantA)).OK(t, &tree)
		if len(tree) != 0 {
			t.Fatalf("B's list filtered to tenant A: %+v", tree)
		}
		var level []*deptRow
		tb.Get(deptAPI+"lazy-list", apptest.Q("parentId", a1.ID)).OK(t, &level)
		if len(level) != 0 {
			t.Fatalf("B's lazy-list under A1: %+v", level)
		}
		var nodes []*treeNode
		tb.Get(deptAPI+"tree", apptest.Q("tenantId", tenantA)).OK(t, &nodes)
		if findNode(nodes, a1.ID) != nil || findNode(nodes, b1.ID) == nil {
			t.Fatalf("B's tree with tenantId=A: %+v", nodes)
		}
		tb.Get(deptAPI+"lazy-tree", apptest.Q("parentId", rootA.ID, "tenantId", tenantA)).OK(t, &nodes)
		if len(nodes) != 0 {
			t.Fatalf("B's lazy-tree under A's root: %+v", nodes)
		}

		// the super user sees every tenant and may narrow by tenantId
		super := h.Admin()
		super.Get(deptAPI+"list", nil).OK(t, &tree)
		if findDept(tree, a2.ID) == nil || findDept(tree, b1.ID) == nil {
			t.Fatalf("super user's list lacks a tenant")
		}
		super.Get(deptAPI+"list", apptest.Q("tenantId", tenantA)).OK(t, &tree)
		if len(tree) != 1 || tree[0].ID != rootA.ID || tree[0].TenantName != "Dept A" || findDept(tree, a2.ID) == nil {
			t.Fatalf("super user's list of tenant A: %+v", tree)
		}
		super.Get(deptAPI+"tree", apptest.Q("tenantId", tenantA)).OK(t, &nodes)
		if findNode(nodes, a2.ID) == nil || findNode(nodes, b1.ID) != nil {
			t.Fatalf("super user's tree of tenant A: %+v", nodes)
		}
		// and may create a department in another tenant, under that tenant's departments only
		super.PostJSON(deptAPI+"submit", map[string]any{"tenantId": tenantA, "parentId": a2.ID, "deptName": "By super", "fullName": "x",
			"deptCategory": 1, "sort": 1}).OK(t, &made)
		if made.TenantID != tenantA || made.Ancestors != "0,"+rootA.ID+","+a1.ID+","+a2.ID {
			t.Errorf("super user's dept in tenant A: %+v", made)
		}
		super.PostJSON(deptAPI+"submit", map[string]any{"tenantId": tenantB, "parentId": a2.ID, "deptName": "Mixed", "fullName": "x",
			"deptCategory": 1, "sort": 1}).Fail(t, 400)
		super.PostJSON(deptAPI+"submit", map[string]any{"tenantId": "nosuch", "parentId": "0", "deptName": "Ghost", "fullName": "x",
			"deptCategory": 1, "sort": 1}).Fail(t, 400)
	})
}

func TestPostSelect(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantA, ta := h.NewTenant("Post A")
		super := h.Admin()
		type postOption struct {
			ID       string `json:"id"`
			PostName string `json:"postName"`
			PostCode string `json:"postCode"`
			Category int    `json:"category"`
		}
		ta.PostJSON("/api/blade-system/post/submit", map[string]any{"category": 1, "postCode": "ceo", "postName": "首席执行官", "sort": 2}).OK(t, nil)
		ta.PostJSON("/api/blade-system/post/submit", map[string]any{"category": 2, "postCode": "dev", "postName": "开发", "sort": 1}).OK(t, nil)
		var mine []postOption
		ta.Get("/api/blade-system/post/select", nil).OK(t, &mine)
		if len(mine) != 2 || mine[0].PostCode != "dev" || mine[1].PostName != "首席执行官" || mine[0].ID == "" || mine[0].Category != 2 {
			t.Fatalf("tenant A's posts: %+v", mine)
		}
		// a tenant admin gets their own tenant whatever tenantId says
		var other []postOption
		ta.Get("/api/blade-system/post/select", apptest.Q("tenantId", "000000")).OK(t, &other)
		if len(other) != 2 || other[0].PostCode != "dev" {
			t.Fatalf("tenant A asking for 000000: %+v", other)
		}
		// the super user names the tenant, or gets the platform's
		super.Get("/api/blade-system/post/select", apptest.Q("tenantId", tenantA)).OK(t, &other)
		if len(other) != 2 {
			t.Fatalf("super user, tenant A: %+v", other)
		}
		super.Get("/api/blade-system/post/select", nil).OK(t, &other)
		for _, p := range other {
			if p.PostCode == "dev" || p.PostCode == "ceo" {
				t.Fatalf("platform posts include tenant A's: %+v", other)
			}
		}
		if len(other) == 0 {
			t.Errorf("the platform tenant has seeded posts")
		}
		var empty []postOption
		r := super.Get("/api/blade-system/post/select", apptest.Q("tenantId", "nosuch")).OK(t, &empty)
		if len(empty) != 0 || string(r.Env.Data) != "[]" {
			t.Errorf("unknown tenant: %s", r.Env.Data)
		}
	})
}
