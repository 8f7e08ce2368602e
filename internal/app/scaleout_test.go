package app_test

import (
	"context"
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/authn"
)

// Scale-out: two instances (A and B) on one PostgreSQL database and one
// Redis, as behind a load balancer. What one instance changes, the other
// must honour. Revocations and one-use answers are read from Redis, so they
// hold at once; cache invalidations travel by pub/sub, so the tests wait
// (briefly) for B's cache to drop, after first making sure B had cached the
// old value. They run only with BLUEBIRD_TEST_PG and Redis on 127.0.0.1:6379.

// soEventually polls cond for a few seconds.
func soEventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("instance B never saw: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// on is a client of instance h holding the session of c (signed in elsewhere).
func on(h *apptest.H, c *apptest.Client) *apptest.Client {
	return &apptest.Client{H: h, Token: c.Token, Refresh: c.Refresh, Login: c.Login}
}

func TestScaleOutLogoutOnARefusedOnB(t *testing.T) {
	a, b := apptest.NewPair(t)
	onA := a.Admin()
	onB := on(b, onA)
	onB.Get("/api/blade-system/param/list", nil).OK(t, nil) // one key signs for both
	onA.Get("/api/blade-auth/oauth/logout", apptest.Q("refresh_token", onA.Refresh)).OK(t, nil)
	if msg := onB.Get("/api/blade-system/param/list", nil).Fail(t, 401); msg != "令牌已失效" {
		t.Errorf("revoked token on B: %q", msg)
	}
	r := b.Anon().Post("/api/blade-auth/oauth/token", apptest.Q("grant_type", "refresh_token", "refresh_token", onA.Refresh))
	if r.Status != 400 || !strings.Contains(string(r.Body), "invalid_grant") {
		t.Fatalf("refresh on B after logout on A: %d %s", r.Status, r.Body)
	}
	// a session that did not log out still works on both
	other := a.Admin()
	on(b, other).Get("/api/blade-system/param/list", nil).OK(t, nil)
}

func TestScaleOutPasswordChangeRevokesOtherInstance(t *testing.T) {
	a, b := apptest.NewPair(t)
	tenantID, ta := a.NewTenant("Scale Co")
	roleID, deptID := adminIDs(t, ta)
	newUser(t, ta, "alice", "s3cret", roleID, deptID)
	onB := b.Login(tenantID, "alice", "s3cret")
	onB.Get("/api/blade-user/info", nil).OK(t, nil)

	onA := a.Login(tenantID, "alice", "s3cret")
	onA.Post("/api/blade-user/update-password", apptest.Q("oldPassword", authn.MD5Hex("s3cret"),
		"newPassword", authn.MD5Hex("n3w"), "newPassword1", authn.MD5Hex("n3w"))).OK(t, nil)
	onB.Get("/api/blade-user/info", nil).Fail(t, 401)
	r := b.Anon().Post("/api/blade-auth/oauth/token", apptest.Q("grant_type", "refresh_token", "refresh_token", onB.Refresh))
	if r.Status != 400 {
		t.Fatalf("refresh of B's session after the password change on A: %d %s", r.Status, r.Body)
	}
}

func TestScaleOutParamChangeReachesLockout(t *testing.T) {
	a, b := apptest.NewPair(t)
	ctx := context.Background()
	tenantID, _ := a.NewTenant("Lock Co")
	// a failed login on B reads (and caches) account.failCount there
	if r := b.Anon().Token_(tenantID, "admin", "wrong"); r.Status != 400 {
		t.Fatalf("wrong password on B: %d", r.Status)
	}
	if got := b.App.System.Param(ctx, "account.failCount", ""); got != "5" {
		t.Fatalf("B's account.failCount %q", got)
	}

	admin := a.Admin()
	var page apptest.Page[map[string]any]
	admin.Get("/api/blade-system/param/list", apptest.Q("paramKey", "account.failCount")).OK(t, &page)
	var param map[string]any
	for _, p := range page.Records {
		if p["paramKey"] == "account.failCount" {
			param = p
		}
	}
	if param == nil {
		t.Fatalf("account.failCount not listed: %+v", page.Records)
	}
	admin.Edit("/api/blade-system/param/submit", map[string]any{"id": param["id"], "paramValue": "2", "version": param["version"]}).OK(t, nil)
	soEventually(t, "account.failCount = 2", func() bool { return b.App.System.Param(ctx, "account.failCount", "") == "2" })

	// the second failure locks the account on B (with the old 5 it would not)
	b.Anon().Token_(tenantID, "admin", "wrong")
	r := b.Anon().Token_(tenantID, "admin", "admin")
	if r.Status != 400 || !strings.Contains(string(r.Body), "登录错误次数过多") {
		t.Fatalf("right password after 2 failures with failCount 2: %d %s", r.Status, r.Body)
	}
}

func TestScaleOutTenantExpiryBlocksOtherInstance(t *testing.T) {
	a, b := apptest.NewPair(t)
	tenantID, _ := a.NewTenant("Expiring Co")
	b.Login(tenantID, "admin", "admin") // B caches the tenant
	admin := a.Admin()
	var page apptest.Page[map[string]any]
	admin.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", tenantID)).OK(t, &page)
	if len(page.Records) != 1 {
		t.Fatalf("tenant page: %d records", len(page.Records))
	}
	admin.Post("/api/blade-system/tenant/setting", apptest.Q("ids", page.Records[0]["id"].(string), "expireTime", "2020-01-01 00:00:00")).OK(t, nil)
	soEventually(t, "the tenant's expiry", func() bool {
		r := b.Anon().Token_(tenantID, "admin", "admin")
		return r.Status == 400 && strings.Contains(string(r.Body), "租户授权已过期")
	})
}

// soNode is a menu tree node as routes and menu/list send it.
type soNode struct {
	ID       string   `json:"id"`
	Code     string   `json:"code"`
	Name     string   `json:"name"`
	Children []soNode `json:"children"`
}

func soWalk(ns []soNode, fn func(soNode)) {
	for _, n := range ns {
		fn(n)
		soWalk(n.Children, fn)
	}
}

func soMenuIDs(t *testing.T, c *apptest.Client) map[string]string {
	t.Helper()
	var tree []soNode
	c.Get("/api/blade-system/menu/list", nil).OK(t, &tree)
	out := map[string]string{}
	soWalk(tree, func(n soNode) { out[n.Code] = n.ID })
	return out
}

func soRouteCodes(t *testing.T, c *apptest.Client) string {
	t.Helper()
	var routes []soNode
	c.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
	var codes []string
	soWalk(routes, func(n soNode) { codes = append(codes, n.Code) })
	sort.Strings(codes)
	return strings.Join(codes, ",")
}

// soClerk makes a tenant with a non-admin role granted menuCodes and a user
// holding it, and returns the tenant's admin, the role and the user's id.
func soClerk(t *testing.T, h *apptest.H, ids map[string]string, menuCodes ...string) (tenantID string, ta *apptest.Client, roleID, userID string) {
	t.Helper()
	tenantID, ta = h.NewTenant("Grant Co")
	var role struct {
		ID string `json:"id"`
	}
	ta.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": "店员", "roleAlias": "clerk", "sort": 2}).OK(t, &role)
	menus := []string{}
	for _, c := range menuCodes {
		menus = append(menus, ids[c])
	}
	ta.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{role.ID}, "menuIds": menus}).OK(t, nil)
	_, deptID := adminIDs(t, ta)
	return tenantID, ta, role.ID, newUser(t, ta, "clerk1", "secret1", role.ID, deptID)
}

