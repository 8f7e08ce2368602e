package auth_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func TestPasswordLogin(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		c := h.Admin()
		for _, k := range []string{"access_token", "refresh_token", "tenant_id", "user_id", "role_name", "account", "expires_in"} {
			if _, ok := c.Login[k]; !ok {
				t.Errorf("login response lacks %s: %v", k, c.Login)
			}
		}
		if c.Login["token_type"] != "bearer" || c.Login["role_name"] != "administrator" || c.Login["tenant_id"] != "000000" {
			t.Errorf("unexpected login body %v", c.Login)
		}
		if _, isString := c.Login["user_id"].(string); !isString {
			t.Errorf("user_id must be a string, got %T", c.Login["user_id"])
		}
		var info map[string]any
		c.Get("/api/blade-auth/oauth/user-info", nil).OK(t, &info)
		if info["account"] != "admin" {
			t.Errorf("user-info: %v", info)
		}
	})
}

func TestLoginFailures(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		anon := h.Anon()
		cases := []struct {
			name, tenant, account, password, desc string
			status                                int
		}{
			{"bad password", "000000", "admin", "wrong", "用户名或密码错误", 400},
			{"unknown user", "000000", "nobody", "admin", "用户名或密码错误", 400},
			{"unknown tenant", "999999", "admin", "admin", "租户ID未找到", 400},
		}
		for _, tc := range cases {
			r := anon.Token_(tc.tenant, tc.account, tc.password)
			var body map[string]string
			_ = json.Unmarshal(r.Body, &body)
			if r.Status != tc.status || body["error_description"] != tc.desc || body["error"] != "invalid_grant" {
				t.Errorf("%s: got %d %s", tc.name, r.Status, r.Body)
			}
		}
		// English on request
		anon.Lang = "en"
		r := anon.Token_("000000", "admin", "wrong")
		if !strings.Contains(string(r.Body), "Wrong user name or password") {
			t.Errorf("english error: %s", r.Body)
		}
	})
}

func TestBadClient(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		bad := "Basic " + base64.StdEncoding.EncodeToString([]byte("saber:wrong"))
		r := h.Anon().Do("POST", "/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=21232f297a57a5a743894a0e4a801fc3&grant_type=password", nil,
			map[string]string{"Authorization": bad})
		if r.Status != 401 || !strings.Contains(string(r.Body), "invalid_client") {
			t.Fatalf("bad client secret: %d %s", r.Status, r.Body)
		}
		r = h.Anon().Do("POST", "/api/blade-auth/oauth/token?grant_type=password", nil, map[string]string{"Authorization": ""})
		if r.Status != 401 {
			t.Fatalf("missing client: %d %s", r.Status, r.Body)
		}
	})
}

func TestLockout(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		anon := h.Anon()
		for i := 0; i < 5; i++ {
			if r := anon.Token_("000000", "admin", "wrong"); r.Status != 400 {
				t.Fatalf("attempt %d: %d", i, r.Status)
			}
		}
		r := anon.Token_("000000", "admin", "admin")
		if !strings.Contains(string(r.Body), "登录错误次数过多") {
			t.Fatalf("after 5 failures the right password must be refused: %s", r.Body)
		}
	})
}

func TestExpiredTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, _ := h.NewTenant("Expiring Co")
		admin := h.Admin()
		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", tenantID)).OK(t, &page)
		if len(page.Records) != 1 {
			t.Fatalf("tenant page by id: %d records", len(page.Records))
		}
		id := page.Records[0]["id"].(string)
		admin.Post("/api/blade-system/tenant/setting", apptest.Q("ids", id, "expireTime", "2020-01-01 00:00:00")).OK(t, nil)
		r := h.Anon().Token_(tenantID, "admin", "admin")
		if !strings.Contains(string(r.Body), "租户授权已过期") {
			t.Fatalf("expired tenant login: %d %s", r.Status, r.Body)
		}
	})
}

