package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"
	"golang.org/x/oauth2"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/outbound"
	"github.com/bluebird/console/internal/platform/wire"
)

// Social login through a generic OpenID Connect provider configured per
// tenant (bb_social_provider). The flow:
//
//  1. GET oauth/social/render/{source}?tenantId= redirects the browser to the
//     provider with a signed, expiring, one-use state that binds the tenant,
//     the source and a nonce. PKCE (S256) is always used; its verifier is
//     derived from the nonce with the server key, so nothing is stored.
//  2. The provider sends the browser back to the redirect URI with code and
//     state; the web app posts them to oauth/token with grant_type=social.
//  3. Resolve verifies the state, exchanges the code, verifies the ID token
//     (signature, issuer, audience, expiry, nonce) and upserts
//     blade_user_oauth. A bound identity logs in as its user; an unbound one
//     answers user_id -1 with its oauth_id so the UI offers registration.

// StateTTL is how long a social login may take between render and token.
const StateTTL = 10 * time.Minute

// Social login errors: raw OAuth2 errors on the token endpoint.
var (
	errSocialState    = &OAuthError{400, "invalid_grant", i18n.T("第三方登录状态无效或已过期,请重新登录", "The social login state is invalid or has expired; sign in again")}
	errSocialProvider = &OAuthError{400, "invalid_grant", i18n.T("第三方登录方式不存在或未启用", "No such social login provider")}
	errSocialFailed   = &OAuthError{400, "invalid_grant", i18n.T("第三方登录失败,请重新登录", "The social login failed; sign in again")}
	errSocialBinding  = &OAuthError{400, "invalid_grant", i18n.T("第三方账号绑定的用户不属于该租户", "The user bound to this third-party account belongs to another tenant")}
)

// Envelope errors of the render and providers endpoints.
var (
	msgNoProvider  = httpx.BadRequest(errSocialProvider.Description)
	msgUnreachable = &httpx.Error{Status: 502, Msg: i18n.T("第三方登录服务暂不可用,请稍后再试", "The social login provider cannot be reached; try again later")}
)

// OIDCSocial implements SocialLogin and serves the social endpoints.
type OIDCSocial struct {
	DB       *db.DB
	Users    Users
	Platform Platform
	// HTTPClient talks to the platform tenant's providers (discovery,
	// token, keys, userinfo); another tenant's go through Outbound.
	HTTPClient *http.Client
	// Outbound is what other tenants' providers may reach (their issuer is
	// a tenant administrator's choice); nil refuses every internal address.
	Outbound      *outbound.Policy
	tenantClients outbound.Lazy
	// Nonces, when set, records the used state nonces where every instance
	// sees them (Redis, see redis.go); nil keeps them in this process.
	Nonces NonceStore

	key []byte // HMAC key of states and PKCE verifiers

	mu        sync.Mutex
	used      map[string]time.Time // consumed state nonces until they expire
	providers map[string]cachedProvider
	now       func() time.Time
}

type cachedProvider struct {
	p       *oidc.Provider
	fetched time.Time
}

// providerCacheTTL bounds how long a discovery document is trusted.
const providerCacheTTL = time.Hour

// NewOIDCSocial builds the social login. key signs the states; derive it
// from a server secret (DeriveKey) so that every instance accepts the
// states of the others.
func NewOIDCSocial(d *db.DB, users Users, platform Platform, key []byte) *OIDCSocial {
	return &OIDCSocial{DB: d, Users: users, Platform: platform, key: key, HTTPClient: &http.Client{Timeout: 10 * time.Second},
		used: map[string]time.Time{}, providers: map[string]cachedProvider{}, now: time.Now}
}

// DeriveKey derives a purpose-specific key from a server secret.
func DeriveKey(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("bluebird/" + purpose))
	return m.Sum(nil)
}

// Mount adds the public social routes (isPublic lets oauth/social/* through).
func (s *OIDCSocial) Mount(r chi.Router) {
	r.Get("/blade-auth/oauth/social/providers", httpx.Handle(s.handleProviders))
	r.Get("/blade-auth/oauth/social/render/{source}", s.handleRender)
}