func TestScaleOutRoleGrantChangesOtherInstanceMenus(t *testing.T) {
	a, b := apptest.NewPair(t)
	ids := soMenuIDs(t, a.Admin())
	tenantID, ta, roleID, _ := soClerk(t, a, ids, "notice")
	clerk := b.Login(tenantID, "clerk1", "secret1")
	if got := soRouteCodes(t, clerk); got != "desk,notice" {
		t.Fatalf("clerk routes on B: %s", got)
	}
	ta.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{roleID},
		"menuIds": []string{ids["role"], ids["role_view"]}}).OK(t, nil)
	soEventually(t, "the re-grant in routes", func() bool { return soRouteCodes(t, clerk) == "authority,role" })
	var buttons []soNode
	clerk.Get("/api/blade-system/menu/buttons", nil).OK(t, &buttons)
	if !strings.Contains(string(mustJSON(t, buttons)), `"role_view"`) {
		t.Errorf("clerk buttons on B after the re-grant: %+v", buttons)
	}
	// a menu edit on A (the menu cache, not the grants) reaches B too
	a.Admin().Edit("/api/blade-system/menu/submit", map[string]any{"id": ids["role"], "name": "角色与权限"}).OK(t, nil)
	soEventually(t, "the menu edit in routes", func() bool {
		var routes []soNode
		clerk.Get("/api/blade-system/menu/routes", nil).OK(t, &routes)
		found := false
		soWalk(routes, func(n soNode) { found = found || (n.Code == "role" && n.Name == "角色与权限") })
		return found
	})
}

