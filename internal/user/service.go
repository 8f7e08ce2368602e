package user

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

// Platform is what blade-user needs from blade-system.
type Platform interface {
	Tenant(ctx context.Context, tenantID string) (*auth.TenantInfo, error)
	TenantIn(ctx context.Context, idb bun.IDB, tenantID string) (*auth.TenantInfo, error)
	Param(ctx context.Context, key, def string) string
	Names(ctx context.Context, kind string, ids []wire.ID) (map[wire.ID]string, error)
	DeptSubtree(ctx context.Context, tenantID string, deptID wire.ID) ([]wire.ID, error)
	RoleAliases(ctx context.Context, tenantID string, ids []wire.ID) ([]string, error)
}

// Sessions is what auth does for users' sessions when their accounts change.
type Sessions interface {
	// RevokeUser ends every session of a user (password, disable, removal).
	RevokeUser(ctx context.Context, idb bun.IDB, userID wire.ID) error
	// UsersChanged makes the users' sessions re-read roles and departments.
	UsersChanged(ctx context.Context, ids ...wire.ID) error
}

// Service holds the user resource and its extra endpoints.
type Service struct {
	DB       *db.DB
	Platform Platform
	Sessions Sessions
	Users    *resource.Resource[User]
	// Links re-signs stored file links (avatars) of the row's tenant as they are read; nil leaves them.
	Links interface {
		Sign(tenantID, link string) string
	}
}

// New declares the user resource.
func New(d *db.DB, p Platform, sessions Sessions) *Service {
	s := &Service{DB: d, Platform: p, Sessions: sessions}
	s.Users = resource.New(resource.Spec{
		Service: "blade-user", Name: "user", URLPath: "/blade-user", Table: "blade_user", Label: i18n.T("用户", "User"),
		MenuCode: "user", Scope: resource.TenantAdmin, Write: resource.Admin, DataScope: true,
		Routes: []string{"page", "detail", "submit", "remove", "export"},
		Unique: [][]string{{"account"}},
	}, resource.Hooks[User]{
		Query:      s.pageFilter,
		Enrich:     s.enrich,
		BeforeSave: s.beforeSave,
	})
	return s
}

// pageFilter: deptId lists the users of a department and its children.
func (s *Service) pageFilter(r *http.Request, q *bun.SelectQuery) (*bun.SelectQuery, error) {
	if v := r.URL.Query().Get("deptId"); v != "" {
		id, err := wire.ParseID(v)
		if err != nil {
			return nil, httpx.InvalidParam("deptId")
		}
		p := authz.From(r.Context())
		ids, err := s.Platform.DeptSubtree(r.Context(), p.TenantID, id)
		if err != nil {
			return nil, err
		}
		conds := make([]string, 0, len(ids))
		args := make([]any, 0, len(ids))
		for _, d := range ids {
			conds = append(conds, "(',' || dept_id || ',') LIKE ?")
			args = append(args, "%,"+d.String()+",%")
		}
		q = q.Where("("+strings.Join(conds, " OR ")+")", args...)
	}
	return q, nil
}

func (s *Service) enrich(ctx context.Context, _ bun.IDB, rows []User) error {
	var roleIDs, deptIDs, postIDs []wire.ID
	for _, u := range rows {
		r, _ := wire.ParseIDs(u.RoleID)
		d, _ := wire.ParseIDs(u.DeptID)
		p, _ := wire.ParseIDs(u.PostID)
		roleIDs, deptIDs, postIDs = append(roleIDs, r...), append(deptIDs, d...), append(postIDs, p...)
	}
	roles, err := s.Platform.Names(ctx, "role", roleIDs)
	if err != nil {
		return err
	}
	depts, err := s.Platform.Names(ctx, "dept", deptIDs)
	if err != nil {
		return err
	}
	posts, err := s.Platform.Names(ctx, "post", postIDs)
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].RoleName = names(rows[i].RoleID, roles)
		rows[i].DeptName = names(rows[i].DeptID, depts)
		rows[i].PostName = names(rows[i].PostID, posts)
		if s.Links != nil {
			rows[i].Avatar = s.Links.Sign(rows[i].TenantID, rows[i].Avatar)
		}
		if t, _ := s.Platform.Tenant(ctx, rows[i].TenantID); t != nil {
			rows[i].TenantName = t.Name
		}
	}
	return nil
}

