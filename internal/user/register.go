package user

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// OAuthBinder is the social-login side of registration: blade-auth owns
// blade_user_oauth; registration reads an identity and binds it to the new
// user inside its own transaction.
type OAuthBinder interface {
	OAuthIdentity(ctx context.Context, idb bun.IDB, tenantID string, id wire.ID) (*auth.OAuthIdentity, error)
	BindOAuth(ctx context.Context, idb bun.IDB, tenantID string, id, userID wire.ID) (bool, error)
}

// Registration serves POST /blade-user/register-guest (public, while the
// account.registerUser parameter is true): a visitor asks for an account of
// a tenant. The account is created waiting for approval (status 2), and
// bound to the third-party identity when the visitor came from a social
// login (oauthId). An administrator approves it (auditPass, or enables it
// with enabledStatus) or rejects it (auditRefuse, which removes it); until
// then it cannot sign in.
type Registration struct {
	Users *Service
	OAuth OAuthBinder
}

// Mount adds the route.
func (g *Registration) Mount(r chi.Router) {
	r.Post("/blade-user/register-guest", httpx.Handle(g.handleRegister))
}

// RoleGuest is the role alias a registered user gets when the tenant has it.
const RoleGuest = "user"

var (
	msgRegTenant    = httpx.BadRequest(i18n.T("请先输入租户编号", "Please enter the tenant ID first"))
	msgRegAccount   = httpx.BadRequest(i18n.T("请先输入账号名称", "Please enter the account name first"))
	msgRegPassword  = httpx.BadRequest(i18n.T("请先输入密码", "Please enter the password first"))
	msgRegClosed    = httpx.BadRequest(i18n.T("当前系统未开启注册功能", "Registration is not open"))
	msgRegNoTenant  = httpx.BadRequest(i18n.T("租户ID未找到", "Tenant ID not found"))
	msgRegExpired   = httpx.BadRequest(i18n.T("租户授权已过期,请联系管理员", "The tenant's licence has expired; contact the administrator"))
	msgRegOAuth     = httpx.BadRequest(i18n.T("第三方登录信息错误,请重新登录", "The third-party login information is invalid; sign in again"))
	msgRegBound     = httpx.BadRequest(i18n.T("该第三方账号已绑定用户,请直接登录", "This third-party account is already bound to a user; sign in directly"))
	msgRegExists    = httpx.BadRequest(i18n.T("登录账号已存在", "Account already exists"))
	msgRegAccFormat = httpx.BadRequest(i18n.T("登录账号格式不正确", "Account is not in a valid format"))
	msgRegAccLen    = httpx.BadRequest(i18n.T("登录账号长度不能超过45个字符", "Account must be at most 45 characters"))
	msgRegNameLen   = httpx.BadRequest(i18n.T("用户昵称长度不能超过20个字符", "Nickname must be at most 20 characters"))
	msgRegDone      = i18n.T("注册申请已提交,请耐心等待管理员通过!", "Your registration has been submitted; please wait for an administrator to approve it!")

	accountPattern = regexp.MustCompile(`^[A-Za-z0-9_.@-]+$`)
	emailPattern   = regexp.MustCompile(`^[^@\s]+@[^@\s]+$`)
)

// guestForm is the register-guest payload (query, form or JSON body).
type guestForm struct {
	TenantID string `json:"tenantId"`
	Name     string `json:"name"`
	Account  string `json:"account"`
	Password string `json:"password"`
	OAuthID  string `json:"oauthId"`
}

