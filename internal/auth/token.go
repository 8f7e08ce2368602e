package auth

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// OAuthError is the raw OAuth2 error body the login page reads.
type OAuthError struct {
	Status      int
	Code        string
	Description i18n.Text
}

func (e *OAuthError) Error() string { return e.Code + ": " + e.Description.Zh }

// The login error table (api-contract.md §1).
var (
	errBadClient      = &OAuthError{401, "invalid_client", i18n.T("客户端认证失败", "Client authentication failed")}
	errGrantType      = &OAuthError{400, "unsupported_grant_type", i18n.T("不支持的授权类型", "Unsupported grant type")}
	errBadCredentials = &OAuthError{400, "invalid_grant", i18n.T("用户名或密码错误", "Wrong user name or password")}
	errCaptcha        = &OAuthError{400, "invalid_grant", i18n.T("验证码不正确", "The captcha is wrong")}
	errNoTenant       = &OAuthError{400, "invalid_grant", i18n.T("租户ID未找到", "Tenant ID not found")}
	errLocked         = &OAuthError{400, "invalid_grant", i18n.T("登录错误次数过多,请稍后再试", "Too many failed logins; try again later")}
	errTenantExpired  = &OAuthError{400, "invalid_grant", i18n.T("租户授权已过期,请联系管理员", "The tenant's licence has expired; contact the administrator")}
	errNoRoles        = &OAuthError{400, "invalid_grant", i18n.T("未获得用户的角色信息", "The user has no roles")}
	errDisabled       = &OAuthError{400, "invalid_grant", i18n.T("该账号已被禁用,请联系管理员", "This account is disabled; contact the administrator")}
	errPending        = &OAuthError{400, "invalid_grant", i18n.T("账号正在等待管理员审核", "The account is waiting for administrator approval")}
	errBadRefresh     = &OAuthError{400, "invalid_grant", i18n.T("刷新令牌已失效", "The refresh token is no longer valid")}
	errBadSMS         = &OAuthError{400, "invalid_grant", i18n.T("短信验证码不正确", "The SMS code is wrong")}
	errMissing        = &OAuthError{400, "invalid_request", i18n.T("缺少必要的登录参数", "Missing login parameters")}
)

// Status values of blade_user.status.
const (
	UserEnabled  = 1
	UserDisabled = 0
	UserPending  = 2 // registered through a social login, waiting for approval
)

// LockMinutes is how long an account stays locked after too many failures.
const LockMinutes = 30

// Service issues and checks tokens.
type Service struct {
	DB       *db.DB
	Users    Users
	Platform Platform
	Signer   *authn.Signer
	Revoked  *Revocations
	Captcha  CaptchaStore
	SMS      CodeStore
	Social   SocialLogin // optional; nil disables grant_type=social
	// Avatar re-signs a stored avatar link for the login answer; nil leaves it.
	Avatar func(tenantID, link string) string
	// ClearCache drops the server caches (oauth/clear-cache).
	ClearCache func()
	// Audit keeps the usual log of sign-ins, lockouts and sign-outs (audit.go); nil keeps none.
	Audit audit.Recorder

	principals principalCache // sessions whose account changed (session.go)
}

// CaptchaStore verifies one-use captcha answers.
type CaptchaStore interface {
	New() (key, image string, err error)
	Verify(key, answer string) bool
}

// CodeStore verifies one-use SMS codes for phone login.
type CodeStore interface {
	Verify(ctx context.Context, tenantID, phone, code string) bool
}

// SocialLogin resolves a social grant to a bound account (or the data needed to register one).
type SocialLogin interface {
	Resolve(ctx context.Context, tenantID, source, code, state string) (*Account, *SocialIdentity, error)
}

// SocialIdentity is a third-party user not yet bound to an account.
type SocialIdentity struct {
	OAuthID  wire.ID
	Source   string
	Username string
	Nickname string
	Avatar   string
}

// TokenResponse is the raw OAuth2 success body.
type TokenResponse struct {
	AccessToken  string         `json:"access_token"`
	TokenType    string         `json:"token_type"`
	RefreshToken string         `json:"refresh_token"`
	ExpiresIn    int            `json:"expires_in"`
	Scope        string         `json:"scope"`
	TenantID     string         `json:"tenant_id"`
	UserID       string         `json:"user_id"`
	DeptID       string         `json:"dept_id"`
	PostID       string         `json:"post_id"`
	RoleID       string         `json:"role_id"`
	OAuthID      string         `json:"oauth_id"`
	Account      string         `json:"account"`
	UserName     string         `json:"user_name"`
	NickName     string         `json:"nick_name"`
	RealName     string         `json:"real_name"`
	RoleName     string         `json:"role_name"`
	Avatar       string         `json:"avatar"`
	Detail       map[string]any `json:"detail"`
	License      string         `json:"license"`
	JTI          string         `json:"jti"`
}

