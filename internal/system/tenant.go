package system

import (
	"context"
	"crypto/rand"
	"errors"
	"math/big"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// AdminCreator makes a new tenant's administrator account inside the
// tenant-creation transaction, with a password hashed before it opened.
type AdminCreator interface {
	CreateAdmin(ctx context.Context, tx bun.Tx, tenantID string, roleID, deptID wire.ID, passwordHash string) error
}

var msgTenantIDTaken = i18n.T("租户ID已存在", "The tenant ID is taken")

func (s *Service) declareTenant() *resource.Resource[Tenant] {
	return resource.New(resource.Spec{
		Service: "blade-system", Name: "tenant", Table: "blade_tenant", Label: i18n.T("租户", "Tenant"),
		MenuCode: "tenant", Scope: resource.Global, Read: resource.Super, Write: resource.Super,
		Routes: []string{"list", "page", "detail", "submit", "remove", "export"},
	}, resource.Hooks[Tenant]{
		Validate:   s.validateTenant,
		BeforeSave: s.beforeSaveTenant,
		Changed:    func(context.Context) { s.Invalidate() },
		AfterSave:  s.afterSaveTenant,
		AfterCommit: func(ctx context.Context, t *Tenant, isNew bool) error {
			title := "修改租户 / Tenant changed"
			if isNew {
				title = "新增租户 / Tenant created"
			}
			audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Tenant, Title: title, Data: "tenantId=" + t.TenantID + "; tenantName=" + t.TenantName})
			return nil
		},
		BeforeRemove: func(ctx context.Context, tx bun.Tx, ids []wire.ID) error {
			var tenantIDs []string
			if err := tx.NewSelect().Table("blade_tenant").Column("tenant_id").Where("id IN (?)", bun.In(ids)).Scan(ctx, &tenantIDs); err != nil {
				return err
			}
			for _, t := range tenantIDs {
				if t == authz.SuperTenant {
					return httpx.Badf("不能删除平台租户 000000", "The platform tenant 000000 cannot be deleted")
				}
			}
			if err := removeTenantRows(ctx, tx, tenantIDs); err != nil { // tenant_remove.go
				return err
			}
			audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Tenant, Title: "删除租户 / Tenants removed", Data: "tenantIds=" + strings.Join(tenantIDs, ",")})
			return s.tenantsChanged(ctx, tenantIDs...)
		},
	})
}

// validateTenant hashes a new tenant's administrator password (the
// tenant.default.password parameter) before the creation transaction opens:
// the hash takes tens of milliseconds, and in the transaction it would hold
// SQLite's one writer that long.
func (s *Service) validateTenant(ctx context.Context, t *Tenant, _ map[string]bool, isNew bool) error {
	if !isNew || s.Users == nil {
		return nil
	}
	password, err := readParam(ctx, s.DB, "tenant.default.password", "admin")
	if err != nil {
		return err
	}
	t.adminPasswordHash = authn.HashPassword(authn.MD5Hex(password))
	return nil
}

// For this table tenant_id is the business key: a new tenant gets a fresh
// six-digit id here, before the engine inserts it.
func (s *Service) beforeSaveTenant(ctx context.Context, tx bun.Tx, t *Tenant, isNew bool) error {
	if !isNew {
		return s.tenantsChanged(ctx, t.TenantID) // the expiry may have changed
	}
	if t.AccountNumber == 0 {
		n, err := s.ParamIn(ctx, tx, "tenant.default.accountNumber", "")
		if err != nil {
			return err
		}
		t.AccountNumber = atoiOr(n, -1)
	}
	tenantID, err := newTenantID(ctx, tx)
	if err != nil {
		return err
	}
	t.TenantID = tenantID
	if t.PackageID != 0 {
		n, err := tx.NewSelect().Table("blade_tenant_package").Where("id = ? AND is_deleted = 0", t.PackageID).Count(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return httpx.Badf("产品包不存在", "No such tenant package")
		}
	}
	return nil
}

func (s *Service) afterSaveTenant(ctx context.Context, tx bun.Tx, t *Tenant, isNew bool) error {
	if !isNew {
		return nil
	}
	return s.provisionTenant(ctx, tx, t)
}

// newTenantID draws an unused six-digit tenant id.
func newTenantID(ctx context.Context, tx bun.Tx) (string, error) {
	for range 20 {
		n, _ := rand.Int(rand.Reader, big.NewInt(900000))
		id := strconv.Itoa(int(n.Int64()) + 100000)
		c, err := tx.NewSelect().Table("blade_tenant").Where("tenant_id = ?", id).Count(ctx)
		if err != nil {
			return "", err
		}
		if c == 0 {
			return id, nil
		}
	}
	return "", httpx.BadRequest(msgTenantIDTaken)
}