func TestRevocation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		c := h.Admin()
		c.Get("/api/blade-system/param/list", nil).OK(t, nil)
		refresh := c.Refresh
		c.Get("/api/blade-auth/oauth/logout", apptest.Q("refresh_token", refresh)).OK(t, nil)
		if msg := c.Get("/api/blade-system/param/list", nil).Fail(t, 401); msg != "令牌已失效" {
			t.Errorf("revoked token msg %q", msg)
		}
		// refresh after logout
		r := h.Anon().Post("/api/blade-auth/oauth/token", apptest.Q("grant_type", "refresh_token", "refresh_token", refresh))
		if r.Status != 400 || !strings.Contains(string(r.Body), "invalid_grant") {
			t.Fatalf("refresh after logout: %d %s", r.Status, r.Body)
		}
	})
}

func TestRefreshRotates(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		c := h.Admin()
		r := h.Anon().Post("/api/blade-auth/oauth/token", apptest.Q("grant_type", "refresh_token", "refresh_token", c.Refresh))
		if r.Status != 200 {
			t.Fatalf("refresh: %d %s", r.Status, r.Body)
		}
		var body map[string]any
		_ = json.Unmarshal(r.Body, &body)
		next := &apptest.Client{H: h, Token: body["access_token"].(string)}
		next.Get("/api/blade-system/param/list", nil).OK(t, nil)
		// the old refresh token was used once and is now dead
		again := h.Anon().Post("/api/blade-auth/oauth/token", apptest.Q("grant_type", "refresh_token", "refresh_token", c.Refresh))
		if again.Status != 400 {
			t.Fatalf("reused refresh token: %d %s", again.Status, again.Body)
		}
	})
}

func TestTamperedAndMismatchedTokens(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		c := h.Admin()
		parts := strings.Split(c.Token, ".")
		payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
		forged := strings.Replace(string(payload), `"tenant_id":"000000"`, `"tenant_id":"123456"`, 1)
		tampered := &apptest.Client{H: h, Token: parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(forged)) + "." + parts[2]}
		tampered.Get("/api/blade-system/param/list", nil).Fail(t, 401)
		none := &apptest.Client{H: h, Token: base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."}
		none.Get("/api/blade-system/param/list", nil).Fail(t, 401)
		h.Anon().Get("/api/blade-system/param/list", nil).Fail(t, 401)

		c.TenantHeader = "123456"
		c.Get("/api/blade-system/param/list", nil).Fail(t, 403)
	})
}

func TestCaptchaEndpoint(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		r := h.Anon().Get("/api/blade-auth/oauth/captcha", nil)
		var body map[string]string
		if err := json.Unmarshal(r.Body, &body); err != nil || body["key"] == "" || !strings.HasPrefix(body["image"], "data:image/png;base64,") {
			t.Fatalf("captcha: %d %s", r.Status, r.Body[:min(200, len(r.Body))])
		}
		// the captcha grant with a wrong answer is refused with the right text
		r = h.Anon().Do("POST", "/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=21232f297a57a5a743894a0e4a801fc3&grant_type=captcha", nil,
			map[string]string{"Captcha-Key": body["key"], "Captcha-Code": "zzzz"})
		if !strings.Contains(string(r.Body), "验证码不正确") {
			t.Fatalf("wrong captcha: %s", r.Body)
		}
	})
}

// Of several simultaneous refreshes with one refresh token, exactly one wins.
func TestConcurrentRefreshOneWins(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		c := h.Admin()
		const n = 6
		codes := make(chan int, n)
		for i := 0; i < n; i++ {
			go func() {
				r := h.Anon().Post("/api/blade-auth/oauth/token", apptest.Q("grant_type", "refresh_token", "refresh_token", c.Refresh))
				codes <- r.Status
			}()
		}
		ok := 0
		for i := 0; i < n; i++ {
			if <-codes == 200 {
				ok++
			}
		}
		if ok != 1 {
			t.Fatalf("%d of %d concurrent refreshes succeeded", ok, n)
		}
	})
}
