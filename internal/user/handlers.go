package user

import (
	"context"
	"net/http"
	"slices"
	"strconv"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/resource"
)

var (
	msgUpdated = i18n.T("更新成功", "Updated")
	msgDone    = i18n.T("操作成功", "Done")
)

func (s *Service) handleSelectPage(r *http.Request) (any, error) {
	q, err := s.Users.Meta().ParseQuery(r.URL.Query())
	if err != nil {
		return nil, err
	}
	rows, total, err := s.Users.List(r.Context(), s.DB, q, func(sq *bun.SelectQuery) (*bun.SelectQuery, error) { return s.pageFilter(r, sq) })
	if err != nil {
		return nil, err
	}
	return httpx.NewPage(rows, total, q.Current, q.Size), nil
}

// UserOption is a row of user-list: enough to fill a select.
type UserOption struct {
	ID       wire.ID `json:"id" bun:"id"`
	Account  string  `json:"account" bun:"account"`
	Name     string  `json:"name" bun:"name"`
	RealName string  `json:"realName" bun:"real_name"`
	TenantID string  `json:"tenantId" bun:"tenant_id"`
}

func (s *Service) handleUserList(r *http.Request) (any, error) {
	q, err := s.Users.Select(r.Context(), s.DB, (*User)(nil))
	if err != nil {
		return nil, err
	}
	if v := r.URL.Query().Get("tenantId"); v != "" && authz.From(r.Context()).IsSuper() {
		q = q.Where("tenant_id = ?", v)
	}
	var out []UserOption
	if err := q.Column("id", "account", "name", "real_name", "tenant_id").Where("status = 1").Order("account").Limit(resource.MaxPageSize).Scan(r.Context(), &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = []UserOption{}
	}
	return out, nil
}

func (s *Service) handleInfo(r *http.Request) (any, error) {
	p := authz.From(r.Context())
	u, err := s.Users.Get(r.Context(), s.DB, p.UserID)
	if err != nil {
		return nil, err
	}
	rows := []User{*u}
	if err := s.enrich(r.Context(), s.DB, rows); err != nil {
		return nil, err
	}
	return rows[0], nil
}

// PlatformDetail is the per-platform extension of a user (web, app, other).
type PlatformDetail struct {
	ID       wire.ID `json:"id"`
	Account  string  `json:"account"`
	RealName string  `json:"realName"`
	UserType int     `json:"userType"`
	UserExt  string  `json:"userExt"`
}

func (s *Service) handlePlatformDetail(r *http.Request) (any, error) {
	id, err := httpx.QueryID(r, "id")
	if err != nil {
		return nil, err
	}
	u, err := s.Users.Get(r.Context(), s.DB, id)
	if err != nil {
		return nil, err
	}
	return PlatformDetail{ID: u.ID, Account: u.Account, RealName: u.RealName, UserType: u.UserType, UserExt: u.UserExt}, nil
}

func (s *Service) handleUpdatePlatform(r *http.Request) (any, error) {
	var body struct {
		UserID   wire.ID `json:"userId"`
		ID       wire.ID `json:"id"`
		UserType int     `json:"userType"`
		UserExt  string  `json:"userExt"`
	}
	if err := httpx.DecodeJSON(r, &body); err != nil {
		return nil, err
	}
	if body.UserID == 0 {
		body.UserID = body.ID
	}
	if body.UserID == 0 {
		return nil, httpx.MissingParam("userId")
	}
	if body.UserType < 1 || body.UserType > 3 {
		return nil, httpx.Badf("用户平台不正确", "Unknown user platform")
	}
	ctx := r.Context()
	if _, err := s.targets(ctx, []wire.ID{body.UserID}); err != nil {
		return nil, err
	}
	u := &User{UserType: body.UserType, UserExt: body.UserExt}
	u.ID = body.UserID
	if err := s.DB.Tx(ctx, func(tx bun.Tx) error { return s.Users.Update(ctx, tx, u, []string{"userType", "userExt"}, false) }); err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgUpdated}, nil
}

// handleUpdate is submit restricted to existing users.
func (s *Service) handleUpdate(r *http.Request) (any, error) {
	u, present, err := s.Users.Decode(r)
	if err != nil {
		return nil, err
	}
	if u.ID == 0 {
		return nil, httpx.MissingParam("id")
	}
	if err := s.save(i18n.With(r.Context(), i18n.FromRequest(r)), u, present); err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgUpdated}, nil
}