// clientFromBasic checks the Basic header against the client table.
func (s *Service) clientFromBasic(ctx context.Context, r *http.Request) (*ClientInfo, error) {
	h := r.Header.Get("Authorization")
	if !strings.HasPrefix(h, "Basic ") {
		return nil, errBadClient
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(h, "Basic "))
	if err != nil {
		return nil, errBadClient
	}
	id, secret, ok := strings.Cut(string(raw), ":")
	if !ok || id == "" {
		return nil, errBadClient
	}
	c, err := s.Platform.Client(ctx, id)
	if err != nil {
		return nil, err
	}
	if c == nil || subtle.ConstantTimeCompare([]byte(c.Secret), []byte(secret)) != 1 {
		return nil, errBadClient
	}
	return c, nil
}

// token answers POST /oauth/token for every grant (Token logs it, audit.go).
func (s *Service) token(r *http.Request) (*TokenResponse, error) {
	ctx := r.Context()
	client, err := s.clientFromBasic(ctx, r)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	if r.Method == http.MethodPost && strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if err := r.ParseForm(); err == nil {
			for k, v := range r.PostForm {
				if q.Get(k) == "" {
					q[k] = v
				}
			}
		}
	}
	grant := q.Get("grant_type")
	if grant == "" {
		return nil, errMissing
	}
	if !slices.Contains(client.GrantTypes, grant) {
		return nil, errGrantType
	}
	tenantID := firstNonEmpty(r.Header.Get("Tenant-Id"), q.Get("tenantId"), authz.SuperTenant)
	switch grant {
	case "password", "captcha":
		if grant == "captcha" && !s.Captcha.Verify(r.Header.Get("Captcha-Key"), r.Header.Get("Captcha-Code")) {
			return nil, errCaptcha
		}
		if q.Get("type") == "phone" {
			return s.phoneLogin(ctx, r, client, tenantID, firstNonEmpty(q.Get("phone"), q.Get("username")), q.Get("code"))
		}
		return s.passwordLogin(ctx, r, client, tenantID, q.Get("username"), q.Get("password"))
	case "refresh_token":
		return s.refresh(ctx, r, client, q.Get("refresh_token"))
	case "social":
		if s.Social == nil {
			return nil, errGrantType
		}
		acc, ident, err := s.Social.Resolve(ctx, tenantID, q.Get("source"), q.Get("code"), q.Get("state"))
		if err != nil {
			return nil, err
		}
		if acc == nil {
			// No bound account yet: the UI opens the registration dialog with this oauth id.
			return &TokenResponse{TenantID: tenantID, OAuthID: ident.OAuthID.String(), UserID: "-1",
				Account: ident.Username, UserName: ident.Username, NickName: ident.Nickname, Avatar: ident.Avatar,
				Detail: map[string]any{"type": "social", "source": ident.Source}}, nil
		}
		resp, err := s.issueFor(ctx, r, client, acc, "")
		if err == nil && ident != nil {
			resp.OAuthID = ident.OAuthID.String()
		}
		return resp, err
	}
	return nil, errGrantType
}

// tenantState refuses a tenant that is gone or whose licence has expired
// (the platform tenant never expires).
func tenantState(t *TenantInfo, tenantID string) error {
	if t == nil {
		return errNoTenant
	}
	if tenantID != authz.SuperTenant && !t.ExpireTime.IsZero() && t.ExpireTime.Before(time.Now()) {
		return errTenantExpired
	}
	return nil
}

func (s *Service) checkTenant(ctx context.Context, tenantID string) error {
	t, err := s.Platform.Tenant(ctx, tenantID)
	if err != nil {
		return err
	}
	return tenantState(t, tenantID)
}

// maxAccountLen is the account column's width: no longer name can exist.
const maxAccountLen = 45