// provisionTenant gives a new tenant its admin role (granted the package's
// menus), root department and admin account.
func (s *Service) provisionTenant(ctx context.Context, tx bun.Tx, t *Tenant) error {
	now := wire.Now()
	p := authz.From(ctx)
	roleID, deptID := db.NewID(), db.NewID()
	ins := func(table string, cols map[string]any) error {
		cols["tenant_id"], cols["create_user"], cols["update_user"] = t.TenantID, p.UserID, p.UserID
		cols["create_time"], cols["update_time"] = now, now
		return db.InsertRow(ctx, tx, table, cols)
	}
	if err := ins("blade_role", map[string]any{"id": roleID, "parent_id": 0, "role_name": "管理员", "sort": 1, "role_alias": authz.RoleAdmin}); err != nil {
		return err
	}
	if err := ins("blade_dept", map[string]any{"id": deptID, "parent_id": 0, "ancestors": "0", "dept_category": 1,
		"dept_name": t.TenantName, "full_name": t.TenantName, "sort": 1}); err != nil {
		return err
	}
	menuIDs, err := s.packageMenus(ctx, tx, t.PackageID)
	if err != nil {
		return err
	}
	for _, mid := range menuIDs {
		if err := db.InsertRow(ctx, tx, "blade_role_menu", map[string]any{"id": db.NewID(), "menu_id": mid, "role_id": roleID}); err != nil {
			return err
		}
	}
	for _, provision := range s.TenantProvisioners {
		if err := provision(ctx, tx, t.TenantID); err != nil {
			return err
		}
	}
	if s.Users == nil {
		return nil
	}
	if t.adminPasswordHash == "" {
		return errors.New("tenant: the administrator's password was not hashed before the save (validateTenant)")
	}
	return s.Users.CreateAdmin(ctx, tx, t.TenantID, roleID, deptID, t.adminPasswordHash)
}

// packageMenus is the menu ids a package holds; with no package, the menus
// named by the tenant.default.menuCode parameter and everything under them.
func (s *Service) packageMenus(ctx context.Context, idb bun.IDB, packageID wire.ID) ([]wire.ID, error) {
	if packageID != 0 {
		var list string
		if err := idb.NewSelect().Table("blade_tenant_package").Column("menu_id").Where("id = ? AND is_deleted = 0", packageID).Scan(ctx, &list); err != nil {
			return nil, err
		}
		return wire.ParseIDs(list)
	}
	var menus []Menu
	if err := idb.NewSelect().Model(&menus).Where("is_deleted = 0").Scan(ctx); err != nil {
		return nil, err
	}
	menuCodes, err := s.ParamIn(ctx, idb, "tenant.default.menuCode", "")
	if err != nil {
		return nil, err
	}
	codes := map[string]bool{}
	for _, c := range strings.Split(menuCodes, ",") {
		codes[strings.TrimSpace(c)] = true
	}
	children := map[wire.ID][]Menu{}
	for _, m := range menus {
		children[m.ParentID] = append(children[m.ParentID], m)
	}
	var out []wire.ID
	var add func(m Menu)
	add = func(m Menu) {
		out = append(out, m.ID)
		for _, c := range children[m.ID] {
			add(c)
		}
	}
	byID := map[wire.ID]Menu{}
	for _, m := range menus {
		byID[m.ID] = m
	}
	seen := map[wire.ID]bool{}
	for _, m := range menus {
		if codes[m.Code] {
			add(m)
			// ancestors too, so that the granted menu is reachable in the tree
			for pid := m.ParentID; pid != 0 && !seen[pid]; pid = byID[pid].ParentID {
				seen[pid] = true
				out = append(out, pid)
			}
		}
	}
	return dedupe(out), nil
}

