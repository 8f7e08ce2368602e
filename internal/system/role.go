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

var (
	errRoleNotVisible     = &httpx.Error{Status: 404, Msg: i18n.T("角色不存在或不属于当前租户", "No such role in your tenant")}
	msgRoleRequired       = i18n.T("请选择角色", "Select at least one role")
	msgGrantNothing       = i18n.T("请提交要授权的菜单、数据权限或接口权限", "Send menuIds, dataScopeIds or apiScopeIds to grant")
	msgRoleParentMissing  = i18n.T("上级角色不存在或不属于同一租户", "The parent role does not exist in the same tenant")
	msgRoleParentSelf     = i18n.T("上级角色不能是自身", "A role cannot be its own parent")
	msgRoleParentCycle    = i18n.T("上级角色不能是其下级角色", "A role cannot be moved under one of its own descendants")
	msgRoleSuperAlias     = i18n.T("角色别名 administrator 仅限平台租户 000000 使用", "The role alias administrator is reserved for the platform tenant 000000")
	msgRoleSuperFixed     = i18n.T("超级管理员角色的别名不能修改", "The alias of the super administrator role cannot be changed")
	errRoleReserved       = &httpx.Error{Status: 403, Msg: i18n.T("只有超级管理员可以设置或修改角色别名 admin 和 administrator", "Only the super administrator may give or take the role aliases admin and administrator")}
	msgRoleSuperRemove    = i18n.T("不能删除超级管理员角色", "The super administrator role cannot be deleted")
	msgRoleTenantMissing  = i18n.T("租户不存在", "No such tenant")
	msgRoleInUse          = i18n.T("角色「%s」已分配给用户,请先解除后再删除", "Role %s is assigned to users; unassign it before deleting")
	msgMenuOutsidePackage = i18n.T("菜单「%s」不在租户产品包内,不能授权", "Menu %s is not in the tenant's package and cannot be granted")
	msgScopeOutside       = i18n.T("权限「%s」所属菜单不在租户产品包内,不能授权", "Rule %s belongs to a menu outside the tenant's package and cannot be granted")
)

func (s *Service) declareRole() *resource.Resource[Role] {
	return resource.New(resource.Spec{
		Service: "blade-system", Name: "role", Table: "blade_role", Label: i18n.T("角色", "Role"),
		MenuCode: "role", Scope: resource.TenantAdmin, Write: resource.Admin, DefaultOrder: "sort ASC, id ASC",
		Unique: [][]string{{"roleAlias"}}, Routes: []string{"list", "detail", "submit", "remove"},
	}, resource.Hooks[Role]{Enrich: s.enrichRoles})
}

func (s *Service) mountRole(r chi.Router, env *resource.Env) {
	base := s.res.Role.Spec().Path()
	s.res.Role.Mount(resource.Except{Router: r, Skip: map[string]bool{"GET " + base + "/list": true, "POST " + base + "/submit": true, "POST " + base + "/remove": true}}, env)
	read, admin := resource.Guard(resource.AnyUser), resource.Guard(resource.Admin)
	r.Get(base+"/list", httpx.Handle(read(s.handleRoleList)))
	r.Get(base+"/tree", httpx.Handle(read(s.handleRoleTree)))
	r.Get(base+"/tree-by-id", httpx.Handle(read(s.handleRoleTreeByID)))
	r.Post(base+"/submit", httpx.Handle(admin(s.handleRoleSubmit)))
	r.Post(base+"/remove", httpx.Handle(admin(s.handleRoleRemove)))
	r.Post(base+"/grant", httpx.Handle(admin(s.handleRoleGrant)))
}

