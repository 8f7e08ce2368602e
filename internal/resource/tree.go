package resource

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Trees (docs/resource-meta.md, Tree). Rows that hang under one another by a
// parent id declare Spec.Tree once, and the engine keeps the tree sound and
// serves it:
//
//   - save: the parent is a live row the caller may use, of the row's tenant
//     (the declaration makes the parent field ref=self, so ref.go checks it),
//     and neither the row itself nor one of its descendants;
//   - a materialized path column (Ancestors), when declared, is set on insert
//     and rewritten for the row and its whole subtree when it moves, in the
//     save transaction;
//   - remove refuses a row whose live children are not removed with it
//     (请先删除子节点), or, with Cascade, removes them too;
//   - GET tree (nested nodes) and, with Lazy, GET lazy-tree?parentId= (one
//     level with hasChildren), read through the scoped select;
//   - list and detail name each row's parent (ParentName);
//   - the metadata says {parentField, labelField, lazy}.
//
// Hand-written tree endpoints (a menu tree bounded by the tenant's package)
// use the building blocks: TreeNode, Nest, TreeNodes, TreeRows, HasChildren.

// Tree declares that a resource's rows form a tree. Field names are JSON names.
type Tree struct {
	// Parent is the id field holding the parent's id; 0 means a root.
	Parent string
	// Label is the text field a node shows; LabelEn, when set, is shown
	// instead to English readers where it is not empty.
	Label, LabelEn string
	// Ancestors, when set, is a read-only text column holding the ids from the
	// root down to the parent ("0,12,34"), for subtree queries with one LIKE.
	Ancestors string
	// ParentName, when set, is a string field outside the table (bun:"-")
	// that list and detail fill with the parent's Label.
	ParentName string
	// Lazy adds GET lazy-tree?parentId= beside GET tree.
	Lazy bool
	// Cascade makes remove take the rows below with it (a dictionary's
	// entries go with the dictionary) instead of refusing.
	Cascade bool
	// Filter narrows the rows of tree and lazy-tree by the request (a
	// dictionary code), or refuses the request.
	Filter func(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error)
}

// TreeMeta is the tree part of the metadata.
type TreeMeta struct {
	ParentField string `json:"parentField"`
	LabelField  string `json:"labelField"`
	Lazy        bool   `json:"lazy"`
}

// TreeNode is a node of every select tree (api-contract.md §4).
type TreeNode struct {
	ID          wire.ID     `json:"id"`
	ParentID    wire.ID     `json:"parentId"`
	Title       string      `json:"title"`
	Value       wire.ID     `json:"value"`
	Key         wire.ID     `json:"key"`
	HasChildren bool        `json:"hasChildren"`
	Children    []*TreeNode `json:"children,omitempty"`
}

// maxTreeRows bounds the rows one tree request reads. A tree cut short would
// show its orphans as roots, so a larger one is refused, not truncated.
const maxTreeRows = 10000

// maxTreeDepth bounds the walk from a row up to its root.
const maxTreeDepth = 1000

var (
	// ErrDeleteChildren refuses removing a row whose children would stay.
	ErrDeleteChildren = &httpx.Error{Status: 400, Msg: i18n.T("请先删除子节点", "Delete the children first")}
	errTreeTooLarge   = &httpx.Error{Status: 400, Msg: i18n.T("数据超过%d条,无法一次显示为树,请筛选或逐级加载",
		"More than %d rows: too many for one tree; filter them or load the tree level by level").Format(maxTreeRows)}
	msgTreeSelf = func(parent *Field, row i18n.Text) i18n.Text {
		return i18n.T(parent.Label.Zh+"不能是自身", parent.Label.En+" cannot be the "+strings.ToLower(row.En)+" itself")
	}
	msgTreeBelow = func(parent *Field, row i18n.Text) i18n.Text {
		return i18n.T(parent.Label.Zh+"不能是其下级", parent.Label.En+" cannot be one of the "+strings.ToLower(row.En)+"'s own descendants")
	}
)