func (s *Service) passwordLogin(ctx context.Context, r *http.Request, client *ClientInfo, tenantID, account, password string) (*TokenResponse, error) {
	if account == "" || password == "" {
		return nil, errMissing
	}
	if err := s.checkTenant(ctx, tenantID); err != nil {
		return nil, err
	}
	if len(account) > maxAccountLen {
		return nil, errBadCredentials
	}
	maxFail, _ := strconv.Atoi(s.Platform.Param(ctx, "account.failCount", "5"))
	if maxFail <= 0 {
		maxFail = 5
	}
	// The attempt is counted before the password is checked, in one
	// statement: of any number of concurrent attempts at most maxFail are
	// ever checked before the account locks.
	n, err := s.countAttempt(ctx, tenantID, account, maxFail)
	if err != nil {
		return nil, err
	} else if n > maxFail {
		return nil, errLocked
	}
	acc, err := s.Users.ByAccount(ctx, tenantID, account)
	if err != nil {
		return nil, err
	}
	if acc == nil {
		return nil, errBadCredentials
	}
	ok, upgrade := authn.VerifyPassword(acc.Password, password)
	if !ok {
		if n == maxFail {
			s.auditLockout(ctx, tenantID, account, maxFail) // this failure locks the account
		}
		return nil, errBadCredentials // the attempt stays counted
	}
	if upgrade {
		if err := s.Users.SetPasswordHash(ctx, acc.ID, authn.HashPassword(password)); err != nil {
			return nil, err
		}
	}
	if err := s.clearFailures(ctx, tenantID, account); err != nil {
		return nil, err
	}
	return s.issueFor(ctx, r, client, acc, "")
}

func (s *Service) phoneLogin(ctx context.Context, r *http.Request, client *ClientInfo, tenantID, phone, code string) (*TokenResponse, error) {
	if phone == "" || code == "" {
		return nil, errMissing
	}
	if err := s.checkTenant(ctx, tenantID); err != nil {
		return nil, err
	}
	if s.SMS == nil || !s.SMS.Verify(ctx, tenantID, phone, code) {
		return nil, errBadSMS
	}
	acc, err := s.Users.ByPhone(ctx, tenantID, phone)
	if err != nil {
		return nil, err
	}
	if acc == nil {
		return nil, errBadCredentials
	}
	return s.issueFor(ctx, r, client, acc, "")
}

// claimsFor reads an account as it is now and makes the claims of its
// session: state, roles and departments (narrowed to rolePick and deptPick
// when the account holds them) and the generations they were read at.
func (s *Service) claimsFor(ctx context.Context, userID wire.ID, tenantID, rolePick, deptPick string) (*authn.Claims, *Account, error) {
	// The generations first: a change committed after this read moves them
	// on again, so the claims can be older than their generations, never newer.
	ug, tg := s.Revoked.Generations(ctx, userID, tenantID)
	acc, err := s.Users.ByID(ctx, userID)
	if err != nil {
		return nil, nil, err
	}
	if acc == nil || acc.TenantID != tenantID {
		return nil, nil, errBadCredentials
	}
	switch acc.Status {
	case UserEnabled:
	case UserPending:
		return nil, nil, errPending
	default:
		return nil, nil, errDisabled
	}
	roleIDs, rolePick := pick(acc.RoleIDs, rolePick)
	if len(roleIDs) == 0 {
		return nil, nil, errNoRoles
	}
	aliases, err := s.Platform.RoleAliases(ctx, acc.TenantID, roleIDs)
	if err != nil {
		return nil, nil, err
	}
	if len(aliases) == 0 {
		return nil, nil, errNoRoles
	}
	deptIDs, deptPick := pick(acc.DeptIDs, deptPick)
	return &authn.Claims{
		TenantID: acc.TenantID, UserID: acc.ID.String(), Account: acc.Account, UserName: acc.Account,
		RealName: acc.RealName, DeptID: wire.JoinIDs(deptIDs), PostID: wire.JoinIDs(acc.PostIDs),
		RoleID: wire.JoinIDs(roleIDs), RoleName: strings.Join(aliases, ","),
		UserGen: ug, TenantGen: tg, RolePick: rolePick, DeptPick: deptPick,
	}, acc, nil
}

