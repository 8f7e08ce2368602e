package system

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/audit"
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
		Tree: &resource.Tree{Parent: "parentId", Label: "roleName", ParentName: "parentName", Filter: roleTreeFilter},
	}, resource.Hooks[Role]{
		Validate:     s.validateRole,
		BeforeSave:   s.roleBeforeSave,
		AfterCommit:  s.roleAfterCommit,
		Enrich:       s.nameRoleTenants,
		BeforeRemove: s.roleBeforeRemove,
		Changed:      func(context.Context) { s.grantsChanged() },
		// the management list is the nested tree of the matching roles
		Routes: map[string]httpx.HandlerFunc{"list": s.handleRoleList},
	})
}

func (s *Service) mountRole(r chi.Router, env *resource.Env) {
	base := s.res.Role.Spec().Path()
	s.res.Role.Mount(r, env)
	read, admin := resource.Guard(resource.AnyUser), resource.Guard(resource.Admin)
	r.Get(base+"/tree-by-id", httpx.Handle(read(s.handleRoleTreeByID)))
	r.Post(base+"/grant", httpx.Handle(admin(s.handleRoleGrant)))
}

// roleTreeFilter keeps the select tree of roles to what the caller may hand
// out: another tenant's roles only for the super user (anyone else asking is
// refused, not answered with their own), and the administrator role only
// for the super user.
func roleTreeFilter(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	p := authz.From(r.Context())
	if _, err := boundTenant(r, p); err != nil {
		return nil, err
	}
	if !p.IsSuper() {
		q = q.Where("role_alias <> ?", authz.RoleSuper)
	}
	return q, nil
}

