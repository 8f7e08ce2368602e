package auth_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/outbound"
)

// startOIDC runs a mock OpenID Connect provider for the test.
func startOIDC(t *testing.T) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	return m
}

const appRedirect = "http://console.example/login?source=mock"

// configure registers m as provider "mock" of the caller's tenant (or tenantID, for the super user).
func configure(t *testing.T, c *apptest.Client, m *mockoidc.MockOIDC, tenantID string) {
	t.Helper()
	body := map[string]any{"source": "mock", "name": "Mock ID", "issuer": m.Issuer(), "clientId": m.ClientID,
		"clientSecret": m.ClientSecret, "redirectUri": appRedirect}
	if tenantID != "" {
		body["tenantId"] = tenantID
	}
	var row map[string]any
	c.PostJSON("/api/blade-auth/social-provider/submit", body).OK(t, &row)
	var detail map[string]any
	c.Get("/api/blade-auth/social-provider/detail", apptest.Q("id", row["id"].(string))).OK(t, &detail)
	if detail["clientSecret"] != "" || detail["issuer"] != m.Issuer() {
		t.Fatalf("provider detail must not read the secret back: %v", detail)
	}
}

// authorize walks render → the provider's authorize endpoint and returns
// the code and state the provider sends back to the web app.
func authorize(t *testing.T, h *apptest.H, m *mockoidc.MockOIDC, tenantID, source string) (code, state string) {
	t.Helper()
	mock, _ := url.Parse(m.Issuer())
	client := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if req.URL.Host == mock.Host {
			return nil // follow the redirect to the provider
		}
		return http.ErrUseLastResponse // but not the one back to the web app
	}}
	res, err := client.Get(h.Server.URL + "/api/blade-auth/oauth/social/render/" + source + "?tenantId=" + tenantID)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("render: want a redirect back to the app, got %d", res.StatusCode)
	}
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(loc.String(), "http://console.example/login") {
		t.Fatalf("provider redirected to %q", res.Header.Get("Location"))
	}
	code, state = loc.Query().Get("code"), loc.Query().Get("state")
	if code == "" || state == "" || loc.Query().Get("source") != "mock" {
		t.Fatalf("redirect lacks code or state: %s", loc)
	}
	return code, state
}

// socialToken calls the token endpoint with the social grant.
func socialToken(c *apptest.Client, tenantID, source, code, state string) (*apptest.Resp, map[string]any) {
	q := url.Values{"grant_type": {"social"}, "source": {source}, "code": {code}, "state": {state}, "tenantId": {tenantID}, "scope": {"all"}}
	r := c.Do("POST", "/api/blade-auth/oauth/token?"+q.Encode(), nil, map[string]string{"Tenant-Id": tenantID})
	var body map[string]any
	_ = json.Unmarshal(r.Body, &body)
	return r, body
}

func wantGrantError(t *testing.T, r *apptest.Resp, body map[string]any, desc string) {
	t.Helper()
	if r.Status != 400 || body["error"] != "invalid_grant" || !strings.Contains(fmt.Sprint(body["error_description"]), desc) {
		t.Fatalf("want invalid_grant %q, got %d %s", desc, r.Status, r.Body)
	}
}

