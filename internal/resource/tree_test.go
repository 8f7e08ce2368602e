package resource

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// The tree capability, on SQLite and (BLUEBIRD_TEST_PG) PostgreSQL: a
// tenant-scoped tree with an ancestors column, lazy loading and parent
// names, and a global one whose remove cascades.

type treeRow struct {
	Base
	ParentID   wire.ID `bun:"parent_id" json:"parentId" f:"label=上级节点|Parent node"`
	Ancestors  string  `bun:"ancestors" json:"ancestors" f:"label=祖级|Ancestors;ro;noform"`
	Name       string  `bun:"name" json:"name" f:"label=名称|Name;req;max=64"`
	NameEn     string  `bun:"name_en" json:"nameEn" f:"label=英文名称|English name;max=64"`
	Sort       int     `bun:"sort" json:"sort" f:"label=排序|Sort;sort"`
	ParentName string  `bun:"-" json:"parentName"`
}

const treeDDL = `CREATE TABLE %s (
	id BIGINT PRIMARY KEY, tenant_id VARCHAR(12), create_user BIGINT, create_dept BIGINT, create_time TIMESTAMP,
	update_user BIGINT, update_time TIMESTAMP, status INT, is_deleted INT, version INT,
	parent_id BIGINT NOT NULL DEFAULT 0, ancestors VARCHAR(2000) NOT NULL DEFAULT '', name VARCHAR(64), name_en VARCHAR(64), sort INT)`

type treeEnv struct {
	*apiEnv
	node    *Resource[treeRow] // blade-test/node: tenant rows, ancestors, lazy, data scope
	cascade *Resource[treeRow] // blade-test/cascade: global rows whose remove takes the subtree
}

// eachTreeDB runs fn on a fresh pair of tree tables in every database at
// hand, through the engine's test harness (harness_test.go).
func eachTreeDB(t *testing.T, fn func(t *testing.T, e *treeEnv)) {
	e := &treeEnv{}
	declare := func(tables map[string]string) []Registered {
		e.node = New(Spec{Service: "blade-test", Name: "node", Table: tables["tree_node"], Label: i18n.T("节点", "Node"),
			Scope: Tenant, DataScope: true, MenuCode: "node", DefaultOrder: "sort ASC, id ASC",
			Tree: &Tree{Parent: "parentId", Label: "name", LabelEn: "nameEn", Ancestors: "ancestors", ParentName: "parentName", Lazy: true},
		}, Hooks[treeRow]{})
		e.cascade = New(Spec{Service: "blade-test", Name: "cascade", Table: tables["tree_cascade"], Label: i18n.T("字典", "Dictionary"),
			Scope: Global, DefaultOrder: "sort ASC, id ASC",
			Tree: &Tree{Parent: "parentId", Label: "name", Cascade: true},
		}, Hooks[treeRow]{})
		return []Registered{e.node, e.cascade}
	}
	eachDB(t, map[string]string{"tree_node": treeDDL, "tree_cascade": treeDDL}, declare,
		func(env *Env) { env.Scope = createdRows{} },
		func(t *testing.T, api *apiEnv) {
			e.apiEnv = api
			fn(t, e)
		})
}

// add inserts a row under parent and returns it.
func (e *treeEnv) add(who, res string, parent wire.ID, name string) treeRow {
	e.t.Helper()
	var row treeRow
	e.ok(who, "POST", "/blade-test/"+res+"/submit", map[string]any{"parentId": parent, "name": name, "nameEn": name + "-en"}, &row)
	return row
}

func (e *treeEnv) get(who, res string, id wire.ID) treeRow {
	e.t.Helper()
	var row treeRow
	e.ok(who, "GET", fmt.Sprintf("/blade-test/%s/detail?id=%d", res, id), nil, &row)
	return row
}

// move submits a new parent with the row's current version.
func (e *treeEnv) move(who, res string, id, parent wire.ID) apiAnswer {
	e.t.Helper()
	v := e.get(who, res, id).Version
	return e.call(who, "POST", "/blade-test/"+res+"/submit", map[string]any{"id": id, "parentId": parent, "version": v})
}