// bind checks the declaration against the fields and turns on the parent's
// reference check; it returns the metadata.
func (t *Tree) bind(spec *Spec, m *Meta) (*TreeMeta, error) {
	if t == nil {
		return nil, nil
	}
	parent := m.byName[t.Parent]
	if parent == nil || parent.ValueType != ValueID || parent.Multi {
		return nil, fmt.Errorf("tree: parent %q must be a declared id field", t.Parent)
	}
	switch parent.Ref {
	case "":
		parent.Ref = spec.Key()
	case spec.Key():
	default:
		return nil, fmt.Errorf("tree: parent %q references %s, not the resource itself", t.Parent, parent.Ref)
	}
	for _, name := range []string{t.Label, t.LabelEn, t.Ancestors} {
		if f := m.byName[name]; name != "" && (f == nil || f.ValueType != ValueString) {
			return nil, fmt.Errorf("tree: %q must be a declared text field", name)
		}
	}
	if t.Label == "" {
		return nil, errors.New("tree: a Label field is required")
	}
	if t.Ancestors != "" && !m.byName[t.Ancestors].Readonly {
		// a client must not be able to write a forged path
		return nil, fmt.Errorf("tree: ancestors %q must be read-only (ro)", t.Ancestors)
	}
	return &TreeMeta{ParentField: t.Parent, LabelField: t.Label, Lazy: t.Lazy}, nil
}

// initTree puts the parent names in front of the resource's Enrich.
func (r *Resource[T]) initTree() {
	t := r.spec.Tree
	if t == nil || t.ParentName == "" {
		return
	}
	var index []int
	for _, sf := range reflect.VisibleFields(reflect.TypeFor[T]()) {
		if strings.Split(sf.Tag.Get("json"), ",")[0] == t.ParentName && sf.Type.Kind() == reflect.String && sf.Tag.Get("bun") == "-" {
			index = sf.Index
		}
	}
	if index == nil {
		panic(fmt.Sprintf("resource %s: tree parent name %q must be a string field with bun:\"-\"", r.spec.Key(), t.ParentName))
	}
	next := r.hooks.Enrich
	r.hooks.Enrich = func(ctx context.Context, idb bun.IDB, rows []T) error {
		if err := r.nameParents(ctx, idb, rows, index); err != nil {
			return err
		}
		if next != nil {
			return next(ctx, idb, rows)
		}
		return nil
	}
}

// Enrich fills the computed fields of rows read by hand-written code, as
// list and detail do (parent names, then the resource's Enrich hook).
func (r *Resource[T]) Enrich(ctx context.Context, idb bun.IDB, rows []T) error {
	if r.hooks.Enrich == nil || len(rows) == 0 {
		return nil
	}
	return r.hooks.Enrich(ctx, idb, rows)
}

func (r *Resource[T]) parentField() *Field { return r.meta.byName[r.spec.Tree.Parent] }

// parentOf reads the parent id of a row.
func (r *Resource[T]) parentOf(row *T) wire.ID {
	return reflect.ValueOf(row).Elem().FieldByIndex(r.parentField().index).Interface().(wire.ID)
}