// issueFor checks the account's state and roles and issues a token pair of
// the session sid (a new session when empty).
func (s *Service) issueFor(ctx context.Context, r *http.Request, client *ClientInfo, acc *Account, sid string) (*TokenResponse, error) {
	c, acc, err := s.claimsFor(ctx, acc.ID, acc.TenantID, r.Header.Get("Role-Id"), r.Header.Get("Dept-Id"))
	if err != nil {
		return nil, err
	}
	if sid == "" {
		sid = authn.NewSessionID()
	}
	c.ClientID, c.SessionID = client.ClientID, sid
	c.Kind = "access"
	access, ac, err := s.Signer.Issue(*c, time.Duration(client.AccessTTL)*time.Second)
	if err != nil {
		return nil, err
	}
	c.Kind = "refresh"
	refresh, _, err := s.Signer.Issue(*c, time.Duration(client.RefreshTTL)*time.Second)
	if err != nil {
		return nil, err
	}
	avatar := acc.Avatar
	if s.Avatar != nil {
		avatar = s.Avatar(acc.TenantID, avatar)
	}
	userType := r.Header.Get("User-Type")
	if userType == "" {
		userType = "web"
	}
	return &TokenResponse{
		AccessToken: access, TokenType: "bearer", RefreshToken: refresh, ExpiresIn: client.AccessTTL, Scope: "all",
		TenantID: acc.TenantID, UserID: acc.ID.String(), DeptID: c.DeptID, PostID: c.PostID, RoleID: c.RoleID,
		Account: acc.Account, UserName: acc.Account, NickName: firstNonEmpty(acc.Name, acc.RealName, acc.Account),
		RealName: acc.RealName, RoleName: c.RoleName, Avatar: avatar, Detail: map[string]any{"type": userType},
		License: "powered by bluebird", JTI: ac.ID,
	}, nil
}

// tokenRef names what the standing of a verified token depends on.
func tokenRef(c *authn.Claims, userID wire.ID) TokenRef {
	return TokenRef{JTI: c.ID, SessionID: c.SessionID, UserID: userID, TenantID: c.TenantID, Issued: c.IssuedAt.Time}
}

// refresh rotates a refresh token: the old one is revoked, a new pair of the
// same session issued, from the account as it is now.
func (s *Service) refresh(ctx context.Context, r *http.Request, client *ClientInfo, token string) (*TokenResponse, error) {
	if token == "" {
		return nil, errMissing
	}
	c, err := s.Signer.Verify(token)
	if err != nil || c.Kind != "refresh" || c.ClientID != client.ClientID {
		return nil, errBadRefresh
	}
	uid, err := wire.ParseID(c.UserID)
	if err != nil || s.Revoked.Check(ctx, tokenRef(c, uid)).Revoked {
		return nil, errBadRefresh
	}
	if err := s.checkTenant(ctx, c.TenantID); err != nil {
		return nil, err
	}
	if won, err := s.Revoked.Consume(ctx, s.DB, c.ID, c.ExpiresAt.Time); err != nil {
		return nil, err
	} else if !won {
		return nil, errBadRefresh // another request used this refresh token first
	}
	// keep the department and role the session was opened with
	if r.Header.Get("Dept-Id") == "" {
		r.Header.Set("Dept-Id", c.DeptPick)
	}
	if r.Header.Get("Role-Id") == "" {
		r.Header.Set("Role-Id", c.RolePick)
	}
	resp, err := s.issueFor(ctx, r, client, &Account{ID: uid, TenantID: c.TenantID}, c.SessionID)
	if errors.Is(err, errBadCredentials) {
		return nil, errBadRefresh // the account is gone
	}
	return resp, err
}

// Logout ends the session of the presented tokens: the tokens themselves and,
// through their session id, every other token of that login (the refresh
// token the web app does not send). An expired token still names its session.
func (s *Service) Logout(ctx context.Context, access, refresh string) error {
	for _, t := range []string{access, refresh} {
		if t == "" {
			continue
		}
		c, err := s.Signer.VerifyIgnoringExpiry(t)
		if err != nil {
			continue
		}
		if err := s.Revoked.RevokeToken(ctx, s.DB, c.ID, c.ExpiresAt.Time); err != nil {
			return err
		}
		if c.Kind == "access" {
			s.auditLogout(ctx, c)
		}
		if c.SessionID == "" {
			continue
		}
		if err := s.Revoked.RevokeSession(ctx, s.DB, c.SessionID, s.sessionEnd(ctx, c)); err != nil {
			return err
		}
	}
	return nil
}

// sessionEnd is when the last token a session may have issued expires: a
// refresh token issued now, or the given token if it lives longer.
func (s *Service) sessionEnd(ctx context.Context, c *authn.Claims) time.Time {
	ttl := DefaultRevokedUserTTL // the client is gone: keep the revocation as long as any token
	if client, err := s.Platform.Client(ctx, c.ClientID); err == nil && client != nil {
		ttl = time.Duration(max(client.RefreshTTL, client.AccessTTL)) * time.Second
	}
	end := time.Now().Add(ttl)
	if c.ExpiresAt.After(end) {
		end = c.ExpiresAt.Time
	}
	return end
}