func path(ids ...wire.ID) string {
	s := "0"
	for _, id := range ids {
		s += "," + id.String()
	}
	return s
}

func TestTreeCycleRefused(t *testing.T) {
	eachTreeDB(t, func(t *testing.T, e *treeEnv) {
		root := e.add("a", "node", 0, "root")
		child := e.add("a", "node", root.ID, "child")
		grand := e.add("a", "node", child.ID, "grand")
		for _, c := range []struct {
			name     string
			id, to   wire.ID
			zh, en   string
			fieldMsg string
		}{
			{"itself", root.ID, root.ID, "上级节点不能是自身", "Parent node cannot be the node itself", "上级节点不能是自身"},
			{"its child", root.ID, child.ID, "上级节点不能是其下级", "Parent node cannot be one of the node's own descendants", "上级节点不能是其下级"},
			{"its grandchild", root.ID, grand.ID, "上级节点不能是其下级", "", ""},
			{"a middle row under its child", child.ID, grand.ID, "上级节点不能是其下级", "", ""},
		} {
			v := e.get("a", "node", c.id).Version
			body := map[string]any{"id": c.id, "parentId": c.to, "version": v}
			msg, fields := e.refused(400, "a", "POST", "/blade-test/node/submit", body)
			if msg != c.zh || fields["parentId"] == "" {
				t.Errorf("%s: %q %v, want %q naming parentId", c.name, msg, fields, c.zh)
			}
			if c.en != "" {
				if msg, _ := e.refused(400, "en:a", "POST", "/blade-test/node/submit", body); msg != c.en {
					t.Errorf("%s in English: %q", c.name, msg)
				}
			}
		}
		if got := e.get("a", "node", root.ID); got.ParentID != 0 || got.Version != 1 {
			t.Fatalf("a refused move changed the row: %+v", got)
		}
		// A legal move, and an edit that does not send the parent, pass.
		if a := e.move("a", "node", grand.ID, root.ID); a.Status != 200 {
			t.Fatalf("legal move: %d %s", a.Status, a.Msg)
		}
		v := e.get("a", "node", child.ID).Version
		e.ok("a", "POST", "/blade-test/node/submit", map[string]any{"id": child.ID, "name": "renamed", "version": v}, nil)
		if got := e.get("a", "node", child.ID); got.ParentID != root.ID || got.Name != "renamed" {
			t.Fatalf("rename: %+v", got)
		}
	})
}

func TestTreeParentOfAnotherTenantRefused(t *testing.T) {
	eachTreeDB(t, func(t *testing.T, e *treeEnv) {
		mine := e.add("a", "node", 0, "a-root")
		theirs := e.add("b", "node", 0, "b-root")
		gone := e.add("a", "node", 0, "gone")
		e.ok("a", "POST", fmt.Sprintf("/blade-test/node/remove?ids=%d", gone.ID), nil, nil)
		for name, parent := range map[string]wire.ID{"another tenant's row": theirs.ID, "a removed row": gone.ID, "no row": 12345} {
			msg, fields := e.refused(400, "a", "POST", "/blade-test/node/submit", map[string]any{"parentId": parent, "name": "x"})
			if fields["parentId"] == "" || !strings.Contains(msg, "上级节点") {
				t.Errorf("insert under %s: %q %v", name, msg, fields)
			}
			if a := e.move("a", "node", mine.ID, parent); a.Status != 400 || !strings.Contains(a.Msg, "上级节点") {
				t.Errorf("move under %s: %d %q", name, a.Status, a.Msg)
			}
		}
		// The data scope applies too: a clerk may not hang a row under one it cannot see.
		own := e.add("clerk", "node", 0, "clerk-root")
		if _, fields := e.refused(400, "clerk", "POST", "/blade-test/node/submit", map[string]any{"parentId": mine.ID, "name": "x"}); fields["parentId"] == "" {
			t.Errorf("clerk under a row outside their data scope: %v", fields)
		}
		e.add("clerk", "node", own.ID, "clerk-child")
	})
}

