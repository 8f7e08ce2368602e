package system

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Departments (blade_dept) are a tree per tenant, kept in two forms:
// parent_id, the truth, and ancestors ("0,12,34": the ids from the root
// down to the parent), which lets a data scope find a whole subtree with one
// LIKE. Submit keeps ancestors right, for the department and, when it moves,
// for everything below it, in the submit transaction.

var (
	msgDeptParentMissing = i18n.T("上级机构不存在", "The parent department does not exist")
	msgDeptCycle         = i18n.T("不能将机构移到自身或其下级机构之下", "A department cannot be moved under itself or one of its sub-departments")
	msgDeptHasChildren   = i18n.T("请先删除子节点", "Delete the sub-departments first")
	msgDeptHasUsers      = i18n.T("请先删除或调离该机构下的用户", "Remove or move the department's users first")
)

// deptParentUnchanged marks, between Validate and the save hooks, an update
// whose body did not carry parentId: the department stays where it is. (The
// engine writes only the keys present in the body, so the marker never reaches
// the database.)
const deptParentUnchanged wire.ID = -1

// maxDepts bounds the rows one tree request reads.
const maxDepts = 10000

func (s *Service) declareDept() *resource.Resource[Dept] {
	return resource.New(resource.Spec{
		Service: "blade-system", Name: "dept", Table: "blade_dept", Label: i18n.T("部门", "Department"),
		MenuCode: "dept", Scope: resource.TenantAdmin, Write: resource.Admin, DefaultOrder: "sort ASC, id ASC",
		// list is the tree below (mountDept), not the engine's flat page.
		Routes: []string{"list", "detail", "submit", "remove"},
	}, resource.Hooks[Dept]{
		Validate: func(ctx context.Context, d *Dept, present map[string]bool, isNew bool) error {
			if !isNew && !present["parentId"] {
				d.ParentID = deptParentUnchanged
				return nil
			}
			if !isNew && d.ParentID == d.ID {
				return httpx.BadRequest(msgDeptCycle)
			}
			return nil
		},
		BeforeSave:   s.deptBeforeSave,
		AfterSave:    deptAfterSave,
		BeforeRemove: deptBeforeRemove,
		Enrich:       s.enrichDepts,
	})
}

// deptLink is the part of a department the tree maintenance reads.
type deptLink struct {
	ID        wire.ID `bun:"id"`
	ParentID  wire.ID `bun:"parent_id"`
	Ancestors string  `bun:"ancestors"`
}

// tenantDeptLinks loads every live department of a tenant by id.
func tenantDeptLinks(ctx context.Context, idb bun.IDB, tenantID string) (map[wire.ID]*deptLink, error) {
	var rows []*deptLink
	if err := idb.NewSelect().Table("blade_dept").Column("id", "parent_id", "ancestors").
		Where("tenant_id = ? AND is_deleted = 0", tenantID).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := make(map[wire.ID]*deptLink, len(rows))
	for _, r := range rows {
		out[r.ID] = r
	}
	return out, nil
}

// deptBeforeSave checks the parent (live, same tenant, not inside the
// department itself) and sets ancestors. The tenant is already settled.
func (s *Service) deptBeforeSave(ctx context.Context, tx bun.Tx, d *Dept, isNew bool) error {
	if isNew {
		// the super user may name another tenant; it must exist
		if t, err := s.TenantIn(ctx, tx, d.TenantID); err != nil {
			return err
		} else if t == nil {
			return httpx.Badf("租户不存在", "No such tenant")
		}
	}
	if !isNew && d.ParentID == deptParentUnchanged {
		return nil
	}
	if d.ParentID < 0 {
		return httpx.BadRequest(msgDeptParentMissing)
	}
	if d.ParentID == 0 {
		d.Ancestors = "0"
		return nil
	}
	links, err := tenantDeptLinks(ctx, tx, d.TenantID)
	if err != nil {
		return err
	}
	parent, ok := links[d.ParentID]
	if !ok {
		return httpx.BadRequest(msgDeptParentMissing)
	}
	if !isNew {
		// Walk up from the new parent: meeting the department itself is a cycle.
		seen := map[wire.ID]bool{}
		for cur := parent; cur != nil && !seen[cur.ID]; cur = links[cur.ParentID] {
			if cur.ID == d.ID {
				return httpx.BadRequest(msgDeptCycle)
			}
			seen[cur.ID] = true
		}
	}
	d.Ancestors = joinAncestors(parent.Ancestors, parent.ID)
	return nil
}

func joinAncestors(parentAncestors string, parentID wire.ID) string {
	if parentAncestors == "" {
		parentAncestors = "0"
	}
	return parentAncestors + "," + parentID.String()
}

