package user

import (
	"context"
	"errors"
	"net/http"
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

// Platform is what blade-user needs from blade-system.
type Platform interface {
	Tenant(ctx context.Context, tenantID string) (*auth.TenantInfo, error)
	TenantIn(ctx context.Context, idb bun.IDB, tenantID string) (*auth.TenantInfo, error)
	Param(ctx context.Context, key, def string) string
	Names(ctx context.Context, tenantID, kind string, ids []wire.ID) (map[wire.ID]string, error)
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
	// Audit keeps the usual log of password changes and role assignments; nil keeps none.
	Audit audit.Recorder
}

// New declares the user resource.
func New(d *db.DB, p Platform, sessions Sessions) *Service {
	s := &Service{DB: d, Platform: p, Sessions: sessions}
	s.Users = resource.New(resource.Spec{
		Service: "blade-user", Name: "user", URLPath: "/blade-user", Table: "blade_user", Label: i18n.T("用户", "User"),
		MenuCode: "user", Scope: resource.TenantAdmin, Write: resource.Admin, DataScope: true,
		Routes: []string{"page", "detail", "submit", "remove", "export"},
		Unique: [][]string{{"account"}},
		Lookup: Lookup(),
	}, resource.Hooks[User]{
		Query:       s.pageFilter,
		Enrich:      s.enrich,
		Validate:    s.validate,
		BeforeSave:  s.beforeSave,
		AfterSave:   s.afterSave,
		AfterCommit: s.afterCommit,
		// remove checks its targets before the transaction (handleRemove)
		Routes:   map[string]httpx.HandlerFunc{"remove": s.handleRemove},
		Commands: s.auditCommands(), // audit.go
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
	// names are read per tenant: a user's roles, departments and posts are
	// its tenant's, and the super user's page mixes tenants
	type idsOf struct{ role, dept, post []wire.ID }
	byTenant := map[string]*idsOf{}
	for _, u := range rows {
		ids := byTenant[u.TenantID]
		if ids == nil {
			ids = &idsOf{}
			byTenant[u.TenantID] = ids
		}
		r, _ := wire.ParseIDs(u.RoleID)
		d, _ := wire.ParseIDs(u.DeptID)
		p, _ := wire.ParseIDs(u.PostID)
		ids.role, ids.dept, ids.post = append(ids.role, r...), append(ids.dept, d...), append(ids.post, p...)
	}
	type namesOf struct{ role, dept, post map[wire.ID]string }
	named := make(map[string]namesOf, len(byTenant))
	for tenantID, ids := range byTenant {
		var n namesOf
		var err error
		if n.role, err = s.Platform.Names(ctx, tenantID, "role", ids.role); err != nil {
			return err
		}
		if n.dept, err = s.Platform.Names(ctx, tenantID, "dept", ids.dept); err != nil {
			return err
		}
		if n.post, err = s.Platform.Names(ctx, tenantID, "post", ids.post); err != nil {
			return err
		}
		named[tenantID] = n
	}
	for i := range rows {
		n := named[rows[i].TenantID]
		rows[i].RoleName = names(rows[i].RoleID, n.role)
		rows[i].DeptName = names(rows[i].DeptID, n.dept)
		rows[i].PostName = names(rows[i].PostID, n.post)
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

// validate holds the privilege rules of a user save (privilege.go), in their
// order: the target may be changed by the caller, the roles sent may be
// given by them, nobody disables their own account. The rules read through
// the plain handle, so they run here, before the transaction; the stored
// user they judge is the one the save finds, since the save refuses any
// other version. A new user's password is hashed here too: in the
// transaction the slow hash would hold SQLite's one writer.
func (s *Service) validate(ctx context.Context, u *User, present map[string]bool, isNew bool) error {
	p := authz.From(ctx)
	tenantID := s.tenantOf(ctx, u)
	if !isNew {
		if u.ID == p.UserID {
			// One's own account: mayChange passes it (an account holding
			// administrator in 000000 is the super user), it is of the
			// caller's tenant, and reading it could fail where the caller's
			// data scope hides it (update-info of a plain user).
			tenantID = p.TenantID
		} else {
			cur, err := s.Users.Get(ctx, s.DB, u.ID)
			if err != nil {
				return err
			}
			if err := s.mayChange(ctx, cur); err != nil {
				return err
			}
			tenantID = cur.TenantID
		}
	}
	if isNew || present["roleId"] {
		if err := s.mayAssign(ctx, tenantID, u.RoleID); err != nil {
			return err
		}
	}
	if !isNew && present["status"] && u.Status != auth.UserEnabled && u.ID == p.UserID {
		return errSelfDisable
	}
	if isNew && u.Password != "" {
		u.Password = authn.HashPassword(ClientPassword(u.Password))
	}
	return nil
}

func (s *Service) beforeSave(ctx context.Context, tx bun.Tx, u *User, isNew bool) error {
	// role, dept and post ids were checked as references before this hook (resource/ref.go)
	if !isNew {
		return nil
	}
	if u.Password == "" {
		return httpx.BadRequest(msgPassword)
	}
	if !strings.HasPrefix(u.Password, "$argon2id$") {
		// validate hashes it; a save that skipped Check must not store the client's form
		return errors.New("user: a new user's password reached the save unhashed")
	}
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

// afterSave ends the sessions of a disabled account and tells those of a
// changed one to re-read it, in the save transaction: a store that cannot
// take the news aborts the change.
func (s *Service) afterSave(ctx context.Context, tx bun.Tx, u *User, isNew bool) error {
	if isNew {
		return nil
	}
	if resource.Sent(ctx, "status") && u.Status != auth.UserEnabled {
		if err := s.Sessions.RevokeUser(ctx, tx, u.ID); err != nil {
			return err
		}
	}
	return s.Sessions.UsersChanged(ctx, u.ID)
}

// afterCommit tells a changed account's sessions again: a request between
// the save and the commit may have re-read the row as it was.
func (s *Service) afterCommit(ctx context.Context, u *User, isNew bool) error {
	if isNew {
		return nil
	}
	return s.Sessions.UsersChanged(ctx, u.ID)
}

// Mount adds the generic and extra blade-user routes.
func (s *Service) Mount(r chi.Router, env *resource.Env) {
	s.Users.Mount(r, env)
	any, admin := resource.Guard(resource.AnyUser), resource.Guard(resource.Admin)
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
func (s *Service) CreateAdmin(ctx context.Context, tx bun.Tx, tenantID string, roleID, deptID wire.ID, passwordHash string) error {
	u := &User{Account: "admin", Name: "管理员", RealName: "管理员", UserType: 1, Sex: 3,
		RoleID: roleID.String(), DeptID: deptID.String(), Password: passwordHash}
	u.TenantID = tenantID
	return s.Users.Insert(ctx, tx, u)
}
