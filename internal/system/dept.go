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
// LIKE. The engine's tree (resource.Tree) keeps both right, refuses cycles
// and sub-departments left behind, and serves tree and lazy-tree; the
// business left here is the user check on remove and the BladeX list shapes.

var msgDeptHasUsers = i18n.T("请先删除或调离该机构下的用户", "Remove or move the department's users first")

func (s *Service) declareDept() *resource.Resource[Dept] {
	return resource.New(resource.Spec{
		Service: "blade-system", Name: "dept", Table: "blade_dept", Label: i18n.T("部门", "Department"),
		MenuCode: "dept", Scope: resource.TenantAdmin, Write: resource.Admin, DefaultOrder: "sort ASC, id ASC",
		// list is the nested tree of handleDeptList, not the engine's flat page.
		Routes: []string{"list", "detail", "submit", "remove"},
		Tree:   &resource.Tree{Parent: "parentId", Label: "deptName", Ancestors: "ancestors", ParentName: "parentName", Lazy: true},
	}, resource.Hooks[Dept]{
		BeforeRemove: deptBeforeRemove,
		Enrich:       s.nameDeptTenants,
		Routes:       map[string]httpx.HandlerFunc{"list": s.handleDeptList},
	})
}

// deptBeforeRemove refuses while users belong to a department.
func deptBeforeRemove(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
	// blade_user.dept_id is a comma list of department ids.
	conds := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		conds[i], args[i] = "(',' || dept_id || ',') LIKE ?", "%,"+id.String()+",%"
	}
	n, err := tx.NewSelect().Table("blade_user").Where("is_deleted = 0").
		Where("("+strings.Join(conds, " OR ")+")", args...).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return httpx.BadRequest(msgDeptHasUsers)
	}
	return nil
}

// nameDeptTenants fills tenantName for the super user, who sees every tenant's departments.
func (s *Service) nameDeptTenants(ctx context.Context, _ bun.IDB, rows []Dept) error {
	if !authz.From(ctx).IsSuper() {
		return nil
	}
	for i := range rows {
		if t, _ := s.Tenant(ctx, rows[i].TenantID); t != nil {
			rows[i].TenantName = t.Name
		}
	}
	return nil
}

func (s *Service) mountDept(r chi.Router, env *resource.Env) {
	res := s.res.Dept
	res.Mount(r, env)
	read := resource.Guard(resource.AnyUser)
	r.Get(res.Spec().Path()+"/lazy-list", httpx.Handle(read(s.handleDeptLazyList)))
	s.mountPost(r, env)
}

// nestDepts hangs departments under their parents; one whose parent is not
// among them is a root.
func nestDepts(rows []Dept) []*Dept {
	return resource.Nest(rows, func(d *Dept) wire.ID { return d.ID }, func(d *Dept) wire.ID { return d.ParentID },
		func(p, c *Dept) { p.Children, p.HasChildren = append(p.Children, c), true })
}

// handleDeptList is the tree of the caller's departments (every tenant's for
// the super user, who may narrow it with tenantId). With filters (deptName,
// fullName, ...) it holds the matches; a match whose parent did not match
// becomes a root.
func (s *Service) handleDeptList(r *http.Request) (any, error) {
	rows, err := s.res.Dept.TreeRows(r, nil)
	if err != nil {
		return nil, err
	}
	if err := s.res.Dept.Enrich(r.Context(), s.DB, rows); err != nil {
		return nil, err
	}
	return nestDepts(rows), nil
}

// handleDeptLazyList is one level of the tree (parentId, default 0 = the
// roots) with hasChildren. A search (deptName, fullName, ...) without
// parentId looks at every level, as BladeX does.
func (s *Service) handleDeptLazyList(r *http.Request) (any, error) {
	res := s.res.Dept
	rows, err := res.TreeRows(r, func(q *bun.SelectQuery, query *resource.Query) (*bun.SelectQuery, error) {
		for _, c := range query.Conds {
			if c.Field.Name != "tenantId" {
				return q, nil // parentId narrows to its level; a search looks everywhere
			}
		}
		return q.Where("parent_id = 0"), nil
	})
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	if err := res.Enrich(ctx, s.DB, rows); err != nil {
		return nil, err
	}
	ids := make([]wire.ID, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	has, err := res.HasChildren(ctx, s.DB, ids)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].HasChildren = has[rows[i].ID]
	}
	return rows, nil
}