// enrichRoles names each role's parent and, for the super user, its tenant.
func (s *Service) enrichRoles(ctx context.Context, idb bun.IDB, rows []Role) error {
	var parents []wire.ID
	tenants := map[string]bool{}
	for _, r := range rows {
		if r.ParentID != 0 {
			parents = append(parents, r.ParentID)
		}
		tenants[r.TenantID] = true
	}
	if len(parents) > 0 {
		var names []struct {
			ID   wire.ID `bun:"id"`
			Name string  `bun:"role_name"`
		}
		if err := idb.NewSelect().Table("blade_role").Column("id", "role_name").Where("id IN (?)", bun.In(parents)).Scan(ctx, &names); err != nil {
			return err
		}
		byID := map[wire.ID]string{}
		for _, n := range names {
			byID[n.ID] = n.Name
		}
		for i := range rows {
			rows[i].ParentName = byID[rows[i].ParentID]
		}
	}
	if p := authz.From(ctx); p.IsSuper() && len(tenants) > 0 {
		ids := make([]string, 0, len(tenants))
		for t := range tenants {
			ids = append(ids, t)
		}
		var names []struct {
			TenantID string `bun:"tenant_id"`
			Name     string `bun:"tenant_name"`
		}
		if err := idb.NewSelect().Table("blade_tenant").Column("tenant_id", "tenant_name").
			Where("tenant_id IN (?) AND is_deleted = 0", bun.In(ids)).Scan(ctx, &names); err != nil {
			return err
		}
		byID := map[string]string{}
		for _, n := range names {
			byID[n.TenantID] = n.Name
		}
		for i := range rows {
			rows[i].TenantName = byID[rows[i].TenantID]
		}
	}
	return nil
}

// visibleRoles loads the roles among ids that the caller may manage; any
// other id (unknown, deleted, another tenant's) is a 404.
func (s *Service) visibleRoles(ctx context.Context, idb bun.IDB, ids []wire.ID) ([]Role, error) {
	var rows []Role
	q, err := s.res.Role.Select(ctx, idb, &rows)
	if err != nil {
		return nil, err
	}
	if err := q.Where("id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) != len(ids) {
		return nil, errRoleNotVisible
	}
	return rows, nil
}

func isSuperRole(r *Role) bool {
	return r.RoleAlias == authz.RoleSuper && r.TenantID == authz.SuperTenant
}

// roleForest nests roles under their parents; a role whose parent is absent is a root.
func roleForest(rows []Role) []Role {
	idx := make(map[wire.ID]int, len(rows))
	for i, r := range rows {
		idx[r.ID] = i
	}
	kids := map[wire.ID][]int{}
	var roots []int
	for i, r := range rows {
		if _, ok := idx[r.ParentID]; ok && r.ParentID != r.ID {
			kids[r.ParentID] = append(kids[r.ParentID], i)
		} else {
			roots = append(roots, i)
		}
	}
	done := make([]bool, len(rows))
	var build func(i int) Role
	build = func(i int) Role {
		done[i] = true
		r := rows[i]
		for _, k := range kids[r.ID] {
			if !done[k] {
				r.Children = append(r.Children, build(k))
			}
		}
		r.HasChildren = len(r.Children) > 0
		return r
	}
	out := []Role{}
	for _, i := range roots {
		out = append(out, build(i))
	}
	for i := range rows { // members of a stored cycle: show them flat rather than lose them
		if !done[i] {
			out = append(out, build(i))
		}
	}
	return out
}

// handleRoleList is the tree of the roles the caller sees, with the
// roleName / roleAlias (and, for the super user, tenantId) filters.
func (s *Service) handleRoleList(r *http.Request) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	q, err := s.res.Role.Meta().ParseQuery(r.URL.Query())
	if err != nil {
		return nil, err
	}
	var rows []Role
	sq, err := s.res.Role.Select(ctx, s.DB, &rows)
	if err != nil {
		return nil, err
	}
	sq = q.Apply(sq, "")
	if !p.IsSuper() {
		sq = sq.Where("role_alias <> ?", authz.RoleSuper)
	}
	if len(q.Order) == 0 {
		sq = sq.OrderExpr("sort ASC, id ASC")
	}
	if err := sq.Limit(10000).Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) > 0 {
		if err := s.enrichRoles(ctx, s.DB, rows); err != nil {
			return nil, err
		}
	}
	return roleForest(rows), nil
}

// tenantRoles is the live roles of one tenant the caller may see, in order.
func (s *Service) tenantRoles(ctx context.Context, tenantID string) ([]Role, error) {
	var rows []Role
	q, err := s.res.Role.Select(ctx, s.DB, &rows)
	if err != nil {
		return nil, err
	}
	q = q.Where("tenant_id = ?", tenantID)
	if !authz.From(ctx).IsSuper() {
		q = q.Where("role_alias <> ?", authz.RoleSuper)
	}
	if err := q.OrderExpr("sort ASC, id ASC").Limit(10000).Scan(ctx); err != nil {
		return nil, err
	}
	return rows, nil
}

func roleNodes(rows []Role, skip map[wire.ID]bool) []*TreeNode {
	nodes := make([]*TreeNode, 0, len(rows))
	for _, r := range rows {
		if !skip[r.ID] {
			nodes = append(nodes, &TreeNode{ID: r.ID, ParentID: r.ParentID, Title: r.RoleName, Value: r.ID, Key: r.ID})
		}
	}
	return buildTree(nodes)
}

