package auth_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/sms"
)

// captureSMS records what would have been sent.
type captureSMS struct {
	mu    sync.Mutex
	codes map[string]string // phone → last code
	sent  int
}

func (c *captureSMS) Send(ctx context.Context, phone, template string, params map[string]string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if template != sms.TemplateValidate || sms.TenantFrom(ctx) == "" {
		panic("unexpected sms " + template)
	}
	c.codes[phone] = params["code"]
	c.sent++
	return nil
}

func (c *captureSMS) code(phone string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.codes[phone]
}

func capture(h *apptest.H) *captureSMS {
	c := &captureSMS{codes: map[string]string{}}
	h.App.Auth.SMS.(*auth.SMSCodes).SetProvider(c)
	return c
}

// addPhoneUser creates an enabled user of 000000 with a phone, as the super user.
func addPhoneUser(t *testing.T, h *apptest.H, admin *apptest.Client, account, phone string) string {
	t.Helper()
	var u map[string]any
	admin.PostJSON("/api/blade-user/submit", map[string]any{"account": account, "name": account, "realName": account,
		"password": "pw123456", "phone": phone, "roleId": admin.Login["role_id"], "deptId": admin.Login["dept_id"]}).OK(t, &u)
	return u["id"].(string)
}

func sendCode(c *apptest.Client, tenantID, phone string) *apptest.Resp {
	return c.Post("/api/blade-auth/oauth/sms/send", apptest.Q("tenantId", tenantID, "phone", phone))
}

func phoneToken(c *apptest.Client, tenantID, phone, code string) (*apptest.Resp, map[string]any) {
	q := url.Values{"grant_type": {"password"}, "type": {"phone"}, "phone": {phone}, "code": {code}, "tenantId": {tenantID}, "scope": {"all"}}
	r := c.Do("POST", "/api/blade-auth/oauth/token?"+q.Encode(), nil, map[string]string{"Tenant-Id": tenantID})
	var body map[string]any
	_ = json.Unmarshal(r.Body, &body)
	return r, body
}

func otherCode(code string) string {
	if code == "000000" {
		return "111111"
	}
	return "000000"
}

func TestSMSLogin(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		sent := capture(h)
		admin := h.Admin()
		const phone = "13800138000"
		userID := addPhoneUser(t, h, admin, "mobile", phone)
		anon := h.Anon()

		var data struct {
			Key       string `json:"key"`
			ExpiresIn int    `json:"expiresIn"`
		}
		r := sendCode(anon, "000000", phone).OK(t, &data)
		if data.Key == "" || data.ExpiresIn != 300 || r.Env.Msg != "发送成功" {
			t.Fatalf("send: %s", r.Body)
		}
		code := sent.code(phone)
		if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
			t.Fatalf("code %q is not six digits", code)
		}

		// wrong code
		r, body := phoneToken(anon, "000000", phone, otherCode(code))
		wantGrantError(t, r, body, "短信验证码不正确")
		// right code
		r, body = phoneToken(anon, "000000", phone, code)
		if r.Status != 200 || body["user_id"] != userID || body["account"] != "mobile" || body["access_token"] == "" {
			t.Fatalf("phone login: %d %s", r.Status, r.Body)
		}
		session := &apptest.Client{H: h, Token: body["access_token"].(string)}
		session.Get("/api/blade-auth/oauth/user-info", nil).OK(t, nil)
		// used up
		r, body = phoneToken(anon, "000000", phone, code)
		wantGrantError(t, r, body, "短信验证码不正确")

		// one code per phone per minute
		if r := sendCode(anon, "000000", phone); r.Status != 429 || r.Env.Success {
			t.Fatalf("second send within a minute: %d %s", r.Status, r.Body)
		}
		if sent.sent != 1 {
			t.Fatalf("sent %d messages, want 1", sent.sent)
		}
	})
}

func TestSMSValidationAndBurn(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		sent := capture(h)
		admin := h.Admin()
		const phone = "13900139000"
		addPhoneUser(t, h, admin, "burner", phone)
		anon := h.Anon()

		if msg := sendCode(anon, "000000", "").Fail(t, 400); msg != "请输入手机号码" {
			t.Errorf("no phone: %q", msg)
		}
		for _, bad := range []string{"1380013800", "138001380000", "1380013800a", "+8613800138"} {
			if msg := sendCode(anon, "000000", bad).Fail(t, 400); !strings.Contains(msg, "11位手机号码") {
				t.Errorf("phone %q: %q", bad, msg)
			}
		}
		anon.Lang = "en"
		if msg := sendCode(anon, "000000", "123").Fail(t, 400); !strings.Contains(msg, "11-digit") {
			t.Errorf("english message: %q", msg)
		}
		anon.Lang = ""
		if msg := sendCode(anon, "424242", phone).Fail(t, 400); msg != "租户ID未找到" {
			t.Errorf("unknown tenant: %q", msg)
		}

		// A phone nobody has: the same answer, but nothing is sent.
		sendCode(anon, "000000", "13700137000").OK(t, nil)
		if sent.code("13700137000") != "" {
			t.Fatal("a code was sent to a phone no user has")
		}

		// Five wrong answers burn the code.
		sendCode(anon, "000000", phone).OK(t, nil)
		code := sent.code(phone)
		for i := 0; i < auth.SMSMaxTries; i++ {
			r, body := phoneToken(anon, "000000", phone, otherCode(code))
			wantGrantError(t, r, body, "短信验证码不正确")
		}
		r, body := phoneToken(anon, "000000", phone, code)
		wantGrantError(t, r, body, "短信验证码不正确")
	})
}