func TestTreeRemoveWithChildren(t *testing.T) {
	eachTreeDB(t, func(t *testing.T, e *treeEnv) {
		root := e.add("a", "node", 0, "root")
		child := e.add("a", "node", root.ID, "child")
		grand := e.add("a", "node", child.ID, "grand")
		other := e.add("a", "node", 0, "other")
		remove := func(ids ...wire.ID) string { return "/blade-test/node/remove?ids=" + wire.JoinIDs(ids) }
		for _, ids := range [][]wire.ID{{root.ID}, {child.ID}, {root.ID, child.ID}, {root.ID, grand.ID}} {
			if msg, _ := e.refused(400, "a", "POST", remove(ids...), nil); msg != "请先删除子节点" {
				t.Errorf("remove %v: %q", ids, msg)
			}
		}
		if msg, _ := e.refused(400, "en:a", "POST", remove(root.ID), nil); msg != "Delete the children first" {
			t.Errorf("english: %q", msg)
		}
		// Another tenant is told the rows are not there, not that they have children.
		if msg, _ := e.refused(404, "b", "POST", remove(root.ID), nil); strings.Contains(msg, "子节点") {
			t.Errorf("tenant B: %q", msg)
		}
		// A child the caller's data scope hides still holds its parent.
		clerkRoot := e.add("clerk", "node", 0, "clerk-root")
		e.add("a", "node", clerkRoot.ID, "admin's child")
		e.refused(400, "clerk", "POST", remove(clerkRoot.ID), nil)
		// A parent goes with its whole subtree; the leaf alone too.
		e.ok("a", "POST", remove(grand.ID, root.ID, child.ID), nil, nil)
		e.ok("a", "POST", remove(other.ID), nil, nil)
		e.refused(404, "a", "GET", fmt.Sprintf("/blade-test/node/detail?id=%d", child.ID), nil)
	})
}

func TestTreeCascadeRemove(t *testing.T) {
	eachTreeDB(t, func(t *testing.T, e *treeEnv) {
		dict := e.add("super", "cascade", 0, "dict")
		item := e.add("super", "cascade", dict.ID, "item")
		sub := e.add("super", "cascade", item.ID, "sub")
		keep := e.add("super", "cascade", 0, "keep")
		e.ok("super", "POST", fmt.Sprintf("/blade-test/cascade/remove?ids=%d", dict.ID), nil, nil)
		for _, id := range []wire.ID{dict.ID, item.ID, sub.ID} {
			e.refused(404, "super", "GET", fmt.Sprintf("/blade-test/cascade/detail?id=%d", id), nil)
		}
		e.get("super", "cascade", keep.ID)
		var all []treeRow
		e.ok("a", "GET", "/blade-test/cascade/list?size=100", nil, &struct{ Records *[]treeRow }{&all})
		if len(all) != 1 || all[0].ID != keep.ID {
			t.Fatalf("after the cascade: %+v", all)
		}
	})
}