func (s *Service) handleRoleTree(r *http.Request) (any, error) {
	p := authz.From(r.Context())
	tenantID, err := boundTenant(r, p)
	if err != nil {
		return nil, err
	}
	rows, err := s.tenantRoles(r.Context(), tenantID)
	if err != nil {
		return nil, err
	}
	return roleNodes(rows, nil), nil
}

// handleRoleTreeByID is the role tree of a role's tenant without that role
// and its descendants: the choices for its parent.
func (s *Service) handleRoleTreeByID(r *http.Request) (any, error) {
	id, err := httpx.QueryID(r, "roleId")
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	role, err := s.res.Role.Get(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	rows, err := s.tenantRoles(ctx, role.TenantID)
	if err != nil {
		return nil, err
	}
	return roleNodes(rows, subtree(rows, id)), nil
}

// subtree is a role and everything below it.
func subtree(rows []Role, id wire.ID) map[wire.ID]bool {
	kids := map[wire.ID][]wire.ID{}
	for _, r := range rows {
		kids[r.ParentID] = append(kids[r.ParentID], r.ID)
	}
	out := map[wire.ID]bool{}
	var walk func(id wire.ID)
	walk = func(id wire.ID) {
		if out[id] {
			return
		}
		out[id] = true
		for _, k := range kids[id] {
			walk(k)
		}
	}
	walk(id)
	return out
}

// handleRoleSubmit saves a role. A changed alias changes what its holders
// may do (admin, administrator): their tenant's sessions re-read their roles.
func (s *Service) handleRoleSubmit(r *http.Request) (any, error) {
	var realiased string // the tenant of a role whose alias changed
	check := func(ctx context.Context, tx bun.Tx, row *Role, present map[string]bool, isNew bool) error {
		tenantID, aliasChanged, err := s.checkRole(ctx, tx, row, present, isNew)
		if err != nil || !aliasChanged {
			return err
		}
		realiased = tenantID
		return s.tenantsChanged(ctx, tenantID)
	}
	var changedErr error
	out, err := submitWith(r, s.res.Role, func(x *Role) wire.ID { return x.ID }, check, func() {
		if realiased != "" { // again after the commit: a session re-read in between saw the old alias
			changedErr = s.tenantsChanged(r.Context(), realiased)
		}
	})
	if err == nil {
		err = changedErr
	}
	return out, err
}

// reservedAlias tells whether an alias means power to the server: only the
// super user gives it or takes it from a role.
func reservedAlias(alias string) bool {
	return strings.EqualFold(alias, authz.RoleSuper) || strings.EqualFold(alias, authz.RoleAdmin)
}

// checkRole keeps roles inside their tenant: the parent is a live role of the
// same tenant and not the role or below it; administrator exists only in 000000
// and only the super user touches it; only the super user gives a role the
// alias admin or administrator, or takes it away. It returns the role's
// tenant and whether an existing role's alias changes.
func (s *Service) checkRole(ctx context.Context, tx bun.Tx, row *Role, present map[string]bool, isNew bool) (string, bool, error) {
	p := authz.From(ctx)
	var tenantID, was string
	alias, parentID := row.RoleAlias, row.ParentID
	parentChanged := isNew
	if isNew {
		tenantID = p.TenantID
		if p.IsSuper() && row.TenantID != "" && row.TenantID != p.TenantID {
			t, err := s.TenantIn(ctx, tx, row.TenantID)
			if err != nil {
				return "", false, err
			}
			if t == nil {
				return "", false, httpx.BadRequest(msgRoleTenantMissing)
			}
			tenantID = row.TenantID
		}
	} else {
		cur, err := s.res.Role.Get(ctx, tx, row.ID)
		if err != nil {
			return "", false, err
		}
		tenantID, was = cur.TenantID, cur.RoleAlias
		if !present["roleAlias"] {
			alias = cur.RoleAlias
		}
		if !present["parentId"] {
			parentID = cur.ParentID
		}
		parentChanged = parentID != cur.ParentID
		if isSuperRole(cur) {
			if !p.IsSuper() {
				return "", false, httpx.ErrForbidden
			}
			if alias != authz.RoleSuper {
				return "", false, httpx.BadRequest(msgRoleSuperFixed)
			}
		}
	}
	if alias == authz.RoleSuper && (tenantID != authz.SuperTenant || !p.IsSuper()) {
		if tenantID != authz.SuperTenant {
			return "", false, httpx.BadRequest(msgRoleSuperAlias)
		}
		return "", false, httpx.ErrForbidden
	}
	aliasChanged := !isNew && alias != was
	if !p.IsSuper() && (isNew || aliasChanged) && (reservedAlias(alias) || reservedAlias(was)) {
		return "", false, errRoleReserved
	}
	if parentID == 0 || !parentChanged {
		return tenantID, aliasChanged, nil
	}
	if !isNew && parentID == row.ID {
		return "", false, httpx.BadRequest(msgRoleParentSelf)
	}
	var links []struct {
		ID       wire.ID `bun:"id"`
		ParentID wire.ID `bun:"parent_id"`
	}
	if err := tx.NewSelect().Table("blade_role").Column("id", "parent_id").
		Where("tenant_id = ? AND is_deleted = 0", tenantID).Scan(ctx, &links); err != nil {
		return "", false, err
	}
	parent := make(map[wire.ID]wire.ID, len(links))
	for _, l := range links {
		parent[l.ID] = l.ParentID
	}
	if _, ok := parent[parentID]; !ok {
		return "", false, resource.FieldErrorOf(ctx, "parentId", msgRoleParentMissing)
	}
	if !isNew {
		for cur, n := parentID, 0; cur != 0 && n < 1000; cur, n = parent[cur], n+1 {
			if cur == row.ID {
				return "", false, httpx.BadRequest(msgRoleParentCycle)
			}
		}
	}
	return tenantID, aliasChanged, nil
}

// handleRoleRemove deletes roles that have no child roles and no users; the
// platform's administrator role is never deleted. Their grants go with them.
func (s *Service) handleRoleRemove(r *http.Request) (any, error) {
	ids, err := httpx.FormIDs(r, "ids")
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	ids = dedupe(ids)
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		var rows []Role
		q, err := s.res.Role.Select(ctx, tx, &rows)
		if err != nil {
			return err
		}
		if err := q.Where("id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
			return err
		}
		if len(rows) == 0 {
			return httpx.ErrNotFound
		}
		visible := make([]wire.ID, len(rows))
		for i := range rows {
			visible[i] = rows[i].ID
			if isSuperRole(&rows[i]) {
				return httpx.BadRequest(msgRoleSuperRemove)
			}
		}
		n, err := tx.NewSelect().Table("blade_role").
			Where("parent_id IN (?) AND id NOT IN (?) AND is_deleted = 0", bun.In(visible), bun.In(visible)).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return httpx.BadRequest(msgDeleteChildren)
		}
		for _, role := range rows {
			used, err := tx.NewSelect().Table("blade_user").
				Where("tenant_id = ? AND is_deleted = 0 AND (',' || role_id || ',') LIKE ?", role.TenantID, "%,"+role.ID.String()+",%").Exists(ctx)
			if err != nil {
				return err
			}
			if used {
				return httpx.BadRequest(msgRoleInUse.Format(role.RoleName))
			}
		}
		if _, err := s.res.Role.Remove(ctx, tx, visible); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Table("blade_role_menu").Where("role_id IN (?)", bun.In(visible)).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.NewDelete().Table("blade_role_scope").Where("role_id IN (?)", bun.In(visible)).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.grantsChanged()
	return httpx.Message{Text: i18n.T("删除成功", "Deleted")}, nil
}