// nameParents fills the parent-name field of rows with their parents' labels,
// read through the scoped select: a parent the caller may not see stays unnamed.
func (r *Resource[T]) nameParents(ctx context.Context, idb bun.IDB, rows []T, index []int) error {
	var ids []wire.ID
	for i := range rows {
		if p := r.parentOf(&rows[i]); p != 0 && !slices.Contains(ids, p) {
			ids = append(ids, p)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var parents []struct {
		ID    wire.ID `bun:"id"`
		Label string  `bun:"label"`
	}
	q, err := r.Select(ctx, idb, (*T)(nil))
	if err != nil {
		return err
	}
	label := r.meta.byName[r.spec.Tree.Label].Column
	if err := q.ColumnExpr("id, ? AS label", bun.Ident(label)).Where("id IN (?)", bun.In(ids)).Scan(ctx, &parents); err != nil {
		return err
	}
	names := make(map[wire.ID]string, len(parents))
	for _, p := range parents {
		names[p.ID] = p.Label
	}
	for i := range rows {
		reflect.ValueOf(&rows[i]).Elem().FieldByIndex(index).SetString(names[r.parentOf(&rows[i])])
	}
	return nil
}

// ---------------------------------------------------------------------------
// Save and remove.

// saveTree checks a new or moved row's place in the tree and keeps the
// ancestors column right; it runs in the save transaction after the
// reference check, which has found the parent a live row the caller may use
// in the row's tenant. cur is the stored row of an update.
func (r *Resource[T]) saveTree(ctx context.Context, idb bun.IDB, row, cur *T, present map[string]bool, isNew bool) error {
	t := r.spec.Tree
	if t == nil {
		return nil
	}
	pf := r.parentField()
	parentID := r.parentOf(row)
	b := any(row).(hasBase).base()
	if !isNew {
		if !present[t.Parent] || parentID == r.parentOf(cur) {
			return nil // it stays where it is
		}
		if parentID == b.ID {
			return fieldError(ctx, pf, msgTreeSelf(pf, r.spec.Label))
		}
	} else if t.Ancestors == "" {
		return nil
	}
	path, err := r.pathTo(ctx, idb, b.TenantID, parentID)
	if err != nil {
		return err
	}
	if !isNew && slices.Contains(path, b.ID) {
		return fieldError(ctx, pf, msgTreeBelow(pf, r.spec.Label))
	}
	if t.Ancestors == "" {
		return nil
	}
	ancestors := "0"
	for _, id := range path {
		ancestors += "," + id.String()
	}
	af := r.meta.byName[t.Ancestors]
	reflect.ValueOf(row).Elem().FieldByIndex(af.index).SetString(ancestors)
	if isNew {
		return nil // the insert writes it
	}
	return r.rewriteAncestors(ctx, idb, b.TenantID, b.ID, ancestors)
}

// tenantRows starts a statement over the live rows of the tenant (all of
// them for a Global resource). The tree's upkeep sees every row of the
// tenant, whatever the caller's data scope hides: a path or a guard that
// skipped hidden rows would be wrong for everybody.
func (r *Resource[T]) tenantRows(q bun.QueryBuilder, tenantID string) bun.QueryBuilder {
	q = q.Where("is_deleted = 0")
	if r.spec.Scope != Global {
		q = q.Where("tenant_id = ?", tenantID)
	}
	return q
}

// pathTo walks up from id (a live row of the tenant) and returns the ids
// from its root-level ancestor down to id itself; none for 0. parent_id is
// the truth here, not a stored path that bad data may have left stale.
func (r *Resource[T]) pathTo(ctx context.Context, idb bun.IDB, tenantID string, id wire.ID) ([]wire.ID, error) {
	col := bun.Ident(r.parentField().Column)
	var up []wire.ID
	for seen := map[wire.ID]bool{}; id != 0 && !seen[id] && len(up) < maxTreeDepth; {
		seen[id] = true
		up = append(up, id)
		var parent []wire.ID
		q := idb.NewSelect().Table(r.spec.Table).ColumnExpr("?", col).Where("id = ?", id)
		if err := r.tenantRows(q.QueryBuilder(), tenantID).Unwrap().(*bun.SelectQuery).Limit(1).Scan(ctx, &parent); err != nil {
			return nil, err
		}
		if len(parent) == 0 {
			break
		}
		id = parent[0]
	}
	slices.Reverse(up)
	return up, nil
}

// rewriteAncestors stores the ancestors of a moved row and of every row
// below it, level by level down parent_id: one update per row that has
// children, since siblings share their ancestors.
func (r *Resource[T]) rewriteAncestors(ctx context.Context, idb bun.IDB, tenantID string, id wire.ID, ancestors string) error {
	col := bun.Ident(r.meta.byName[r.spec.Tree.Ancestors].Column)
	parentCol := bun.Ident(r.parentField().Column)
	// the engine's update never writes a read-only column
	if _, err := idb.NewUpdate().Table(r.spec.Table).Set("? = ?", col, ancestors).Where("id = ?", id).Exec(ctx); err != nil {
		return err
	}
	level := map[wire.ID]string{id: ancestors} // a row of the level → its ancestors
	seen := map[wire.ID]bool{id: true}
	for len(level) > 0 {
		next := map[wire.ID]string{}
		for chunk := range slices.Chunk(mapKeys(level), 1000) {
			var kids []struct {
				ID     wire.ID `bun:"id"`
				Parent wire.ID `bun:"parent"`
			}
			q := idb.NewSelect().Table(r.spec.Table).ColumnExpr("id, ? AS parent", parentCol).Where("? IN (?)", parentCol, bun.In(chunk))
			if err := r.tenantRows(q.QueryBuilder(), tenantID).Unwrap().(*bun.SelectQuery).Scan(ctx, &kids); err != nil {
				return err
			}
			written := map[wire.ID]bool{}
			for _, k := range kids {
				below := level[k.Parent] + "," + k.Parent.String()
				if !written[k.Parent] {
					written[k.Parent] = true
					u := idb.NewUpdate().Table(r.spec.Table).Set("? = ?", col, below).Where("? = ?", parentCol, k.Parent)
					if _, err := r.tenantRows(u.QueryBuilder(), tenantID).Unwrap().(*bun.UpdateQuery).Exec(ctx); err != nil {
						return err
					}
				}
				if !seen[k.ID] { // a cycle left by bad data: do not loop
					seen[k.ID] = true
					next[k.ID] = below
				}
			}
		}
		level = next
	}
	return nil
}

func mapKeys[K comparable, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// removeTree runs first in the remove transaction: it refuses ids whose live
// children are not removed with them, or with Cascade removes those
// children's whole subtrees. Only the ids the caller can see count: the
// others are not removed, and a refusal must not tell that they have children.
func (r *Resource[T]) removeTree(ctx context.Context, idb bun.IDB, ids []wire.ID) error {
	t := r.spec.Tree
	if t == nil || len(ids) == 0 {
		return nil
	}
	var visible []wire.ID
	q, err := r.Select(ctx, idb, (*T)(nil))
	if err != nil {
		return err
	}
	if err := q.Column("id").Where("id IN (?)", bun.In(ids)).Scan(ctx, &visible); err != nil || len(visible) == 0 {
		return err // none visible: the remove answers 404
	}
	parentCol := bun.Ident(r.parentField().Column)
	// Children are counted whatever the caller's data scope: one it cannot
	// see still may not be left without its parent.
	taken := map[wire.ID]bool{}
	for _, id := range visible {
		taken[id] = true
	}
	childrenOf := func(parents []wire.ID) ([]wire.ID, error) {
		var out []wire.ID
		for chunk := range slices.Chunk(parents, 1000) {
			var part []wire.ID
			if err := idb.NewSelect().Table(r.spec.Table).Column("id").
				Where("is_deleted = 0 AND ? IN (?)", parentCol, bun.In(chunk)).Scan(ctx, &part); err != nil {
				return nil, err
			}
			for _, id := range part {
				if !taken[id] {
					taken[id] = true
					out = append(out, id)
				}
			}
		}
		return out, nil
	}
	level, err := childrenOf(visible)
	if err != nil || len(level) == 0 {
		return err
	}
	if !t.Cascade {
		return ErrDeleteChildren
	}
	var subtree []wire.ID
	for len(level) > 0 {
		subtree = append(subtree, level...)
		if level, err = childrenOf(level); err != nil {
			return err
		}
	}
	n, err := r.Remove(ctx, idb, subtree)
	if err != nil {
		return err
	}
	if int(n) != len(subtree) {
		return ErrDeleteChildren // some of them are hidden from the caller: theirs to remove first
	}
	return nil
}

// ---------------------------------------------------------------------------
// Reading trees.

// mountTree adds GET tree and, when lazy, GET lazy-tree.
func (r *Resource[T]) mountTree(router chi.Router, read func(httpx.HandlerFunc) httpx.HandlerFunc) {
	if r.spec.Tree == nil {
		return
	}
	router.Get(r.spec.Path()+"/tree", httpx.Handle(read(r.handler("tree", r.handleTree))))
	if r.spec.Tree.Lazy {
		router.Get(r.spec.Path()+"/lazy-tree", httpx.Handle(read(r.handler("lazy-tree", r.handleLazyTree))))
	}
}

func (r *Resource[T]) handleTree(req *http.Request) (any, error) {
	nodes, err := r.TreeNodes(req, nil)
	if err != nil {
		return nil, err
	}
	return NestNodes(nodes), nil
}

func (r *Resource[T]) handleLazyTree(req *http.Request) (any, error) {
	parentID, err := OptionalID(req, "parentId")
	if err != nil {
		return nil, err
	}
	nodes, err := r.TreeNodes(req, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("? = ?", bun.Ident(r.parentField().Column), parentID)
	})
	if err != nil {
		return nil, err
	}
	ids := make([]wire.ID, len(nodes))
	for i := range nodes {
		ids[i] = nodes[i].ID
	}
	has, err := r.HasChildren(req.Context(), r.env.DB, ids)
	if err != nil {
		return nil, err
	}
	for i := range nodes {
		nodes[i].HasChildren = has[nodes[i].ID]
	}
	return nodes, nil
}

// OptionalID reads an id parameter that may be absent (0); select widgets
// send "undefined" or "null" for none.
func OptionalID(r *http.Request, name string) (wire.ID, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" || v == "undefined" || v == "null" {
		return 0, nil
	}
	id, err := wire.ParseID(v)
	if err != nil {
		return 0, httpx.InvalidParam(name)
	}
	return id, nil
}

// treeSelect starts the scoped select of a tree request: one tenant's rows
// (the caller's, or for the super user of a TenantAdmin resource the
// tenantId asked for; a select tree of several tenants would mix them),
// narrowed by the declaration's Filter.
func (r *Resource[T]) treeSelect(req *http.Request, model any) (*bun.SelectQuery, error) {
	ctx := req.Context()
	q, err := r.Select(ctx, r.env.DB, model)
	if err != nil {
		return nil, err
	}
	if p := authz.From(ctx); r.spec.Scope == TenantAdmin {
		tenantID := p.TenantID
		if asked := strings.TrimSpace(req.URL.Query().Get("tenantId")); asked != "" && p.IsSuper() {
			tenantID = asked
		}
		q = q.Where("tenant_id = ?", tenantID)
	}
	if f := r.spec.Tree.Filter; f != nil {
		return f(req, q)
	}
	return q, nil
}

// TreeNodes reads the nodes of the request's tree, flat and in the
// resource's order; where, when given, narrows them further.
func (r *Resource[T]) TreeNodes(req *http.Request, where func(*bun.SelectQuery) *bun.SelectQuery) ([]TreeNode, error) {
	t := r.spec.Tree
	var rows []T
	q, err := r.treeSelect(req, &rows)
	if err != nil {
		return nil, err
	}
	cols := []string{"id", r.parentField().Column, r.meta.byName[t.Label].Column}
	if t.LabelEn != "" {
		cols = append(cols, r.meta.byName[t.LabelEn].Column)
	}
	if where != nil {
		q = where(q)
	}
	if err := q.Column(cols...).OrderExpr(r.order).Limit(maxTreeRows + 1).Scan(req.Context()); err != nil {
		return nil, err
	}
	if len(rows) > maxTreeRows {
		return nil, errTreeTooLarge
	}
	english := i18n.FromRequest(req) == i18n.En
	label := r.meta.byName[t.Label].index
	nodes := make([]TreeNode, len(rows))
	for i := range rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		title := v.FieldByIndex(label).String()
		if english && t.LabelEn != "" {
			title = cmp.Or(v.FieldByIndex(r.meta.byName[t.LabelEn].index).String(), title)
		}
		id := any(&rows[i]).(hasBase).base().ID
		nodes[i] = TreeNode{ID: id, ParentID: r.parentOf(&rows[i]), Title: title, Value: id, Key: id}
	}
	return nodes, nil
}