func TestSocialLoginRegisterApprove(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		m := startOIDC(t)
		admin := h.Admin()
		configure(t, admin, m, "")
		anon := h.Anon()

		var buttons []map[string]string
		anon.Get("/api/blade-auth/oauth/social/providers", apptest.Q("tenantId", "000000")).OK(t, &buttons)
		if len(buttons) != 1 || buttons[0]["source"] != "mock" || buttons[0]["name"] != "Mock ID" {
			t.Fatalf("providers: %v", buttons)
		}
		var none []map[string]string
		anon.Get("/api/blade-auth/oauth/social/providers", apptest.Q("tenantId", "424242")).OK(t, &none)
		if len(none) != 0 {
			t.Fatalf("providers of an unknown tenant: %v", none)
		}

		// First login of a third-party user: no account yet.
		user := &mockoidc.MockUser{Subject: "sub-jane", PreferredUsername: "jane", Email: "jane@example.com"}
		m.QueueUser(user)
		code, state := authorize(t, h, m, "000000", "mock")
		r, body := socialToken(anon, "000000", "mock", code, state)
		if r.Status != 200 || body["user_id"] != "-1" || body["oauth_id"] == "" || body["account"] != "jane" || body["access_token"] != "" {
			t.Fatalf("unbound social login: %d %s", r.Status, r.Body)
		}
		oauthID := body["oauth_id"].(string)

		// The same code and state cannot be played again.
		r, body = socialToken(anon, "000000", "mock", code, state)
		wantGrantError(t, r, body, "第三方登录状态无效")

		// Registration through the dialog.
		reg := anon.Post("/api/blade-user/register-guest", apptest.Q("tenantId", "000000", "name", "Jane", "account", "jane",
			"password", authn.MD5Hex("secret-1"), "oauthId", oauthID)).OK(t, nil)
		if reg.Env.Msg != "注册申请已提交,请耐心等待管理员通过!" {
			t.Fatalf("register msg %q", reg.Env.Msg)
		}
		if msg := anon.Post("/api/blade-user/register-guest", apptest.Q("tenantId", "000000", "name", "Jane", "account", "jane2",
			"password", "secret-1", "oauthId", oauthID)).Fail(t, 400); !strings.Contains(msg, "已绑定") {
			t.Fatalf("second registration of a bound identity: %q", msg)
		}

		// Pending: neither the social login nor the password gets in.
		m.QueueUser(user)
		code, state = authorize(t, h, m, "000000", "mock")
		r, body = socialToken(anon, "000000", "mock", code, state)
		wantGrantError(t, r, body, "账号正在等待管理员审核")
		if r := anon.Token_("000000", "jane", "secret-1"); !strings.Contains(string(r.Body), "账号正在等待管理员审核") {
			t.Fatalf("password login while pending: %d %s", r.Status, r.Body)
		}

		// The administrator approves.
		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-user/page", apptest.Q("account", "jane")).OK(t, &page)
		if len(page.Records) != 1 || page.Records[0]["status"].(float64) != 2 {
			t.Fatalf("registered user: %v", page.Records)
		}
		if page.Records[0]["roleId"] == "" || page.Records[0]["deptId"] == "" {
			t.Fatalf("registered user has no role: %v", page.Records[0])
		}
		userID := page.Records[0]["id"].(string)
		admin.Post("/api/blade-user/enabledStatus", apptest.Q("ids", userID, "enabledStatus", "1")).OK(t, nil)

		// Now the social login signs straight in.
		m.QueueUser(user)
		code, state = authorize(t, h, m, "000000", "mock")
		r, body = socialToken(anon, "000000", "mock", code, state)
		if r.Status != 200 || body["user_id"] != userID || body["oauth_id"] != oauthID || body["access_token"] == "" || body["role_name"] != "user" {
			t.Fatalf("bound social login: %d %s", r.Status, r.Body)
		}
		session := &apptest.Client{H: h, Token: body["access_token"].(string)}
		var info map[string]any
		session.Get("/api/blade-auth/oauth/user-info", nil).OK(t, &info)
		if info["account"] != "jane" || info["userId"] != userID || info["tenantId"] != "000000" {
			t.Fatalf("user-info after social login: %v", info)
		}
	})
}

func TestSocialStateTampered(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		m := startOIDC(t)
		configure(t, h.Admin(), m, "")
		anon := h.Anon()
		code, state := authorize(t, h, m, "000000", "mock")
		payload, sig, _ := strings.Cut(state, ".")
		flip := func(s string) string {
			b := []byte(s)
			if b[len(b)/2] == 'A' {
				b[len(b)/2] = 'B'
			} else {
				b[len(b)/2] = 'A'
			}
			return string(b)
		}
		for _, bad := range []string{flip(payload) + "." + sig, payload + "." + flip(sig), payload, "garbage"} {
			r, body := socialToken(anon, "000000", "mock", code, bad)
			wantGrantError(t, r, body, "第三方登录状态无效")
		}
		// the source named in the request must be the state's
		r, body := socialToken(anon, "000000", "other", code, state)
		wantGrantError(t, r, body, "第三方登录状态无效")
		// the untouched state still works: the refusals did not consume it
		r, body = socialToken(anon, "000000", "mock", code, state)
		if r.Status != 200 || body["user_id"] != "-1" {
			t.Fatalf("valid state after tampered attempts: %d %s", r.Status, r.Body)
		}
		// an unknown provider renders nothing
		if r := anon.Get("/api/blade-auth/oauth/social/render/nope", apptest.Q("tenantId", "000000")); r.Status != 400 {
			t.Fatalf("render of an unknown provider: %d %s", r.Status, r.Body)
		}
	})
}