// handleQuoteSubmit creates or updates a user by account: callers that hold
// only the account (imports, other systems) need not look the id up first.
// The account is looked up in the tenant the user belongs to: the caller's,
// or for the super user the tenantId sent.
func (s *Service) handleQuoteSubmit(r *http.Request) (any, error) {
	u, present, err := s.Users.Decode(r)
	if err != nil {
		return nil, err
	}
	ctx := i18n.With(r.Context(), i18n.FromRequest(r))
	if u.ID == 0 && u.Account != "" {
		q, err := s.Users.Select(ctx, s.DB, (*User)(nil))
		if err != nil {
			return nil, err
		}
		var found struct {
			ID      wire.ID `bun:"id"`
			Version int     `bun:"version"`
		}
		if err := q.Column("id", "version").Where("account = ? AND tenant_id = ?", u.Account, s.tenantOf(ctx, u)).Limit(1).Scan(ctx, &found); err == nil {
			u.ID = found.ID
			// An upsert by account is last-write-wins by design (its callers
			// hold no version): it edits the version it just read.
			if !present["version"] {
				u.Version, present["version"] = found.Version, true
			}
		}
	}
	if err := s.save(ctx, u, present); err != nil {
		return nil, err
	}
	return u.ID.String(), nil
}

// tenantOf is the tenant a new user is created in: the caller's, or for the
// super user the tenantId sent.
func (s *Service) tenantOf(ctx context.Context, u *User) string {
	if p := authz.From(ctx); !p.IsSuper() || u.TenantID == "" {
		return p.TenantID
	}
	return u.TenantID
}

// save is submit for the hand-written entries (update, quote-submit): the
// same hooks run, so the same privilege rules (validate) and session news
// (afterSave, afterCommit) apply.
func (s *Service) save(ctx context.Context, u *User, present map[string]bool) error {
	isNew := u.ID == 0
	if err := s.Users.Check(ctx, u, present, isNew); err != nil {
		return err
	}
	if err := s.DB.Tx(ctx, func(tx bun.Tx) error { return s.Users.Save(ctx, tx, u, present) }); err != nil {
		return err
	}
	return s.afterCommit(ctx, u, isNew)
}

// handleRemove is the resource's remove (Hooks.Routes) behind the privilege
// rules, which read through the plain handle before the transaction opens and
// refuse the whole batch for one id the caller may not see or change (the
// engine's remove passes BeforeRemove only the visible ids, inside the
// transaction); the removed users' sessions end.
func (s *Service) handleRemove(r *http.Request) (any, error) {
	ids, err := httpx.FormIDs(r, "ids")
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := authz.From(ctx)
	if slices.Contains(ids, p.UserID) {
		return nil, httpx.BadRequest(msgSelfRemove)
	}
	if _, err := s.targets(ctx, ids); err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		if _, err := s.Users.Remove(ctx, tx, ids); err != nil {
			return err
		}
		for _, id := range ids {
			if err := s.Sessions.RevokeUser(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: i18n.T("删除成功", "Deleted")}, nil
}

func (s *Service) handleResetPassword(r *http.Request) (any, error) {
	ids, err := httpx.FormIDs(r, "userIds")
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	if _, err := s.targets(ctx, ids); err != nil {
		return nil, err
	}
	hash := authn.HashPassword(ClientPassword(s.Platform.Param(ctx, "account.initPassword", "123456")))
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		for _, id := range ids {
			if _, err := s.Users.Get(ctx, tx, id); err != nil {
				return err
			}
			if _, err := s.updateRaw(ctx, tx, id, "password", hash); err != nil {
				return err
			}
			if err := s.Sessions.RevokeUser(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Password, Title: "重置密码 / Passwords reset", Data: "userIds=" + wire.JoinIDs(ids)})
	return httpx.Message{Text: msgDone}, nil
}

// updateRaw sets one column of a visible user inside tx (scoped by Get first).
func (s *Service) updateRaw(ctx context.Context, tx bun.IDB, id wire.ID, col string, v any) (int64, error) {
	res, err := tx.NewUpdate().Table("blade_user").Set("? = ?", bun.Ident(col), v).Set("update_time = ?", wire.Now()).
		Set("version = version + 1").Where("id = ? AND is_deleted = 0", id).Exec(ctx)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s *Service) handleUpdatePassword(r *http.Request) (any, error) {
	q := r.URL.Query()
	if r.Method == http.MethodPost && r.Header.Get("Content-Type") == "application/x-www-form-urlencoded" {
		if err := r.ParseForm(); err == nil {
			for k, v := range r.PostForm {
				q[k] = v
			}
		}
	}
	oldPw, newPw, newPw1 := q.Get("oldPassword"), q.Get("newPassword"), q.Get("newPassword1")
	for name, v := range map[string]string{"oldPassword": oldPw, "newPassword": newPw, "newPassword1": newPw1} {
		if v == "" {
			return nil, httpx.MissingParam(name)
		}
	}
	if newPw != newPw1 {
		return nil, httpx.BadRequest(msgMismatch)
	}
	ctx := r.Context()
	p := authz.From(ctx)
	var stored string
	if err := s.DB.NewSelect().Table("blade_user").Column("password").Where("id = ? AND is_deleted = 0", p.UserID).Scan(ctx, &stored); err != nil {
		return nil, err
	}
	if ok, _ := authn.VerifyPassword(stored, ClientPassword(oldPw)); !ok {
		return nil, httpx.BadRequest(msgOldPassword)
	}
	hash := authn.HashPassword(ClientPassword(newPw)) // slow: not in the transaction, which holds SQLite's one writer
	err := s.DB.Tx(ctx, func(tx bun.Tx) error {
		if _, err := s.updateRaw(ctx, tx, p.UserID, "password", hash); err != nil {
			return err
		}
		return s.Sessions.RevokeUser(ctx, tx, p.UserID)
	})
	if err != nil {
		return nil, err
	}
	audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Password, Title: "修改密码 / Password changed", Data: "userId=" + p.UserID.String()})
	return httpx.Message{Text: msgUpdated}, nil
}