// providerRow is a row of bb_social_provider as the login needs it.
type providerRow struct {
	bun.BaseModel `bun:"table:bb_social_provider"`
	ID            wire.ID `bun:"id,pk"`
	TenantID      string  `bun:"tenant_id"`
	Source        string  `bun:"source"`
	Name          string  `bun:"name"`
	Issuer        string  `bun:"issuer"`
	ClientID      string  `bun:"client_id"`
	ClientSecret  string  `bun:"client_secret"`
	RedirectURI   string  `bun:"redirect_uri"`
	Scopes        string  `bun:"scopes"`
}

func (s *OIDCSocial) provider(ctx context.Context, tenantID, source string) (*providerRow, error) {
	var p providerRow
	err := s.DB.NewSelect().Model(&p).Where("tenant_id = ? AND source = ? AND status = 1 AND is_deleted = 0", tenantID, source).
		Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// ProviderOption is one login button.
type ProviderOption struct {
	Source string `json:"source"`
	Name   string `json:"name"`
}

func requestTenant(r *http.Request) string {
	return firstNonEmpty(strings.TrimSpace(r.URL.Query().Get("tenantId")), r.Header.Get("Tenant-Id"), authz.SuperTenant)
}

func (s *OIDCSocial) handleProviders(r *http.Request) (any, error) {
	var rows []providerRow
	err := s.DB.NewSelect().Model(&rows).Column("source", "name").
		Where("tenant_id = ? AND status = 1 AND is_deleted = 0", requestTenant(r)).Order("source").Scan(r.Context())
	if err != nil {
		return nil, err
	}
	out := make([]ProviderOption, 0, len(rows))
	for _, p := range rows {
		out = append(out, ProviderOption{Source: p.Source, Name: firstNonEmpty(p.Name, p.Source)})
	}
	return out, nil
}

// handleRender redirects to the provider's authorization endpoint.
func (s *OIDCSocial) handleRender(w http.ResponseWriter, r *http.Request) {
	tenantID, source := requestTenant(r), chi.URLParam(r, "source")
	ctx := r.Context()
	row, err := s.provider(ctx, tenantID, source)
	if err == nil && row == nil {
		err = msgNoProvider
	}
	var op *oidc.Provider
	if err == nil {
		op, err = s.discover(ctx, tenantID, row.Issuer)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	cfg := s.oauthConfig(row, op, r)
	st := socialState{Tenant: tenantID, Source: source, Nonce: randomToken(), Expires: s.now().Add(StateTTL).Unix(), Redirect: cfg.RedirectURL}
	target := cfg.AuthCodeURL(s.sign(st), oidc.Nonce(st.Nonce), oauth2.S256ChallengeOption(s.verifier(st.Nonce)))
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target, http.StatusFound)
}

// clientFor is the HTTP client of tenantID's providers.
func (s *OIDCSocial) clientFor(tenantID string) *http.Client {
	if tenantID == authz.SuperTenant {
		return s.HTTPClient
	}
	return s.tenantClients.Client(s.Outbound, 10*time.Second)
}

// discover returns the provider's discovery document, cached per issuer
// (the platform's apart from the tenants': they are fetched by different
// clients).
func (s *OIDCSocial) discover(ctx context.Context, tenantID, issuer string) (*oidc.Provider, error) {
	key := issuer
	if tenantID != authz.SuperTenant {
		key = "tenant " + issuer
	}
	s.mu.Lock()
	c, ok := s.providers[key]
	s.mu.Unlock()
	if ok && s.now().Sub(c.fetched) < providerCacheTTL {
		return c.p, nil
	}
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, s.clientFor(tenantID)), issuer)
	if err != nil {
		slog.WarnContext(ctx, "social login discovery failed", "issuer", issuer, "err", err)
		return nil, msgUnreachable
	}
	s.mu.Lock()
	s.providers[key] = cachedProvider{p: p, fetched: s.now()}
	s.mu.Unlock()
	return p, nil
}