// nameRoleTenants names each role's tenant for the super user.
func (s *Service) nameRoleTenants(ctx context.Context, idb bun.IDB, rows []Role) error {
	tenants := map[string]bool{}
	for _, r := range rows {
		tenants[r.TenantID] = true
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

// handleRoleList is the tree of the roles the caller sees, with the
// roleName / roleAlias (and, for the super user, tenantId) filters.
func (s *Service) handleRoleList(r *http.Request) (any, error) {
	ctx := r.Context()
	p := authz.From(ctx)
	rows, err := s.res.Role.TreeRows(r, func(q *bun.SelectQuery, _ *resource.Query) (*bun.SelectQuery, error) {
		if !p.IsSuper() {
			q = q.Where("role_alias <> ?", authz.RoleSuper)
		}
		return q, nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.res.Role.Enrich(ctx, s.DB, rows); err != nil {
		return nil, err
	}
	return resource.Nest(rows, func(r *Role) wire.ID { return r.ID }, func(r *Role) wire.ID { return r.ParentID },
		func(p, c *Role) { p.Children, p.HasChildren = append(p.Children, c), true }), nil
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
	var rows []Role
	q, err := s.res.Role.Select(ctx, s.DB, &rows)
	if err != nil {
		return nil, err
	}
	q = q.Where("tenant_id = ?", role.TenantID)
	if !authz.From(ctx).IsSuper() {
		q = q.Where("role_alias <> ?", authz.RoleSuper)
	}
	if err := q.OrderExpr("sort ASC, id ASC").Limit(10000).Scan(ctx); err != nil {
		return nil, err
	}
	nodes := make([]resource.TreeNode, len(rows))
	for i, r := range rows {
		nodes[i] = resource.TreeNode{ID: r.ID, ParentID: r.ParentID, Title: r.RoleName, Value: r.ID, Key: r.ID}
	}
	return resource.WithoutSubtree(resource.NestNodes(nodes), id), nil
}

// roleBeforeSave tells the role's tenant that its alias changes, which
// changes what its holders may do (admin, administrator): their sessions
// re-read their roles. It runs in the save transaction, so that a store that
// cannot take the news aborts the change.
func (s *Service) roleBeforeSave(ctx context.Context, _ bun.Tx, row *Role, _ bool) error {
	if !row.aliasChanged {
		return nil
	}
	return s.tenantsChanged(ctx, row.TenantID) // an edit's tenant is the stored row's
}

// roleAfterCommit tells them again: a session re-read between the save and
// the commit saw the old alias.
func (s *Service) roleAfterCommit(ctx context.Context, row *Role, _ bool) error {
	if !row.aliasChanged {
		return nil
	}
	return s.tenantsChanged(ctx, row.TenantID)
}

// reservedAlias tells whether an alias means power to the server: only the
// super user gives it or takes it from a role.
func reservedAlias(alias string) bool {
	return strings.EqualFold(alias, authz.RoleSuper) || strings.EqualFold(alias, authz.RoleAdmin)
}

// validateRole keeps the role aliases that mean power where they belong:
// administrator exists only in 000000 and only the super user touches it;
// only the super user gives a role the alias admin or administrator, or takes
// it away. (The engine's tree keeps the parent a live role of the same
// tenant, not the role or below it.) It runs before the transaction: the
// stored role it judges is the one the save finds, since the save refuses
// any other version. It notes whether an existing role's alias changes.
func (s *Service) validateRole(ctx context.Context, row *Role, present map[string]bool, isNew bool) error {
	p := authz.From(ctx)
	var tenantID, was string
	alias := row.RoleAlias
	if isNew {
		tenantID = p.TenantID
		if p.IsSuper() && row.TenantID != "" && row.TenantID != p.TenantID {
			t, err := s.Tenant(ctx, row.TenantID)
			if err != nil {
				return err
			}
			if t == nil {
				return httpx.BadRequest(msgRoleTenantMissing)
			}
			tenantID = row.TenantID
		}
	} else {
		cur, err := s.res.Role.Get(ctx, s.DB, row.ID)
		if err != nil {
			return err
		}
		tenantID, was = cur.TenantID, cur.RoleAlias
		if !present["roleAlias"] {
			alias = cur.RoleAlias
		}
		if isSuperRole(cur) {
			if !p.IsSuper() {
				return httpx.ErrForbidden
			}
			if alias != authz.RoleSuper {
				return httpx.BadRequest(msgRoleSuperFixed)
			}
		}
	}
	if alias == authz.RoleSuper && (tenantID != authz.SuperTenant || !p.IsSuper()) {
		if tenantID != authz.SuperTenant {
			return httpx.BadRequest(msgRoleSuperAlias)
		}
		return httpx.ErrForbidden
	}
	row.aliasChanged = !isNew && alias != was
	if !p.IsSuper() && (isNew || row.aliasChanged) && (reservedAlias(alias) || reservedAlias(was)) {
		return errRoleReserved
	}
	return nil
}

// roleBeforeRemove refuses to remove the platform's administrator role and
// roles users hold; the grants of the removed roles go with them. (The
// engine refuses roles whose child roles would stay.)
func (s *Service) roleBeforeRemove(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
	var rows []Role
	q, err := s.res.Role.Select(ctx, tx, &rows)
	if err != nil {
		return err
	}
	if err := q.Where("id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return err
	}
	for i := range rows {
		if isSuperRole(&rows[i]) {
			return httpx.BadRequest(msgRoleSuperRemove)
		}
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
	return deleteRoleLinks(ctx, tx, bun.In(ids))
}

// deleteRoleLinks deletes the menu and scope grants of the roles roleIDs
// names (bun.In of ids, or a subquery of role ids): the link tables have no
// is_deleted, so a removed role's grants would stay in the grant and scope
// caches.
func deleteRoleLinks(ctx context.Context, tx bun.Tx, roleIDs any) error {
	for _, link := range []string{"blade_role_menu", "blade_role_scope"} {
		if _, err := tx.NewDelete().Table(link).Where("role_id IN (?)", roleIDs).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
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
	audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Grant, Title: "角色授权 / Role permissions granted", Data: body.auditText()})
	return httpx.Message{Text: msgGranted}, nil
}

// auditText says what a grant set, for the usual log: the roles and how
// many menus and rules of each kind (a list left out is not changed).
func (g *RoleGrant) auditText() string {
	text := "roleIds=" + wire.JoinIDs(g.RoleIDs)
	for _, l := range []struct {
		name string
		ids  *idList
	}{{"menus", g.MenuIDs}, {"dataScopes", g.DataScopeIDs}, {"apiScopes", g.APIScopeIDs}} {
		if l.ids != nil {
			text += fmt.Sprintf("; %s=%d", l.name, len(*l.ids))
		}
	}
	return text
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