// TreeRows reads the rows a list answered as a tree shows: every row that
// the request's declared filters select, sorted as asked (the resource's
// order otherwise), through the scoped select, bounded like tree. extra adds
// conditions and sees the parsed query. Enrich is the caller's to run.
func (r *Resource[T]) TreeRows(req *http.Request, extra func(q *bun.SelectQuery, query *Query) (*bun.SelectQuery, error)) ([]T, error) {
	query, err := r.meta.ParseQuery(req.URL.Query())
	if err != nil {
		return nil, err
	}
	rows := []T{}
	q, err := r.Select(req.Context(), r.env.DB, &rows)
	if err != nil {
		return nil, err
	}
	q = query.Apply(q, "")
	if extra != nil {
		if q, err = extra(q, query); err != nil {
			return nil, err
		}
	}
	if len(query.Order) == 0 {
		q = q.OrderExpr(r.order)
	}
	if err := q.Limit(maxTreeRows + 1).Scan(req.Context()); err != nil {
		return nil, err
	}
	if len(rows) > maxTreeRows {
		return nil, errTreeTooLarge
	}
	return rows, nil
}

// HasChildren tells which of ids have live children the caller may see.
func (r *Resource[T]) HasChildren(ctx context.Context, idb bun.IDB, ids []wire.ID) (map[wire.ID]bool, error) {
	out := make(map[wire.ID]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	col := bun.Ident(r.parentField().Column)
	for chunk := range slices.Chunk(ids, 1000) {
		var parents []wire.ID
		q, err := r.Select(ctx, idb, (*T)(nil))
		if err != nil {
			return nil, err
		}
		if err := q.ColumnExpr("?", col).Distinct().Where("? IN (?)", col, bun.In(chunk)).Scan(ctx, &parents); err != nil {
			return nil, err
		}
		for _, p := range parents {
			out[p] = true
		}
	}
	return out, nil
}

// Nest links rows under their parents and returns the roots: the rows whose
// parent is not among them. adopt adds a child to its parent; children come
// in the order of rows. Rows of a cycle left in stored data, which no root
// reaches, become roots too rather than vanish.
func Nest[T any, K comparable](rows []T, key, parent func(*T) K, adopt func(parent, child *T)) []*T {
	at := make(map[K]int, len(rows))
	for i := range rows {
		at[key(&rows[i])] = i
	}
	kids := map[int][]int{}
	var roots []int
	for i := range rows {
		if p, ok := at[parent(&rows[i])]; ok && p != i {
			kids[p] = append(kids[p], i)
		} else {
			roots = append(roots, i)
		}
	}
	placed := make([]bool, len(rows))
	var place func(i int)
	place = func(i int) {
		placed[i] = true
		for _, k := range kids[i] {
			if !placed[k] {
				adopt(&rows[i], &rows[k])
				place(k)
			}
		}
	}
	out := make([]*T, 0, len(roots))
	for _, i := range roots {
		place(i)
		out = append(out, &rows[i])
	}
	for i := range rows {
		if !placed[i] {
			place(i)
			out = append(out, &rows[i])
		}
	}
	return out
}

// NestNodes nests select-tree nodes, marking the parents.
func NestNodes(nodes []TreeNode) []*TreeNode {
	return Nest(nodes, func(n *TreeNode) wire.ID { return n.ID }, func(n *TreeNode) wire.ID { return n.ParentID },
		func(p, c *TreeNode) { p.Children, p.HasChildren = append(p.Children, c), true })
}

// WithoutSubtree takes the node id, and so everything below it, out of a
// nested tree: what is left are the choices for that row's new parent.
func WithoutSubtree(roots []*TreeNode, id wire.ID) []*TreeNode {
	out := make([]*TreeNode, 0, len(roots))
	for _, n := range roots {
		if n.ID == id {
			continue
		}
		n.Children = WithoutSubtree(n.Children, id)
		n.HasChildren = len(n.Children) > 0
		out = append(out, n)
	}
	return out
}