func (s *Service) grantsChanged() {
	s.menus.resetGrants()
	if s.Scopes != nil {
		s.Scopes.Invalidate()
	}
}

// RoleGrant is the body of role/grant. A list that is absent (or null) is
// left as it is; a list that is present, even empty, replaces the grants.
type RoleGrant struct {
	RoleIDs      idList  `json:"roleIds"`
	MenuIDs      *idList `json:"menuIds"`
	DataScopeIDs *idList `json:"dataScopeIds"`
	APIScopeIDs  *idList `json:"apiScopeIds"`
}

// handleRoleGrant replaces the menus and scope rules granted to roles, in one
// transaction, within each role's tenant package.
func (s *Service) handleRoleGrant(r *http.Request) (any, error) {
	var body RoleGrant
	if err := httpx.DecodeJSON(r, &body); err != nil {
		return nil, err
	}
	if len(body.RoleIDs) == 0 {
		return nil, httpx.BadRequest(msgRoleRequired)
	}
	if body.MenuIDs == nil && body.DataScopeIDs == nil && body.APIScopeIDs == nil {
		return nil, httpx.BadRequest(msgGrantNothing)
	}
	ctx := r.Context()
	p := authz.From(ctx)
	sn, err := s.menuSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		roles, err := s.visibleRoles(ctx, tx, body.RoleIDs)
		if err != nil {
			return err
		}
		tenants := map[string]bool{}
		for i := range roles {
			if isSuperRole(&roles[i]) && !p.IsSuper() {
				return httpx.ErrForbidden
			}
			tenants[roles[i].TenantID] = true
		}
		bounds := map[string]map[wire.ID]bool{}
		for t := range tenants {
			if bounds[t], err = s.tenantBound(ctx, tx, sn, t); err != nil {
				return err
			}
		}
		if body.MenuIDs != nil {
			menus := *body.MenuIDs
			if err := checkMenusExist(ctx, tx, menus); err != nil {
				return err
			}
			for _, bound := range bounds {
				for _, id := range menus {
					if bound != nil && !bound[id] {
						name := id.String()
						if m := sn.byID[id]; m != nil {
							name = m.Name
						}
						return httpx.BadRequest(msgMenuOutsidePackage.Format(name))
					}
				}
			}
			if _, err := tx.NewDelete().Table("blade_role_menu").Where("role_id IN (?)", bun.In(body.RoleIDs)).Exec(ctx); err != nil {
				return err
			}
			for _, role := range body.RoleIDs {
				for _, id := range menus {
					if err := insertLink(ctx, tx, "blade_role_menu", map[string]any{"menu_id": id, "role_id": role}); err != nil {
						return err
					}
				}
			}
		}
		scopes := []struct {
			ids      *idList
			table    string
			category int
			missing  i18n.Text
		}{
			{body.DataScopeIDs, "blade_scope_data", ScopeData, i18n.T("数据权限不存在: %s", "No such data scope rule: %s")},
			{body.APIScopeIDs, "blade_scope_api", ScopeAPI, i18n.T("接口权限不存在: %s", "No such API scope rule: %s")},
		}
		for _, sc := range scopes {
			if sc.ids == nil {
				continue
			}
			ids, err := s.checkScopes(ctx, tx, sn, sc.table, *sc.ids, bounds, sc.missing)
			if err != nil {
				return err
			}
			if _, err := tx.NewDelete().Table("blade_role_scope").
				Where("role_id IN (?) AND scope_category = ?", bun.In(body.RoleIDs), sc.category).Exec(ctx); err != nil {
				return err
			}
			for _, role := range body.RoleIDs {
				for _, id := range ids {
					if err := insertLink(ctx, tx, "blade_role_scope", map[string]any{"scope_category": sc.category, "scope_id": id, "role_id": role}); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.grantsChanged()
	return httpx.Message{Text: msgGranted}, nil
}

// checkScopes validates scope rule ids for a grant. Menu ids among them are
// the grouping nodes of the grant tree and are dropped; every other id must be
// a live rule whose menu lies within each tenant's package.
func (s *Service) checkScopes(ctx context.Context, tx bun.Tx, sn *menuSnap, table string, ids []wire.ID,
	bounds map[string]map[wire.ID]bool, missing i18n.Text) ([]wire.ID, error) {
	rules := make([]wire.ID, 0, len(ids))
	for _, id := range ids {
		if _, isMenu := sn.byID[id]; !isMenu {
			rules = append(rules, id)
		}
	}
	if len(rules) == 0 {
		return nil, nil
	}
	var found []scopeRule
	if err := tx.NewSelect().Table(table).Column("id", "menu_id", "scope_name").
		Where("id IN (?) AND is_deleted = 0", bun.In(rules)).Scan(ctx, &found); err != nil {
		return nil, err
	}
	if len(found) != len(rules) {
		have := map[wire.ID]bool{}
		for _, f := range found {
			have[f.ID] = true
		}
		var gone []wire.ID
		for _, id := range rules {
			if !have[id] {
				gone = append(gone, id)
			}
		}
		return nil, httpx.BadRequest(missing.Format(wire.JoinIDs(gone)))
	}
	for _, bound := range bounds {
		if bound == nil {
			continue
		}
		for _, f := range found {
			if !bound[f.MenuID] {
				return nil, httpx.BadRequest(msgScopeOutside.Format(f.ScopeName))
			}
		}
	}
	return rules, nil
}