func TestTreeAncestorsOnInsertAndMove(t *testing.T) {
	eachTreeDB(t, func(t *testing.T, e *treeEnv) {
		root := e.add("a", "node", 0, "root")
		child := e.add("a", "node", root.ID, "child")
		grand := e.add("a", "node", child.ID, "grand")
		leaf := e.add("a", "node", grand.ID, "leaf")
		x := e.add("a", "node", 0, "x")
		want := map[wire.ID]string{root.ID: "0", child.ID: path(root.ID), grand.ID: path(root.ID, child.ID), leaf.ID: path(root.ID, child.ID, grand.ID)}
		check := func(when string) {
			t.Helper()
			for id, w := range want {
				if got := e.get("a", "node", id).Ancestors; got != w {
					t.Errorf("%s: ancestors of %d %q, want %q", when, id, got, w)
				}
			}
		}
		check("insert")
		if leaf.Ancestors != want[leaf.ID] {
			t.Errorf("the submit answer: %q", leaf.Ancestors)
		}
		// the middle of the branch moves under x: its subtree follows
		if a := e.move("a", "node", child.ID, x.ID); a.Status != 200 {
			t.Fatalf("move: %s", a.Msg)
		}
		want[child.ID], want[grand.ID], want[leaf.ID] = path(x.ID), path(x.ID, child.ID), path(x.ID, child.ID, grand.ID)
		check("move under x")
		// to the root level
		if a := e.move("a", "node", child.ID, 0); a.Status != 200 {
			t.Fatalf("move to the root level: %s", a.Msg)
		}
		want[child.ID], want[grand.ID], want[leaf.ID] = "0", path(child.ID), path(child.ID, grand.ID)
		check("move to the root level")
		// another tenant's tree is not touched by the upkeep
		b := e.add("b", "node", 0, "b")
		if got := e.get("b", "node", b.ID).Ancestors; got != "0" {
			t.Errorf("tenant B's row: %q", got)
		}
	})
}

func TestTreeReadsAreScoped(t *testing.T) {
	eachTreeDB(t, func(t *testing.T, e *treeEnv) {
		root := e.add("a", "node", 0, "root")
		child := e.add("a", "node", root.ID, "child")
		e.add("a", "node", child.ID, "grand")
		clerkRow := e.add("clerk", "node", 0, "clerk's")                     // the clerk may not hang it under the admin's root...
		if a := e.move("a", "node", clerkRow.ID, root.ID); a.Status != 200 { // ...the admin may
			t.Fatalf("move the clerk's row: %s", a.Msg)
		}
		bRoot := e.add("b", "node", 0, "b-root")
		e.add("b", "node", bRoot.ID, "b-child")
		removed := e.add("a", "node", root.ID, "removed")
		e.ok("a", "POST", fmt.Sprintf("/blade-test/node/remove?ids=%d", removed.ID), nil, nil)

		var tree []*TreeNode
		e.ok("a", "GET", "/blade-test/node/tree", nil, &tree)
		if len(tree) != 1 || tree[0].ID != root.ID || !tree[0].HasChildren || len(tree[0].Children) != 2 ||
			tree[0].Children[0].ID != child.ID || tree[0].Children[0].Children[0].Title != "grand" || tree[0].Key != root.ID || tree[0].Value != root.ID {
			t.Fatalf("tenant A's tree: %s", jsonOf(tree))
		}
		e.ok("en:a", "GET", "/blade-test/node/tree", nil, &tree)
		if tree[0].Title != "root-en" {
			t.Errorf("english title: %q", tree[0].Title)
		}
		e.ok("b", "GET", "/blade-test/node/tree", nil, &tree)
		if len(tree) != 1 || tree[0].ID != bRoot.ID || len(tree[0].Children) != 1 {
			t.Fatalf("tenant B's tree: %s", jsonOf(tree))
		}
		// the data scope: a clerk's tree holds their own row only, as a root
		e.ok("clerk", "GET", "/blade-test/node/tree", nil, &tree)
		if len(tree) != 1 || tree[0].ID != clerkRow.ID {
			t.Fatalf("clerk's tree: %s", jsonOf(tree))
		}

		var level []TreeNode
		e.ok("a", "GET", "/blade-test/node/lazy-tree", nil, &level)
		if len(level) != 1 || level[0].ID != root.ID || !level[0].HasChildren {
			t.Fatalf("lazy-tree roots: %s", jsonOf(level))
		}
		e.ok("a", "GET", fmt.Sprintf("/blade-test/node/lazy-tree?parentId=%d", root.ID), nil, &level)
		if len(level) != 2 || level[0].ID != child.ID || !level[0].HasChildren || level[1].ID != clerkRow.ID || level[1].HasChildren || level[0].Children != nil {
			t.Fatalf("lazy-tree under the root: %s", jsonOf(level))
		}
		e.ok("b", "GET", fmt.Sprintf("/blade-test/node/lazy-tree?parentId=%d", root.ID), nil, &level)
		if len(level) != 0 {
			t.Fatalf("tenant B's lazy-tree under A's root: %s", jsonOf(level))
		}
		e.ok("clerk", "GET", "/blade-test/node/lazy-tree?parentId=undefined", nil, &level)
		if len(level) != 0 {
			t.Fatalf("clerk's roots: %s", jsonOf(level))
		}
		e.refused(400, "a", "GET", "/blade-test/node/lazy-tree?parentId=x", nil)
		e.refused(401, "", "GET", "/blade-test/node/tree", nil)
		// no lazy-tree where it is not declared
		if a := e.call("super", "GET", "/blade-test/cascade/lazy-tree", nil); a.Status != 404 && a.Status != 405 {
			t.Errorf("undeclared lazy-tree: %d", a.Status)
		}

		// list and detail name the parent (one the caller may see)
		if got := e.get("a", "node", child.ID); got.ParentName != "root" {
			t.Errorf("detail parentName: %q", got.ParentName)
		}
		var page struct{ Records []treeRow }
		e.ok("clerk", "GET", "/blade-test/node/list", nil, &page)
		if len(page.Records) != 1 || page.Records[0].ParentName != "" {
			t.Errorf("the clerk's list names a parent outside their scope: %+v", page.Records)
		}
	})
}

