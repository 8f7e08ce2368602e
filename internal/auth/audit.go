package auth

import (
	"context"
	"errors"
	"net/http"

	"github.com/bluebird/console/internal/platform/audit"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/wire"
)

// The usual log of sign-ins and sign-outs (Service.Audit): a sign-in by
// any grant but refresh, a refused one whose tenant exists (wrong password
// or SMS code, a locked, disabled or pending account), the failure that
// locks an account, and a logout.

// Token handles POST /oauth/token for every grant and logs the sign-in.
func (s *Service) Token(r *http.Request) (*TokenResponse, error) {
	resp, err := s.token(r)
	s.auditToken(r, resp, err)
	return resp, err
}

func (s *Service) auditToken(r *http.Request, resp *TokenResponse, err error) {
	if s.Audit == nil {
		return
	}
	param := func(k string) string {
		if v := r.URL.Query().Get(k); v != "" {
			return v
		}
		return r.PostFormValue(k) // parsed by token for a form body; empty otherwise
	}
	grant := param("grant_type")
	if grant == "refresh_token" || grant == "" {
		return
	}
	tenantID := firstNonEmpty(r.Header.Get("Tenant-Id"), param("tenantId"), authz.SuperTenant)
	account := firstNonEmpty(param("username"), param("phone"))
	if err == nil {
		if resp == nil || resp.UserID == "-1" {
			return // a social identity with no account yet: nobody signed in
		}
		id, _ := wire.ParseID(resp.UserID)
		audit.Record(r.Context(), s.Audit, audit.Event{Kind: audit.Login, Title: "登录成功 / Signed in", Data: "grant_type=" + grant,
			TenantID: resp.TenantID, UserID: id, Account: resp.Account})
		return
	}
	var oe *OAuthError
	if !errors.As(err, &oe) {
		return
	}
	switch oe {
	case errBadCredentials, errLocked, errBadSMS, errDisabled, errPending:
		audit.Record(r.Context(), s.Audit, audit.Event{Kind: audit.LoginFailed, Title: "登录失败 / Sign-in refused",
			Data: oe.Description.Zh + " / " + oe.Description.En, TenantID: tenantID, Account: clipAccount(account)})
	}
}

// auditLockout logs the failure that locked an account.
func (s *Service) auditLockout(ctx context.Context, tenantID, account string, maxFail int) {
	audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Lockout, Title: "账号锁定 / Account locked",
		Data: "failures=" + wire.ID(maxFail).String(), TenantID: tenantID, Account: clipAccount(account)})
}

// auditLogout logs the end of the session of claims c.
func (s *Service) auditLogout(ctx context.Context, c *authn.Claims) {
	id, _ := wire.ParseID(c.UserID)
	audit.Record(ctx, s.Audit, audit.Event{Kind: audit.Logout, Title: "退出登录 / Signed out", TenantID: c.TenantID, UserID: id, Account: c.Account})
}

func clipAccount(a string) string {
	if len(a) > maxAccountLen {
		return a[:maxAccountLen]
	}
	return a
}