// deptAfterSave stores the ancestors of an updated department (the engine
// never writes that read-only column on update) and rewrites the ancestors
// of every department below it, following parent_id.
func deptAfterSave(ctx context.Context, tx bun.Tx, d *Dept, isNew bool) error {
	if isNew || d.ParentID == deptParentUnchanged {
		return nil
	}
	if _, err := tx.NewUpdate().Table("blade_dept").Set("ancestors = ?", d.Ancestors).Where("id = ?", d.ID).Exec(ctx); err != nil {
		return err
	}
	links, err := tenantDeptLinks(ctx, tx, d.TenantID)
	if err != nil {
		return err
	}
	children := map[wire.ID][]*deptLink{}
	for _, l := range links {
		children[l.ParentID] = append(children[l.ParentID], l)
	}
	type item struct {
		id        wire.ID
		ancestors string
	}
	queue := []item{{d.ID, d.Ancestors}}
	seen := map[wire.ID]bool{d.ID: true}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		want := joinAncestors(cur.ancestors, cur.id)
		for _, c := range children[cur.id] {
			if seen[c.ID] {
				continue // a cycle left by bad data; do not loop
			}
			seen[c.ID] = true
			if c.Ancestors != want {
				if _, err := tx.NewUpdate().Table("blade_dept").Set("ancestors = ?", want).Where("id = ?", c.ID).Exec(ctx); err != nil {
					return err
				}
			}
			queue = append(queue, item{c.ID, want})
		}
	}
	return nil
}

// deptBeforeRemove refuses while a department has live sub-departments
// (other than ones removed in the same call) or users.
func deptBeforeRemove(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
	n, err := tx.NewSelect().Table("blade_dept").
		Where("is_deleted = 0 AND parent_id IN (?) AND id NOT IN (?)", bun.In(ids), bun.In(ids)).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return httpx.BadRequest(msgDeptHasChildren)
	}
	// blade_user.dept_id is a comma list of department ids.
	conds := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		conds[i], args[i] = "(',' || dept_id || ',') LIKE ?", "%,"+id.String()+",%"
	}
	n, err = tx.NewSelect().Table("blade_user").Where("is_deleted = 0").
		Where("("+strings.Join(conds, " OR ")+")", args...).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return httpx.BadRequest(msgDeptHasUsers)
	}
	return nil
}

// enrichDepts fills parentName, and tenantName for the super user.
func (s *Service) enrichDepts(ctx context.Context, idb bun.IDB, rows []Dept) error {
	ptrs := make([]*Dept, len(rows))
	for i := range rows {
		ptrs[i] = &rows[i]
	}
	return s.labelDepts(ctx, idb, ptrs)
}

func (s *Service) labelDepts(ctx context.Context, idb bun.IDB, rows []*Dept) error {
	var parentIDs []wire.ID
	for _, d := range rows {
		if d.ParentID > 0 {
			parentIDs = append(parentIDs, d.ParentID)
		}
	}
	names := map[wire.ID]string{}
	if len(parentIDs) > 0 {
		var ps []struct {
			ID   wire.ID `bun:"id"`
			Name string  `bun:"dept_name"`
		}
		if err := idb.NewSelect().Table("blade_dept").Column("id", "dept_name").
			Where("id IN (?) AND is_deleted = 0", bun.In(dedupe(parentIDs))).Scan(ctx, &ps); err != nil {
			return err
		}
		for _, p := range ps {
			names[p.ID] = p.Name
		}
	}
	super := authz.From(ctx).IsSuper()
	for _, d := range rows {
		d.ParentName = names[d.ParentID]
		if super {
			if t, _ := s.Tenant(ctx, d.TenantID); t != nil {
				d.TenantName = t.Name
			}
		}
	}
	return nil
}

// markDeptChildren sets hasChildren from the live sub-departments.
func markDeptChildren(ctx context.Context, idb bun.IDB, ids []wire.ID, set func(id wire.ID)) error {
	if len(ids) == 0 {
		return nil
	}
	var parents []wire.ID
	if err := idb.NewSelect().Table("blade_dept").Column("parent_id").
		Where("is_deleted = 0 AND parent_id IN (?)", bun.In(ids)).Group("parent_id").Scan(ctx, &parents); err != nil {
		return err
	}
	for _, p := range parents {
		set(p)
	}
	return nil
}

func (s *Service) mountDept(r chi.Router, env *resource.Env) {
	res := s.res.Dept
	base := res.Spec().Path()
	res.Mount(resource.Except{Router: r, Skip: map[string]bool{"GET " + base + "/list": true}}, env)
	read := resource.Guard(resource.AnyUser)
	r.Get(base+"/list", httpx.Handle(read(s.handleDeptList)))
	r.Get(base+"/lazy-list", httpx.Handle(read(s.handleDeptLazyList)))
	r.Get(base+"/tree", httpx.Handle(read(s.handleDeptTree)))
	r.Get(base+"/lazy-tree", httpx.Handle(read(s.handleDeptLazyTree)))
	s.mountPost(r, env)
}