func TestTreeMeta(t *testing.T) {
	res := New(Spec{Service: "blade-test", Name: "meta", Table: "t", Label: i18n.T("节点", "Node"),
		Tree: &Tree{Parent: "parentId", Label: "name", Lazy: true}}, Hooks[treeRow]{})
	m := res.Meta()
	if m.Tree == nil || *m.Tree != (TreeMeta{ParentField: "parentId", LabelField: "name", Lazy: true}) {
		t.Fatalf("tree meta: %+v", m.Tree)
	}
	if m.Field("parentId").Ref != "blade-test/meta" {
		t.Errorf("the parent is not a reference to the resource itself: %q", m.Field("parentId").Ref)
	}
	b, _ := json.Marshal(m)
	if !strings.Contains(string(b), `"tree":{"parentField":"parentId","labelField":"name","lazy":true}`) {
		t.Errorf("meta JSON: %s", b)
	}
	for name, tree := range map[string]*Tree{
		"unknown parent":      {Parent: "nope", Label: "name"},
		"parent not an id":    {Parent: "name", Label: "name"},
		"no label":            {Parent: "parentId"},
		"writable ancestors":  {Parent: "parentId", Label: "name", Ancestors: "nameEn"},
		"label not text":      {Parent: "parentId", Label: "sort"},
		"parent name stored":  {Parent: "parentId", Label: "name", ParentName: "name"},
		"parent name missing": {Parent: "parentId", Label: "name", ParentName: "nope"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: declared without a panic", name)
				}
			}()
			New(Spec{Service: "blade-test", Name: "bad", Table: "t", Label: i18n.T("节点", "Node"), Tree: tree}, Hooks[treeRow]{})
		}()
	}
}

func TestNestKeepsCycles(t *testing.T) {
	type n struct {
		id, parent int
		kids       []*n
	}
	rows := []n{{id: 1}, {id: 2, parent: 1}, {id: 3, parent: 4}, {id: 4, parent: 3}, {id: 5, parent: 5}, {id: 6, parent: 99}}
	roots := Nest(rows, func(x *n) int { return x.id }, func(x *n) int { return x.parent }, func(p, c *n) { p.kids = append(p.kids, c) })
	var got []string
	for _, r := range roots {
		s := fmt.Sprint(r.id)
		for _, k := range r.kids {
			s += fmt.Sprintf(">%d", k.id)
		}
		got = append(got, s)
	}
	if strings.Join(got, " ") != "1>2 5 6 3>4" {
		t.Fatalf("roots %v", got)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