func (s *OIDCSocial) oauthConfig(row *providerRow, op *oidc.Provider, r *http.Request) *oauth2.Config {
	scopes := strings.Fields(strings.ReplaceAll(row.Scopes, ",", " "))
	if len(scopes) == 0 {
		scopes = []string{"profile", "email"}
	}
	out := []string{oidc.ScopeOpenID}
	for _, sc := range scopes {
		if sc != oidc.ScopeOpenID {
			out = append(out, sc)
		}
	}
	redirect := row.RedirectURI
	if redirect == "" && r != nil {
		redirect = DefaultRedirectURI(r, row.TenantID, row.Source)
	}
	return &oauth2.Config{ClientID: row.ClientID, ClientSecret: row.ClientSecret, Endpoint: op.Endpoint(),
		RedirectURL: redirect, Scopes: out}
}

// DefaultRedirectURI is where the provider sends the browser back when the
// provider row names no redirect URI: the web app's login page on the host
// the render request came to, with the tenant and source it needs to finish.
func DefaultRedirectURI(r *http.Request, tenantID, source string) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	host := firstNonEmpty(r.Header.Get("X-Forwarded-Host"), r.Host)
	return scheme + "://" + host + "/login?" + url.Values{"tenantId": {tenantID}, "source": {source}}.Encode()
}

// socialState is what the state parameter carries, signed.
type socialState struct {
	Tenant  string `json:"t"`
	Source  string `json:"s"`
	Nonce   string `json:"n"`
	Expires int64  `json:"e"`
	// Redirect is the redirect URI of the authorization request, repeated at the exchange.
	Redirect string `json:"r"`
}

func (s *OIDCSocial) mac(parts ...string) []byte {
	m := hmac.New(sha256.New, s.key)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return m.Sum(nil)
}

func (s *OIDCSocial) sign(st socialState) string {
	body, _ := json.Marshal(st)
	payload := base64.RawURLEncoding.EncodeToString(body)
	return payload + "." + base64.RawURLEncoding.EncodeToString(s.mac("state", payload))
}

// verifier is the PKCE code verifier of a state: 43 characters only this server can compute.
func (s *OIDCSocial) verifier(nonce string) string {
	return base64.RawURLEncoding.EncodeToString(s.mac("pkce", nonce))
}

// parse checks a state's signature and expiry.
func (s *OIDCSocial) parse(state string) (*socialState, bool) {
	payload, sig, ok := strings.Cut(state, ".")
	if !ok {
		return nil, false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac("state", payload)) {
		return nil, false
	}
	body, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return nil, false
	}
	var st socialState
	if json.Unmarshal(body, &st) != nil || st.Nonce == "" || s.now().Unix() > st.Expires {
		return nil, false
	}
	return &st, true
}

// NonceStore is a shared one-use set.
type NonceStore interface {
	// Use marks nonce used until the given time; false when it already was.
	Use(ctx context.Context, nonce string, until time.Time) (bool, error)
}