func names(list string, m map[wire.ID]string) string {
	ids, _ := wire.ParseIDs(list)
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if n, ok := m[id]; ok {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}

func (s *Service) beforeSave(ctx context.Context, tx bun.Tx, u *User, isNew bool) error {
	// role, dept and post ids were checked as references before this hook (resource/ref.go)
	if !isNew {
		return nil
	}
	if u.Password == "" {
		return httpx.BadRequest(msgPassword)
	}
	u.Password = authn.HashPassword(ClientPassword(u.Password))
	if u.UserType == 0 {
		u.UserType = 1
	}
	t, err := s.Platform.TenantIn(ctx, tx, u.TenantID)
	if err != nil {
		return err
	}
	if t == nil {
		return httpx.Badf("租户不存在", "No such tenant")
	}
	if t.AccountNumber >= 0 {
		n, err := tx.NewSelect().Table("blade_user").Where("tenant_id = ? AND is_deleted = 0", u.TenantID).Count(ctx)
		if err != nil {
			return err
		}
		if n >= int64(t.AccountNumber) {
			return httpx.BadRequest(msgQuota)
		}
	}
	return nil
}

// Mount adds the generic and extra blade-user routes.
func (s *Service) Mount(r chi.Router, env *resource.Env) {
	// submit and remove are the engine's, behind the privilege rules (privilege.go)
	s.Users.Mount(resource.Except{Router: r, Skip: map[string]bool{"POST /blade-user/submit": true, "POST /blade-user/remove": true}}, env)
	any, admin := resource.Guard(resource.AnyUser), resource.Guard(resource.Admin)
	r.Post("/blade-user/submit", httpx.Handle(admin(s.handleSubmit)))
	r.Post("/blade-user/remove", httpx.Handle(admin(s.handleRemove)))
	read := resource.Guard(resource.AnyUser)
	r.Get("/blade-user/selectUserListPage", httpx.Handle(read(s.handleSelectPage)))
	r.Get("/blade-user/user-list", httpx.Handle(read(s.handleUserList)))
	r.Get("/blade-user/info", httpx.Handle(any(s.handleInfo)))
	r.Get("/blade-user/platform-detail", httpx.Handle(admin(s.handlePlatformDetail)))
	r.Post("/blade-user/update", httpx.Handle(admin(s.handleUpdate)))
	r.Post("/blade-user/update-platform", httpx.Handle(admin(s.handleUpdatePlatform)))
	r.Post("/blade-user/reset-password", httpx.Handle(admin(s.handleResetPassword)))
	r.Post("/blade-user/update-password", httpx.Handle(any(s.handleUpdatePassword)))
	r.Post("/blade-user/update-info", httpx.Handle(any(s.handleUpdateInfo)))
	r.Post("/blade-user/grant", httpx.Handle(admin(s.handleGrant)))
	r.Post("/blade-user/enabledStatus", httpx.Handle(admin(s.handleEnabled)))
	r.Post("/blade-user/quote-submit", httpx.Handle(admin(s.handleQuoteSubmit)))
}

// CreateAdmin makes a new tenant's "admin" account (system.AdminCreator).
func (s *Service) CreateAdmin(ctx context.Context, tx bun.Tx, tenantID string, roleID, deptID wire.ID, passwordMD5 string) error {
	u := &User{Account: "admin", Name: "管理员", RealName: "管理员", UserType: 1, Sex: 3,
		RoleID: roleID.String(), DeptID: deptID.String(), Password: authn.HashPassword(passwordMD5)}
	u.TenantID = tenantID
	return s.Users.Insert(ctx, tx, u)
}