func (s *Service) handleUpdateInfo(r *http.Request) (any, error) {
	u, present, err := s.Users.Decode(r)
	if err != nil {
		return nil, err
	}
	ctx := i18n.With(r.Context(), i18n.FromRequest(r))
	p := authz.From(ctx)
	u.ID = p.UserID // only one's own profile
	allowed := map[string]bool{"avatar": true, "name": true, "realName": true, "phone": true, "email": true, "sex": true, "birthday": true}
	var cols []string
	for k := range present {
		if allowed[k] {
			cols = append(cols, k)
		} else {
			delete(present, k)
		}
	}
	if err := s.Users.Check(ctx, u, present, false); err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, httpx.Badf("没有可更新的字段", "Nothing to update")
	}
	// A user's own profile is theirs to edit whatever the data scope says.
	if err := s.DB.Tx(ctx, func(tx bun.Tx) error { return s.Users.UpdateUnscoped(ctx, tx, u, cols, "own profile") }); err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgUpdated}, nil
}

func (s *Service) handleGrant(r *http.Request) (any, error) {
	userIDs, err := httpx.FormIDs(r, "userIds")
	if err != nil {
		return nil, err
	}
	roleIDs, err := httpx.FormIDs(r, "roleIds")
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	users, err := s.targets(ctx, userIDs)
	if err != nil {
		return nil, err
	}
	roles := wire.JoinIDs(roleIDs)
	for _, u := range users {
		if err := s.mayAssign(ctx, u.TenantID, roles); err != nil {
			return nil, err
		}
	}
	err = s.write(ctx, userIDs, func(tx bun.Tx) error {
		for _, id := range userIDs {
			u := &User{RoleID: roles}
			u.ID = id
			if err := s.Users.Update(ctx, tx, u, []string{"roleId"}, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Grant, Title: "分配角色 / Roles assigned", Data: "userIds=" + wire.JoinIDs(userIDs) + "; roleIds=" + roles})
	return httpx.Message{Text: msgDone}, nil
}

func (s *Service) handleEnabled(r *http.Request) (any, error) {
	ids, err := httpx.FormIDs(r, "ids")
	if err != nil {
		return nil, err
	}
	raw := r.URL.Query().Get("enabledStatus")
	if raw == "" {
		_ = r.ParseForm()
		raw = r.PostForm.Get("enabledStatus")
	}
	status, err := strconv.Atoi(raw)
	if err != nil || (status != 0 && status != 1) {
		return nil, httpx.InvalidParam("enabledStatus")
	}
	ctx := r.Context()
	if status == 0 && slices.Contains(ids, authz.From(ctx).UserID) {
		return nil, errSelfDisable
	}
	if _, err := s.targets(ctx, ids); err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(tx bun.Tx) error {
		for _, id := range ids {
			u := &User{}
			u.ID, u.Status = id, status
			if err := s.Users.Update(ctx, tx, u, []string{"status"}, false); err != nil {
				return err
			}
			if status == 0 {
				if err := s.Sessions.RevokeUser(ctx, tx, id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgDone}, nil
}