func dedupe(ids []wire.ID) []wire.ID {
	seen := make(map[wire.ID]bool, len(ids))
	out := ids[:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func (s *Service) mountTenant(r chi.Router, env *resource.Env) {
	s.res.Tenant.Mount(r, env)
	super := resource.Guard(resource.Super)
	r.Post("/blade-system/tenant/setting", httpx.Handle(super(s.handleTenantSetting)))
	r.Post("/blade-system/tenant/datasource", httpx.Handle(super(s.handleTenantDatasource)))
	r.Get("/blade-system/tenant/info", httpx.Handle(s.handleTenantInfo))
}

// handleTenantSetting sets the account quota and expiry of several tenants.
func (s *Service) handleTenantSetting(r *http.Request) (any, error) {
	ids, err := httpx.FormIDs(r, "ids")
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	t := &Tenant{}
	var fields []string
	if v := q.Get("accountNumber"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < -1 {
			return nil, httpx.InvalidParam("accountNumber")
		}
		t.AccountNumber, fields = n, append(fields, "accountNumber")
	}
	if v := q.Get("expireTime"); v != "" {
		e, err := wire.ParseTime(v)
		if err != nil {
			return nil, httpx.InvalidParam("expireTime")
		}
		t.ExpireTime, fields = e, append(fields, "expireTime")
	}
	if len(fields) == 0 {
		return nil, httpx.MissingParam("accountNumber / expireTime")
	}
	ctx := r.Context()
	var tenantIDs []string
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		if err := tx.NewSelect().Table("blade_tenant").Column("tenant_id").Where("id IN (?)", bun.In(ids)).Scan(ctx, &tenantIDs); err != nil {
			return err
		}
		for _, id := range ids {
			t.ID = id
			if err := s.res.Tenant.Update(ctx, tx, t, fields, false); err != nil {
				return err
			}
		}
		return s.tenantsChanged(ctx, tenantIDs...)
	})
	s.Invalidate()
	if err != nil {
		return nil, err
	}
	// again after the commit: a session re-read in between saw the old expiry
	if err := s.tenantsChanged(ctx, tenantIDs...); err != nil {
		return nil, err
	}
	audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Tenant, Title: "租户配置 / Tenant settings",
		Data: "tenantIds=" + strings.Join(tenantIDs, ",") + "; " + strings.Join(fields, ",")})
	return httpx.Message{Text: i18n.T("配置成功", "Saved")}, nil
}

// TenantSessions is told when tenants change, so that their sessions check
// the tenant again on their next request (auth.Revocations).
type TenantSessions interface {
	TenantsChanged(ctx context.Context, tenantIDs ...string) error
}

func (s *Service) tenantsChanged(ctx context.Context, tenantIDs ...string) error {
	if s.Sessions == nil {
		return nil
	}
	return s.Sessions.TenantsChanged(ctx, tenantIDs...)
}

// TenantNow implements auth.Platform: the tenant read past the cache, which
// it refreshes.
func (s *Service) TenantNow(ctx context.Context, tenantID string) (*auth.TenantInfo, error) {
	s.mu.Lock()
	delete(s.tenants, tenantID)
	s.gen++ // a load that began before this one must not store what it read
	s.mu.Unlock()
	return s.Tenant(ctx, tenantID)
}

func (s *Service) handleTenantDatasource(r *http.Request) (any, error) {
	tenantID, err := httpx.QueryString(r, "tenantId")
	if err != nil {
		return nil, err
	}
	dsID, err := httpx.QueryID(r, "datasourceId")
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	n, err := s.DB.NewSelect().Table("blade_datasource").Where("id = ? AND is_deleted = 0", dsID).Count(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, httpx.Badf("数据源不存在", "No such data source")
	}
	res, err := s.DB.NewUpdate().Table("blade_tenant").Set("datasource_id = ?", dsID).Set("update_time = ?", wire.Now()).
		Set("version = version + 1").Where("tenant_id = ? AND is_deleted = 0", tenantID).Exec(ctx)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, httpx.ErrNotFound
	}
	s.Invalidate()
	audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Tenant, Title: "租户数据源 / Tenant data source",
		Data: "tenantId=" + tenantID + "; datasourceId=" + dsID.String()})
	return httpx.Message{Text: i18n.T("配置成功", "Saved")}, nil
}

// TenantPublic is what the login page may learn about a tenant from its domain.
type TenantPublic struct {
	TenantID      string `json:"tenantId" bun:"tenant_id"`
	TenantName    string `json:"tenantName" bun:"tenant_name"`
	DomainURL     string `json:"domainUrl" bun:"domain_url"`
	BackgroundURL string `json:"backgroundUrl" bun:"background_url"`
}

// handleTenantInfo is public: the login page asks which tenant a domain belongs to.
func (s *Service) handleTenantInfo(r *http.Request) (any, error) {
	domain, err := httpx.QueryString(r, "domain")
	if err != nil {
		return nil, err
	}
	t, err := s.TenantByDomain(r.Context(), domain)
	if err != nil || t == nil {
		return nil, err
	}
	return *t, nil
}

// TenantByDomain is the live tenant whose domain is domain, nil when none
// (the login page's tenant/info, and the public website endpoints).
func (s *Service) TenantByDomain(ctx context.Context, domain string) (*TenantPublic, error) {
	var out []TenantPublic
	if err := s.DB.NewSelect().Table("blade_tenant").Column("tenant_id", "tenant_name", "domain_url", "background_url").
		Where("domain_url = ? AND is_deleted = 0", domain).Limit(1).Scan(ctx, &out); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, nil
	}
	return &out[0], nil
}