func TestScaleOutAPIScopeGrantReachesOtherInstance(t *testing.T) {
	a, b := apptest.NewPair(t)
	ids := soMenuIDs(t, a.Admin())
	tenantID, ta, roleID, userID := soClerk(t, a, ids, "user")
	clerk := b.Login(tenantID, "clerk1", "secret1")
	detail := apptest.Q("id", userID)
	clerk.Get("/api/blade-user/detail", detail).OK(t, nil) // B caches the (empty) scope grants

	var rule struct {
		ID string `json:"id"`
	}
	a.Admin().PostJSON("/api/blade-system/api-scope/submit", map[string]any{"menuId": ids["user"], "resourceCode": "user",
		"scopeName": "page only", "scopePath": "/api/blade-user/page", "scopeType": 1}).OK(t, &rule)
	ta.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{roleID}, "apiScopeIds": []string{rule.ID}}).OK(t, nil)
	soEventually(t, "the API-scope grant", func() bool { return clerk.Get("/api/blade-user/detail", detail).Status == 403 })
	clerk.Get("/api/blade-user/page", nil).OK(t, nil)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestScaleOutCaptchaOnceAcrossInstances(t *testing.T) {
	a, b := apptest.NewPair(t)
	r := a.Anon().Get("/api/blade-auth/oauth/captcha", nil)
	var cap map[string]string
	if err := json.Unmarshal(r.Body, &cap); err != nil || cap["key"] == "" {
		t.Fatalf("captcha on A: %d %s", r.Status, r.Body)
	}
	answer := a.App.Auth.Captcha.(*auth.RedisCaptcha).Peek(cap["key"])
	login := func(h *apptest.H) *apptest.Resp {
		q := url.Values{"tenantId": {"000000"}, "username": {"admin"}, "password": {authn.MD5Hex("admin")}, "grant_type": {"captcha"}, "scope": {"all"}}
		return h.Anon().Do("POST", "/api/blade-auth/oauth/token?"+q.Encode(), nil,
			map[string]string{"Tenant-Id": "000000", "Captcha-Key": cap["key"], "Captcha-Code": answer})
	}
	if r := login(b); r.Status != 200 {
		t.Fatalf("A's captcha answered on B: %d %s", r.Status, r.Body)
	}
	for name, h := range map[string]*apptest.H{"B": b, "A": a} {
		if r := login(h); r.Status != 400 || !strings.Contains(string(r.Body), "验证码不正确") {
			t.Fatalf("captcha used again on %s: %d %s", name, r.Status, r.Body)
		}
	}
}

// soSMS captures the codes instance A sends.
type soSMS struct {
	mu    sync.Mutex
	codes map[string]string
}

func (s *soSMS) Send(_ context.Context, phone, _ string, params map[string]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[phone] = params["code"]
	return nil
}

func TestScaleOutSMSCodeAcrossInstances(t *testing.T) {
	a, b := apptest.NewPair(t)
	tenantID, ta := a.NewTenant("SMS Co")
	roleID, deptID := adminIDs(t, ta)
	newUser(t, ta, "sam", "pw", roleID, deptID) // phone 13800000000
	sent := &soSMS{codes: map[string]string{}}
	a.App.Auth.SMS.(*auth.SMSCodes).SetProvider(sent)
	a.Anon().Post("/api/blade-auth/oauth/sms/send", apptest.Q("tenantId", tenantID, "phone", "13800000000")).OK(t, nil)
	// the resend interval holds across instances
	if r := b.Anon().Post("/api/blade-auth/oauth/sms/send", apptest.Q("tenantId", tenantID, "phone", "13800000000")); r.Status != 429 {
		t.Fatalf("second send on B within the interval: %d %s", r.Status, r.Body)
	}
	sent.mu.Lock()
	code := sent.codes["13800000000"]
	sent.mu.Unlock()
	phone := func(h *apptest.H) *apptest.Resp {
		q := url.Values{"grant_type": {"password"}, "type": {"phone"}, "phone": {"13800000000"}, "code": {code}, "tenantId": {tenantID}, "scope": {"all"}}
		return h.Anon().Do("POST", "/api/blade-auth/oauth/token?"+q.Encode(), nil, map[string]string{"Tenant-Id": tenantID})
	}
	if r := phone(b); r.Status != 200 {
		t.Fatalf("A's SMS code on B: %d %s", r.Status, r.Body)
	}
	if r := phone(a); r.Status != 400 {
		t.Fatalf("SMS code used twice: %d %s", r.Status, r.Body)
	}
}
