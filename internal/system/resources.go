package system

import (
	"context"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Resources declares the plain blade-system resources. Menus, roles,
// departments, dictionaries, regions and tenants add hand-written routes
// beside their generic ones (see their files).
type Resources struct {
	Param         *resource.Resource[Param]
	TenantPackage *resource.Resource[TenantPackage]
	Client        *resource.Resource[Client]
	Post          *resource.Resource[Post]
	DataScope     *resource.Resource[DataScope]
	APIScope      *resource.Resource[APIScope]
	TopMenu       *resource.Resource[TopMenu]
	Tenant        *resource.Resource[Tenant]
	Menu          *resource.Resource[Menu]
	Role          *resource.Resource[Role]
	Dept          *resource.Resource[Dept]
	Dict          *resource.Resource[Dict]
	DictBiz       *resource.Resource[Dict]
	Region        *resource.Described
}

// declare builds every resource of the area; hooks that need the service close over s.
func (s *Service) declare() *Resources {
	invalidate := func(ctx context.Context) { s.Invalidate() }
	r := &Resources{}
	r.Param = resource.New(resource.Spec{
		Service: "blade-system", Name: "param", Table: "blade_param", Label: i18n.T("参数", "Parameter"),
		MenuCode: "param", Scope: resource.Global, Unique: [][]string{{"paramKey"}}, SecretRows: secretParams,
	}, resource.Hooks[Param]{Changed: invalidate})
	r.TenantPackage = resource.New(resource.Spec{
		Service: "blade-system", Name: "tenant-package", Table: "blade_tenant_package", Label: i18n.T("租户产品包", "Tenant package"),
		MenuCode: "tenant_package", Scope: resource.Global, Unique: [][]string{{"packageName"}},
		Routes: []string{"list", "detail", "submit", "remove", "export"},
	}, resource.Hooks[TenantPackage]{
		Changed: invalidate,
	})
	r.Client = resource.New(resource.Spec{
		Service: "blade-system", Name: "client", Table: "blade_client", Label: i18n.T("应用", "Client"),
		MenuCode: "client", Scope: resource.Global, Unique: [][]string{{"clientId"}},
	}, resource.Hooks[Client]{Changed: invalidate})
	r.Post = resource.New(resource.Spec{
		Service: "blade-system", Name: "post", Table: "blade_post", Label: i18n.T("岗位", "Post"),
		MenuCode: "post", Scope: resource.TenantAdmin, Write: resource.Admin, Unique: [][]string{{"postCode"}},
		DefaultOrder: "sort ASC, id ASC",
	}, resource.Hooks[Post]{})
	r.DataScope = resource.New(resource.Spec{
		Service: "blade-system", Name: "data-scope", Table: "blade_scope_data", Label: i18n.T("数据权限", "Data scope"),
		MenuCode: "data_scope", Scope: resource.Global,
	}, resource.Hooks[DataScope]{
		Validate:     s.validateScopeRule,
		Query:        filterByMenu,
		BeforeRemove: scopeBeforeRemove(ScopeData),
		Changed:      s.invalidateScopes,
	})
	r.APIScope = resource.New(resource.Spec{
		Service: "blade-system", Name: "api-scope", Table: "blade_scope_api", Label: i18n.T("接口权限", "API scope"),
		MenuCode: "api_scope", Scope: resource.Global,
	}, resource.Hooks[APIScope]{
		Query:        filterByMenu,
		BeforeRemove: scopeBeforeRemove(ScopeAPI),
		Changed:      s.invalidateScopes,
	})
	r.TopMenu = resource.New(resource.Spec{
		Service: "blade-system", Name: "topmenu", Table: "blade_top_menu", Label: i18n.T("顶部菜单", "Top menu"),
		MenuCode: "topmenu", Scope: resource.Global, Unique: [][]string{{"code"}}, DefaultOrder: "sort ASC, id ASC",
	}, resource.Hooks[TopMenu]{Changed: invalidate})
	r.Tenant = s.declareTenant()
	r.Dict, r.DictBiz = s.declareDicts()
	r.Menu = s.declareMenu()
	r.Role = s.declareRole()
	r.Dept = s.declareDept()
	r.Region = s.declareRegion()
	return r
}

// secretParams are the parameter keys whose value is a secret: the default
// passwords given to new tenant administrators and reset users, and any
// password, secret or key a later setting (SMS, object storage) keeps as a
// parameter. docs/decisions.md: "Secret parameters".
var secretParams = &resource.SecretRows{Field: "paramKey", Keys: []string{
	"tenant.default.password", "account.initPassword",
	"*password", "*secret", "*secretKey", "*accessKey", "*apiKey", "*privateKey", "*token",
}}

// filterByMenu narrows scope lists to one menu (the scope screens open per menu).
func filterByMenu(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	if v := r.URL.Query().Get("menuId"); v != "" {
		id, err := wire.ParseID(v)
		if err != nil {
			return nil, httpx.InvalidParam("menuId")
		}
		q = q.Where("menu_id = ?", id)
	}
	return q, nil
}