func readGuestForm(r *http.Request) (*guestForm, error) {
	q := r.URL.Query()
	f := &guestForm{TenantID: q.Get("tenantId"), Name: q.Get("name"), Account: q.Get("account"), Password: q.Get("password"),
		OAuthID: q.Get("oauthId")}
	ct := r.Header.Get("Content-Type")
	var body guestForm
	switch {
	case strings.HasPrefix(ct, "application/x-www-form-urlencoded"):
		if err := r.ParseForm(); err != nil {
			return nil, httpx.Badf("请求体格式错误", "The request body is malformed")
		}
		body = guestForm{TenantID: r.PostForm.Get("tenantId"), Name: r.PostForm.Get("name"), Account: r.PostForm.Get("account"),
			Password: r.PostForm.Get("password"), OAuthID: r.PostForm.Get("oauthId")}
	case strings.HasPrefix(ct, "application/json"):
		raw, err := httpx.ReadBody(r)
		if err != nil {
			return nil, err
		}
		if len(strings.TrimSpace(string(raw))) > 0 {
			// ids may come as strings or numbers; numbers keep every digit
			var loose map[string]any
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			if err := dec.Decode(&loose); err != nil {
				return nil, httpx.ErrBadJSON
			}
			str := func(k string) string {
				switch v := loose[k].(type) {
				case string:
					return v
				case json.Number:
					return v.String()
				}
				return ""
			}
			body = guestForm{TenantID: str("tenantId"), Name: str("name"), Account: str("account"), Password: str("password"), OAuthID: str("oauthId")}
		}
	}
	pick := func(a, b string) string { return strings.TrimSpace(firstOf(a, b)) }
	f.TenantID, f.Name, f.Account, f.OAuthID = pick(f.TenantID, body.TenantID), pick(f.Name, body.Name), pick(f.Account, body.Account), pick(f.OAuthID, body.OAuthID)
	f.Password = firstOf(f.Password, body.Password)
	return f, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (g *Registration) handleRegister(r *http.Request) (any, error) {
	f, err := readGuestForm(r)
	if err != nil {
		return nil, err
	}
	if err := g.Register(r.Context(), f); err != nil {
		return nil, err
	}
	return httpx.Message{Text: msgRegDone}, nil
}

// Register validates the form and creates the pending, bound account.
func (g *Registration) Register(ctx context.Context, f *guestForm) error {
	switch {
	case f.TenantID == "":
		return msgRegTenant
	case f.Account == "":
		return msgRegAccount
	case f.Password == "":
		return msgRegPassword
	case utf8.RuneCountInString(f.Account) > 45:
		return msgRegAccLen
	case !accountPattern.MatchString(f.Account):
		return msgRegAccFormat
	case utf8.RuneCountInString(f.Name) > 20:
		return msgRegNameLen
	}
	s := g.Users
	if s.Platform.Param(ctx, "account.registerUser", "false") != "true" {
		return msgRegClosed
	}
	t, err := s.Platform.Tenant(ctx, f.TenantID)
	if err != nil {
		return err
	}
	if t == nil {
		return msgRegNoTenant
	}
	if f.TenantID != authz.SuperTenant && !t.ExpireTime.IsZero() && t.ExpireTime.Before(time.Now()) {
		return msgRegExpired
	}
	// Without a third-party login the guest registers an account of its own;
	// with one, the account is bound to that identity.
	var oauthID wire.ID
	if f.OAuthID != "" {
		id, err := wire.ParseID(f.OAuthID)
		if err != nil || id == 0 || g.OAuth == nil {
			return msgRegOAuth
		}
		oauthID = id
	}
	hash := authn.HashPassword(ClientPassword(f.Password)) // slow: not in the transaction, which holds SQLite's one writer
	return s.DB.Tx(ctx, func(tx bun.Tx) error {
		ident := &auth.OAuthIdentity{}
		if oauthID != 0 {
			var err error
			if ident, err = g.OAuth.OAuthIdentity(ctx, tx, f.TenantID, oauthID); err != nil {
				return err
			}
			if ident == nil {
				return msgRegOAuth
			}
			if ident.UserID != 0 {
				return msgRegBound
			}
		}
		exists, err := tx.NewSelect().Table("blade_user").Where("tenant_id = ? AND account = ? AND is_deleted = 0", f.TenantID, f.Account).Exists(ctx)
		if err != nil {
			return err
		}
		if exists {
			return msgRegExists
		}
		if t.AccountNumber >= 0 {
			n, err := tx.NewSelect().Table("blade_user").Where("tenant_id = ? AND is_deleted = 0", f.TenantID).Count(ctx)
			if err != nil {
				return err
			}
			if n >= int64(t.AccountNumber) {
				return httpx.BadRequest(msgQuota)
			}
		}
		// The guest role and the root department of the tenant (blade-system's
		// rows, read the way handleGrant reads roles).
		var roleID, deptID wire.ID
		if err := tx.NewSelect().Table("blade_role").Column("id").
			Where("tenant_id = ? AND role_alias = ? AND is_deleted = 0", f.TenantID, RoleGuest).Limit(1).Scan(ctx, &roleID); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := tx.NewSelect().Table("blade_dept").Column("id").
			Where("tenant_id = ? AND parent_id = 0 AND is_deleted = 0", f.TenantID).OrderExpr("sort ASC, id ASC").Limit(1).Scan(ctx, &deptID); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		name := f.Name
		if name == "" {
			name = clipRunes(firstOf(ident.Nickname, f.Account), 20)
		}
		u := &User{Account: f.Account, Name: name, RealName: clipRunes(name, 10), UserType: 1, Sex: 3,
			Password: hash}
		u.TenantID, u.Status = f.TenantID, auth.UserPending
		if utf8.RuneCountInString(ident.Avatar) <= 500 {
			u.Avatar = ident.Avatar
		}
		if utf8.RuneCountInString(ident.Email) <= 45 && emailPattern.MatchString(ident.Email) {
			u.Email = ident.Email
		}
		if roleID != 0 {
			u.RoleID = roleID.String()
		}
		if deptID != 0 {
			u.DeptID = deptID.String()
		}
		if err := s.Users.Insert(ctx, tx, u); err != nil {
			if db.IsUniqueViolation(err) {
				return msgRegExists
			}
			return err
		}
		if oauthID == 0 {
			return nil
		}
		ok, err := g.OAuth.BindOAuth(ctx, tx, f.TenantID, oauthID, u.ID)
		if err != nil {
			return err
		}
		if !ok {
			return msgRegBound // a concurrent registration bound it first
		}
		return nil
	})
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