// Authenticate verifies a Blade-Auth header value and builds the principal.
// The claims are trusted only while the user's and tenant's generations are
// those the token was issued at; otherwise the account is read again
// (session.go), and a disabled or removed user, or an expired or removed
// tenant, is refused.
func (s *Service) Authenticate(ctx context.Context, header string) (*authz.Principal, error) {
	tok := strings.TrimSpace(header)
	if len(tok) > 7 && strings.EqualFold(tok[:7], "bearer ") {
		tok = strings.TrimSpace(tok[7:])
	}
	if tok == "" {
		return nil, httpx.ErrUnauthorized
	}
	c, err := s.Signer.Verify(tok)
	if err != nil || c.Kind != "access" {
		return nil, httpx.ErrTokenInvalid
	}
	uid, err := wire.ParseID(c.UserID)
	if err != nil {
		return nil, httpx.ErrTokenInvalid
	}
	st := s.Revoked.Check(ctx, tokenRef(c, uid))
	if st.Revoked {
		return nil, httpx.ErrTokenInvalid
	}
	var p *authz.Principal
	if st.GensKnown && st.UserGen == c.UserGen && st.TenantGen == c.TenantGen {
		p = principalOf(c, uid)
	} else if p, err = s.current(ctx, c, uid, st); err != nil {
		return nil, err
	}
	// A licence runs out without any write: check the (cached) tenant each time.
	if err := s.checkTenant(ctx, p.TenantID); err != nil {
		return nil, sessionRefused(err)
	}
	return p, nil
}

// principalOf builds the principal a token's claims describe.
func principalOf(c *authn.Claims, uid wire.ID) *authz.Principal {
	roles, _ := wire.ParseIDs(c.RoleID)
	depts, _ := wire.ParseIDs(c.DeptID)
	p := &authz.Principal{UserID: uid, TenantID: c.TenantID, Account: c.Account, UserName: c.UserName,
		RealName: c.RealName, RoleIDs: roles, RoleAliases: strings.Split(c.RoleName, ","), ClientID: c.ClientID, TokenID: c.ID}
	if len(depts) > 0 {
		p.DeptID = depts[0]
	}
	return p
}

// pick narrows ids to the one named by choice, when it is among them, and
// returns the choice it kept ("" when it kept them all).
func pick(ids []wire.ID, choice string) ([]wire.ID, string) {
	if choice == "" {
		return ids, ""
	}
	want, err := wire.ParseID(choice)
	if err != nil {
		return ids, ""
	}
	for _, id := range ids {
		if id == want {
			return []wire.ID{id}, id.String()
		}
	}
	return ids, ""
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// loginFailure is the failed-login counter of a tenant's account.
type loginFailure struct {
	bun.BaseModel `bun:"table:bb_login_failure"`
	TenantID      string    `bun:"tenant_id,pk"`
	Account       string    `bun:"account,pk"`
	FailCount     int       `bun:"fail_count"`
	LastFail      wire.Time `bun:"last_fail"`
}

// countAttempt counts a login attempt before its password is checked and
// returns the count, atomically (one upsert): above maxFail the account is
// locked and the attempt is not checked. A count older than LockMinutes
// starts again; attempts refused by the lock do not extend it.
func (s *Service) countAttempt(ctx context.Context, tenantID, account string, maxFail int) (int, error) {
	now := wire.Now()
	since := wire.Time{Time: now.Add(-LockMinutes * time.Minute)}
	var n int
	err := s.DB.NewRaw(`INSERT INTO bb_login_failure (tenant_id, account, fail_count, last_fail) VALUES (?, ?, 1, ?)
ON CONFLICT (tenant_id, account) DO UPDATE SET
  fail_count = CASE WHEN bb_login_failure.last_fail < ? THEN 1 ELSE bb_login_failure.fail_count + 1 END,
  last_fail = CASE WHEN bb_login_failure.last_fail < ? OR bb_login_failure.fail_count < ? THEN EXCLUDED.last_fail ELSE bb_login_failure.last_fail END
RETURNING fail_count`, tenantID, account, now, since, since, maxFail).Scan(ctx, &n)
	return n, err
}

func (s *Service) clearFailures(ctx context.Context, tenantID, account string) error {
	_, err := s.DB.NewDelete().Model((*loginFailure)(nil)).Where("tenant_id = ? AND account = ?", tenantID, account).Exec(ctx)
	return err
}