// consume marks a state's nonce used; false when it already was.
func (s *OIDCSocial) consume(ctx context.Context, st *socialState) bool {
	if s.Nonces != nil {
		ok, err := s.Nonces.Use(ctx, st.Nonce, time.Unix(st.Expires, 0).Add(time.Minute))
		if err != nil {
			slog.WarnContext(ctx, "social login: state nonce store failed", "err", err)
		}
		return err == nil && ok
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for n, exp := range s.used {
		if now.After(exp) {
			delete(s.used, n)
		}
	}
	if _, seen := s.used[st.Nonce]; seen {
		return false
	}
	s.used[st.Nonce] = time.Unix(st.Expires, 0).Add(time.Minute)
	return true
}

// identityClaims are the ID token (and userinfo) claims kept of a user.
type identityClaims struct {
	Subject           string `json:"sub"`
	PreferredUsername string `json:"preferred_username"`
	Name              string `json:"name"`
	Nickname          string `json:"nickname"`
	Picture           string `json:"picture"`
	Email             string `json:"email"`
}

// Resolve implements SocialLogin.
func (s *OIDCSocial) Resolve(ctx context.Context, tenantID, source, code, state string) (*Account, *SocialIdentity, error) {
	if code == "" || state == "" {
		return nil, nil, errMissing
	}
	st, ok := s.parse(state)
	if !ok || st.Tenant != tenantID || (source != "" && st.Source != source) {
		return nil, nil, errSocialState
	}
	t, err := s.Platform.Tenant(ctx, st.Tenant)
	if err != nil {
		return nil, nil, err
	}
	if t == nil {
		return nil, nil, errNoTenant
	}
	if st.Tenant != authz.SuperTenant && !t.ExpireTime.IsZero() && t.ExpireTime.Before(s.now()) {
		return nil, nil, errTenantExpired
	}
	row, err := s.provider(ctx, st.Tenant, st.Source)
	if err != nil {
		return nil, nil, err
	}
	if row == nil {
		return nil, nil, errSocialProvider
	}
	if !s.consume(ctx, st) {
		return nil, nil, errSocialState
	}
	op, err := s.discover(ctx, tenantID, row.Issuer)
	if err != nil {
		return nil, nil, errSocialFailed
	}
	octx := oidc.ClientContext(ctx, s.clientFor(tenantID))
	// The exchange must name the redirect URI the authorization request sent;
	// the signed state carries it.
	cfg := s.oauthConfig(row, op, nil)
	cfg.RedirectURL = st.Redirect
	tok, err := cfg.Exchange(octx, code, oauth2.VerifierOption(s.verifier(st.Nonce)))
	if err != nil {
		slog.WarnContext(ctx, "social login code exchange failed", "tenant", tenantID, "source", st.Source, "err", err)
		return nil, nil, errSocialFailed
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		slog.WarnContext(ctx, "social login: no id_token", "tenant", tenantID, "source", st.Source)
		return nil, nil, errSocialFailed
	}
	idt, err := op.Verifier(&oidc.Config{ClientID: row.ClientID, Now: s.now}).Verify(octx, raw)
	if err != nil {
		slog.WarnContext(ctx, "social login: id_token rejected", "tenant", tenantID, "source", st.Source, "err", err)
		return nil, nil, errSocialFailed
	}
	if !hmac.Equal([]byte(idt.Nonce), []byte(st.Nonce)) {
		slog.WarnContext(ctx, "social login: nonce mismatch", "tenant", tenantID, "source", st.Source)
		return nil, nil, errSocialFailed
	}
	var c identityClaims
	if err := idt.Claims(&c); err != nil || c.Subject == "" {
		return nil, nil, errSocialFailed
	}
	if c.PreferredUsername == "" && c.Name == "" && c.Email == "" && op.UserInfoEndpoint() != "" {
		// Some providers keep the profile out of the ID token.
		if ui, err := op.UserInfo(octx, oauth2.StaticTokenSource(tok)); err == nil && ui.Subject == c.Subject {
			var extra identityClaims
			if ui.Claims(&extra) == nil {
				extra.Subject = c.Subject
				c = extra
			}
		}
	}
	ident, err := s.upsert(ctx, st.Tenant, st.Source, &c)
	if err != nil {
		return nil, nil, err
	}
	si := &SocialIdentity{OAuthID: ident.ID, Source: ident.Source, Username: ident.Username, Nickname: ident.Nickname, Avatar: ident.Avatar}
	if ident.UserID == 0 {
		return nil, si, nil
	}
	acc, err := s.Users.ByID(ctx, ident.UserID)
	if err != nil {
		return nil, nil, err
	}
	if acc == nil {
		// The bound user was deleted: the identity may register again.
		if _, err := s.DB.NewUpdate().Model((*OAuthIdentity)(nil)).Set("user_id = 0").Set("update_time = ?", wire.Now()).
			Where("id = ? AND user_id = ?", ident.ID, ident.UserID).Exec(ctx); err != nil {
			return nil, nil, err
		}
		return nil, si, nil
	}
	if acc.TenantID != st.Tenant {
		return nil, nil, errSocialBinding
	}
	return acc, si, nil
}

// OAuthIdentity is a row of blade_user_oauth: a third-party user of a tenant,
// bound to an account once user_id is set.
type OAuthIdentity struct {
	bun.BaseModel `bun:"table:blade_user_oauth"`
	ID            wire.ID   `bun:"id,pk"`
	TenantID      string    `bun:"tenant_id"`
	CreateTime    wire.Time `bun:"create_time"`
	UpdateTime    wire.Time `bun:"update_time"`
	Status        int       `bun:"status"`
	IsDeleted     int       `bun:"is_deleted"`
	Version       int       `bun:"version"`
	UUID          string    `bun:"uuid"`
	UserID        wire.ID   `bun:"user_id"`
	Username      string    `bun:"username"`
	Nickname      string    `bun:"nickname"`
	Avatar        string    `bun:"avatar"`
	Email         string    `bun:"email"`
	Source        string    `bun:"source"`
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// upsert records the identity's latest profile and returns its row.
func (s *OIDCSocial) upsert(ctx context.Context, tenantID, source string, c *identityClaims) (*OAuthIdentity, error) {
	username := clip(firstNonEmpty(c.PreferredUsername, c.Email, c.Subject), 255)
	nickname := clip(firstNonEmpty(c.Nickname, c.Name, c.PreferredUsername, username), 255)
	avatar, email := clip(c.Picture, 1000), clip(c.Email, 255)
	var out *OAuthIdentity
	for attempt := 0; attempt < 2; attempt++ {
		err := s.DB.Tx(ctx, func(tx bun.Tx) error {
			var cur OAuthIdentity
			err := tx.NewSelect().Model(&cur).Where("tenant_id = ? AND source = ? AND uuid = ? AND is_deleted = 0", tenantID, source, c.Subject).
				Limit(1).Scan(ctx)
			now := wire.Now()
			switch {
			case errors.Is(err, sql.ErrNoRows):
				out = &OAuthIdentity{ID: db.NewID(), TenantID: tenantID, CreateTime: now, UpdateTime: now, Status: 1, Version: 1,
					UUID: c.Subject, Username: username, Nickname: nickname, Avatar: avatar, Email: email, Source: source}
				_, err = tx.NewInsert().Model(out).Exec(ctx)
				return err
			case err != nil:
				return err
			}
			cur.Username, cur.Nickname, cur.Avatar, cur.Email, cur.UpdateTime = username, nickname, avatar, email, now
			_, err = tx.NewUpdate().Model(&cur).Column("username", "nickname", "avatar", "email", "update_time").
				Set("version = version + 1").WherePK().Exec(ctx)
			out = &cur
			return err
		})
		if err == nil {
			return out, nil
		}
		if attempt == 1 || !db.IsUniqueViolation(err) {
			return nil, err
		}
		// a concurrent first login inserted the row: read it on the second pass
	}
	return out, nil
}

// OAuthIdentity loads an identity of a tenant (for register-guest).
func (s *OIDCSocial) OAuthIdentity(ctx context.Context, idb bun.IDB, tenantID string, id wire.ID) (*OAuthIdentity, error) {
	var o OAuthIdentity
	err := idb.NewSelect().Model(&o).Where("id = ? AND tenant_id = ? AND is_deleted = 0", id, tenantID).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &o, nil
}

// BindOAuth binds an unbound identity to a user; false when it was already bound.
func (s *OIDCSocial) BindOAuth(ctx context.Context, idb bun.IDB, tenantID string, id, userID wire.ID) (bool, error) {
	res, err := idb.NewUpdate().Model((*OAuthIdentity)(nil)).Set("user_id = ?", userID).Set("update_time = ?", wire.Now()).
		Set("version = version + 1").Where("id = ? AND tenant_id = ? AND user_id = 0 AND is_deleted = 0", id, tenantID).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func randomToken() string {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