// handleDeptList is the tree of the caller's departments (every tenant's for
// the super user, who may narrow it with tenantId). With filters (deptName,
// fullName, ...) it holds the matches; a match whose parent did not match
// becomes a root.
func (s *Service) handleDeptList(r *http.Request) (any, error) {
	res := s.res.Dept
	q, err := res.Meta().ParseQuery(r.URL.Query())
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	var rows []*Dept
	sq, err := res.Select(ctx, s.DB, &rows)
	if err != nil {
		return nil, err
	}
	sq = q.Apply(sq, "")
	if len(q.Order) == 0 {
		sq = sq.OrderExpr("sort ASC, id ASC")
	}
	if err := sq.Limit(maxDepts).Scan(ctx); err != nil {
		return nil, err
	}
	if err := s.labelDepts(ctx, s.DB, rows); err != nil {
		return nil, err
	}
	byID := make(map[wire.ID]*Dept, len(rows))
	for _, d := range rows {
		byID[d.ID] = d
	}
	roots := []*Dept{}
	for _, d := range rows {
		if p, ok := byID[d.ParentID]; ok && d.ParentID != d.ID {
			p.Children = append(p.Children, d)
			p.HasChildren = true
		} else {
			roots = append(roots, d)
		}
	}
	return roots, nil
}

// handleDeptLazyList is one level of the tree (parentId, default 0 = the
// roots) with hasChildren. A search (deptName, fullName, ...) without
// parentId looks at every level, as BladeX does.
func (s *Service) handleDeptLazyList(r *http.Request) (any, error) {
	res := s.res.Dept
	q, err := res.Meta().ParseQuery(r.URL.Query())
	if err != nil {
		return nil, err
	}
	hasParent, searching := false, false
	for _, c := range q.Conds {
		switch c.Field.Name {
		case "parentId":
			hasParent = true
		case "tenantId":
		default:
			searching = true
		}
	}
	ctx := r.Context()
	rows := []*Dept{}
	sq, err := res.Select(ctx, s.DB, &rows)
	if err != nil {
		return nil, err
	}
	sq = q.Apply(sq, "")
	if !hasParent && !searching {
		sq = sq.Where("parent_id = 0")
	}
	if len(q.Order) == 0 {
		sq = sq.OrderExpr("sort ASC, id ASC")
	}
	if err := sq.Limit(maxDepts).Scan(ctx); err != nil {
		return nil, err
	}
	if err := s.labelDepts(ctx, s.DB, rows); err != nil {
		return nil, err
	}
	byID := make(map[wire.ID]*Dept, len(rows))
	ids := make([]wire.ID, len(rows))
	for i, d := range rows {
		byID[d.ID], ids[i] = d, d.ID
	}
	if err := markDeptChildren(ctx, s.DB, ids, func(id wire.ID) { byID[id].HasChildren = true }); err != nil {
		return nil, err
	}
	return rows, nil
}

// treeTenant is the tenant a select tree is drawn for: the super user may
// name one with tenantId; everyone else gets their own.
func treeTenant(r *http.Request) string {
	p := authz.From(r.Context())
	if t := strings.TrimSpace(r.URL.Query().Get("tenantId")); t != "" && p.IsSuper() {
		return t
	}
	return p.TenantID
}

// deptNodes reads departments of the tree tenant as select-tree nodes.
func (s *Service) deptNodes(r *http.Request, where func(*bun.SelectQuery) *bun.SelectQuery) ([]*TreeNode, error) {
	ctx := r.Context()
	var rows []Dept
	sq, err := s.res.Dept.Select(ctx, s.DB, &rows)
	if err != nil {
		return nil, err
	}
	sq = where(sq.Where("tenant_id = ?", treeTenant(r)))
	if err := sq.OrderExpr("sort ASC, id ASC").Limit(maxDepts).Scan(ctx); err != nil {
		return nil, err
	}
	nodes := make([]*TreeNode, len(rows))
	for i, d := range rows {
		nodes[i] = &TreeNode{ID: d.ID, ParentID: d.ParentID, Title: d.DeptName, Value: d.ID, Key: d.ID}
	}
	return nodes, nil
}

// handleDeptTree is the whole select tree of a tenant's departments.
func (s *Service) handleDeptTree(r *http.Request) (any, error) {
	nodes, err := s.deptNodes(r, func(q *bun.SelectQuery) *bun.SelectQuery { return q })
	if err != nil {
		return nil, err
	}
	return buildTree(nodes), nil
}

// handleDeptLazyTree is one level of the select tree (parentId, default 0).
func (s *Service) handleDeptLazyTree(r *http.Request) (any, error) {
	parentID, err := wire.ParseID(r.URL.Query().Get("parentId"))
	if err != nil {
		return nil, httpx.InvalidParam("parentId")
	}
	nodes, err := s.deptNodes(r, func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("parent_id = ?", parentID) })
	if err != nil {
		return nil, err
	}
	byID := make(map[wire.ID]*TreeNode, len(nodes))
	ids := make([]wire.ID, len(nodes))
	for i, n := range nodes {
		byID[n.ID], ids[i] = n, n.ID
	}
	if err := markDeptChildren(r.Context(), s.DB, ids, func(id wire.ID) { byID[id].HasChildren = true }); err != nil {
		return nil, err
	}
	return nodes, nil
}