func TestSocialOtherTenantRefused(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		m := startOIDC(t)
		configure(t, h.Admin(), m, "")
		tenantB, adminB := h.NewTenant("Tenant B")
		configure(t, adminB, m, "")
		anon := h.Anon()

		// A code and state of tenant B's provider, presented to tenant 000000.
		codeB, stateB := authorize(t, h, m, tenantB, "mock")
		r, body := socialToken(anon, "000000", "mock", codeB, stateB)
		wantGrantError(t, r, body, "第三方登录状态无效")

		// In its own tenant B's code and state work (the refusal above did not
		// touch the code), and the identity is B's.
		r, body = socialToken(anon, tenantB, "mock", codeB, stateB)
		if r.Status != 200 || body["user_id"] != "-1" || body["tenant_id"] != tenantB {
			t.Fatalf("tenant B social login: %d %s", r.Status, r.Body)
		}
		oauthB := body["oauth_id"].(string)

		// A fresh code of B's under a fresh state of 000000: the PKCE verifier does not match.
		codeB2, _ := authorize(t, h, m, tenantB, "mock")
		_, stateA := authorize(t, h, m, "000000", "mock")
		r, body = socialToken(anon, "000000", "mock", codeB2, stateA)
		wantGrantError(t, r, body, "第三方登录失败")

		// B's identity cannot be registered into 000000.
		msg := anon.Post("/api/blade-user/register-guest", apptest.Q("tenantId", "000000", "name", "X", "account", "xuser",
			"password", "pw", "oauthId", oauthB)).Fail(t, 400)
		if !strings.Contains(msg, "第三方登录信息错误") {
			t.Fatalf("cross-tenant registration: %q", msg)
		}
		// tenant B's admin does not see 000000's provider and vice versa
		var page apptest.Page[map[string]any]
		adminB.Get("/api/blade-auth/social-provider/list", nil).OK(t, &page)
		if page.Total != 1 || page.Records[0]["tenantId"] != tenantB {
			t.Fatalf("tenant B providers: %v", page.Records)
		}

		// an expired tenant cannot sign in socially either
		var tenants apptest.Page[map[string]any]
		admin := h.Admin()
		admin.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", tenantB)).OK(t, &tenants)
		admin.Post("/api/blade-system/tenant/setting", apptest.Q("ids", tenants.Records[0]["id"].(string), "expireTime", "2020-01-01 00:00:00")).OK(t, nil)
		codeB3, stateB3 := authorize(t, h, m, tenantB, "mock")
		r, body = socialToken(anon, tenantB, "mock", codeB3, stateB3)
		wantGrantError(t, r, body, "租户授权已过期")
	})
}

// A tenant's provider is a tenant administrator's choice of address: with
// no allowance for the loopback, where the mock listens, its discovery is
// refused (the render answers that the provider cannot be reached), while
// the platform tenant's provider at the same address works.
func TestSocialTenantIssuerStaysOutside(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		h.App.Auth.Social.(*auth.OIDCSocial).Outbound = &outbound.Policy{} // before the first tenant discovery
		m := startOIDC(t)
		configure(t, h.Admin(), m, "")
		tenantB, adminB := h.NewTenant("Tenant B")
		configure(t, adminB, m, "")
		if msg := h.Anon().Get("/api/blade-auth/oauth/social/render/mock", apptest.Q("tenantId", tenantB)).Fail(t, 502); !strings.Contains(msg, "第三方登录服务暂不可用") {
			t.Errorf("render of a tenant's loopback issuer: %q", msg)
		}
		authorize(t, h, m, "000000", "mock") // the platform's provider still works
	})
}
