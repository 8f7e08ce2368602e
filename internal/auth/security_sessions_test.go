package auth_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bluebird/console/internal/apptest"
)

// Sessions (docs/security.md, "Sessions"): logout ends the whole session, and
// a change to a user's roles or status, or to the tenant, takes effect on the
// user's next request.

const sessPassword = "Passw0rd!"

// refreshWith uses a refresh token and returns the response.
func refreshWith(h *apptest.H, token string) *apptest.Resp {
	return h.Anon().Post("/api/blade-auth/oauth/token", apptest.Q("grant_type", "refresh_token", "refresh_token", token))
}

// adminOnly is an endpoint for administrators only: 200 or 403 tells which one the caller is.
func adminOnly(c *apptest.Client) *apptest.Resp {
	return c.Get("/api/blade-user/platform-detail", apptest.Q("id", c.Login["user_id"].(string)))
}

// sessUser creates a user of ta's tenant with the given role and returns its id.
func sessUser(t *testing.T, ta *apptest.Client, account, roleID string) string {
	t.Helper()
	var u struct {
		ID string `json:"id"`
	}
	ta.PostJSON("/api/blade-user/submit", map[string]any{"account": account, "name": account, "realName": account,
		"password": sessPassword, "roleId": roleID, "deptId": ta.Login["dept_id"]}).OK(t, &u)
	return u.ID
}

// sessRole creates a role in ta's tenant and returns its id.
func sessRole(t *testing.T, ta *apptest.Client, alias string) string {
	t.Helper()
	var r struct {
		ID string `json:"id"`
	}
	ta.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": alias, "roleAlias": alias, "sort": 5}).OK(t, &r)
	return r.ID
}

func TestLogoutEndsTheWholeSession(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		// the web app's logout: only the Blade-Auth header
		c := h.Admin()
		other := h.Admin()
		c.Get("/api/blade-auth/oauth/logout", nil).OK(t, nil)
		c.Get("/api/blade-system/param/list", nil).Fail(t, 401)
		if r := refreshWith(h, c.Refresh); r.Status != 400 || !strings.Contains(string(r.Body), "刷新令牌已失效") {
			t.Fatalf("refresh after logout: %d %s", r.Status, r.Body)
		}
		// another login of the same user is another session
		other.Get("/api/blade-system/param/list", nil).OK(t, nil)

		// a refreshed session is still one session: logging out with the new
		// access token ends the new refresh token too
		r := refreshWith(h, other.Refresh)
		var pair map[string]string
		_ = json.Unmarshal(r.Body, &pair)
		next := &apptest.Client{H: h, Token: pair["access_token"]}
		next.Post("/api/blade-auth/oauth/logout", nil).OK(t, nil)
		if r := refreshWith(h, pair["refresh_token"]); r.Status != 400 {
			t.Fatalf("refresh of a refreshed session after logout: %d %s", r.Status, r.Body)
		}

		// an access token that has just expired still ends its session
		third := h.Admin()
		claims, err := h.App.Auth.Signer.Verify(third.Refresh)
		if err != nil {
			t.Fatal(err)
		}
		expired := *claims
		expired.Kind = "access"
		tok, _, err := h.App.Auth.Signer.Issue(expired, -time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		(&apptest.Client{H: h, Token: tok}).Get("/api/blade-auth/oauth/logout", nil).OK(t, nil)
		if r := refreshWith(h, third.Refresh); r.Status != 400 {
			t.Fatalf("refresh after logout with an expired access token: %d %s", r.Status, r.Body)
		}
	})
}

// promotedClerk makes bob, a clerk of ta's tenant, signs him in on h, and
// checks that ta's grant of the admin role applies to his next request there.
func promotedClerk(t *testing.T, h *apptest.H, tenantID string, ta *apptest.Client) (id string, bob *apptest.Client, clerk string) {
	t.Helper()
	clerk = sessRole(t, ta, "clerk")
	id = sessUser(t, ta, "bob", clerk)
	bob = h.Login(tenantID, "bob", sessPassword)
	adminOnly(bob).Fail(t, 403)
	ta.Post("/api/blade-user/grant", apptest.Q("userIds", id, "roleIds", ta.Login["role_id"].(string))).OK(t, nil)
	adminOnly(bob).OK(t, nil)
	return id, bob, clerk
}

// Roles granted or taken away apply to the user's next request, without a
// new login, whichever endpoint changed them.
func TestRoleChangeAppliesOnNextRequest(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Sessions Co")
		adminRole := ta.Login["role_id"].(string)
		id, bob, clerk := promotedClerk(t, h, tenantID, ta)
		adminOnly(bob).OK(t, nil) // and the one after
		var info map[string]any
		bob.Get("/api/blade-auth/oauth/user-info", nil).OK(t, &info)
		if info["roleName"] != "admin" || info["roleId"] != adminRole {
			t.Fatalf("user-info after the grant: %v", info)
		}

		ta.Edit("/api/blade-user/update", map[string]any{"id": id, "roleId": clerk}).OK(t, nil)
		adminOnly(bob).Fail(t, 403)
		ta.Edit("/api/blade-user/submit", map[string]any{"id": id, "roleId": adminRole + "," + clerk}).OK(t, nil)
		adminOnly(bob).OK(t, nil)

		// a refresh issues tokens with the roles as they are
		ta.Post("/api/blade-user/grant", apptest.Q("userIds", id, "roleIds", clerk)).OK(t, nil)
		r := refreshWith(h, bob.Refresh)
		var pair map[string]string
		_ = json.Unmarshal(r.Body, &pair)
		if pair["role_name"] != "clerk" {
			t.Fatalf("refresh after the demotion: %s", r.Body)
		}
	})
}

// A changed role alias changes what its holders may do on their next request.
func TestRoleAliasChangeAppliesOnNextRequest(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, ta := h.NewTenant("Alias Co")
		adminOnly(ta).OK(t, nil)
		h.Admin().Edit("/api/blade-system/role/submit", map[string]any{"id": ta.Login["role_id"].(string), "roleAlias": "boss"}).OK(t, nil)
		adminOnly(ta).Fail(t, 403)
	})
}

// A disabled or removed user is refused (401) on the next request, whichever
// endpoint disabled it.
func TestDisabledOrRemovedUserIsRefused(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Refused Co")
		role := ta.Login["role_id"].(string)
		carol := sessUser(t, ta, "carol", role)
		dave := sessUser(t, ta, "dave", role)
		carolC, daveC := h.Login(tenantID, "carol", sessPassword), h.Login(tenantID, "dave", sessPassword)
		carolC.Get("/api/blade-user/info", nil).OK(t, nil)

		ta.Edit("/api/blade-user/submit", map[string]any{"id": carol, "status": 0}).OK(t, nil)
		carolC.Get("/api/blade-user/info", nil).Fail(t, 401)
		if r := refreshWith(h, carolC.Refresh); r.Status != 400 {
			t.Fatalf("refresh of a disabled user: %d %s", r.Status, r.Body)
		}
		// the admin cannot disable itself that way either
		self := ta.Login["user_id"].(string)
		ta.Edit("/api/blade-user/submit", map[string]any{"id": self, "status": 0}).Fail(t, 400)

		ta.Post("/api/blade-user/remove", apptest.Q("ids", dave)).OK(t, nil)
		daveC.Get("/api/blade-user/info", nil).Fail(t, 401)
		if r := refreshWith(h, daveC.Refresh); r.Status != 400 {
			t.Fatalf("refresh of a removed user: %d %s", r.Status, r.Body)
		}
	})
}

// tenantRowID is the row id of a tenant, for tenant/setting and remove.
func tenantRowID(t *testing.T, super *apptest.Client, tenantID string) string {
	t.Helper()
	var page apptest.Page[map[string]any]
	super.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", tenantID)).OK(t, &page)
	if len(page.Records) != 1 {
		t.Fatalf("tenant %s: %d rows", tenantID, len(page.Records))
	}
	return page.Records[0]["id"].(string)
}

// An expired or removed tenant's sessions are refused on their next request.
func TestTenantExpiryAndRemovalEndSessions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		super := h.Admin()
		tenantA, a := h.NewTenant("Expiring Co")
		rowA := tenantRowID(t, super, tenantA)
		a.Get("/api/blade-user/info", nil).OK(t, nil)
		super.Post("/api/blade-system/tenant/setting", apptest.Q("ids", rowA, "expireTime", "2020-01-01 00:00:00")).OK(t, nil)
		if msg := a.Get("/api/blade-user/info", nil).Fail(t, 401); msg != "租户授权已过期,请联系管理员" {
			t.Errorf("expired tenant: %q", msg)
		}
		a.Lang = "en"
		if msg := a.Get("/api/blade-user/info", nil).Fail(t, 401); !strings.Contains(msg, "expired") {
			t.Errorf("expired tenant (en): %q", msg)
		}
		// renewed: the same session works again, and so does a login
		super.Post("/api/blade-system/tenant/setting", apptest.Q("ids", rowA, "expireTime", "2099-01-01 00:00:00")).OK(t, nil)
		a.Get("/api/blade-user/info", nil).OK(t, nil)
		// the tenant's edit form sets the expiry too
		super.Edit("/api/blade-system/tenant/submit", map[string]any{"id": rowA, "expireTime": "2020-01-01 00:00:00"}).OK(t, nil)
		a.Get("/api/blade-user/info", nil).Fail(t, 401)

		// a licence runs out by itself
		tenantB, b := h.NewTenant("Running Out Co")
		soon := time.Now().Add(2 * time.Second).UTC().Format("2006-01-02 15:04:05")
		super.Post("/api/blade-system/tenant/setting", apptest.Q("ids", tenantRowID(t, super, tenantB), "expireTime", soon)).OK(t, nil)
		b.Get("/api/blade-user/info", nil).OK(t, nil)
		time.Sleep(3 * time.Second)
		b.Get("/api/blade-user/info", nil).Fail(t, 401)

		tenantC, c := h.NewTenant("Removed Co")
		super.Post("/api/blade-system/tenant/remove", apptest.Q("ids", tenantRowID(t, super, tenantC))).OK(t, nil)
		c.Get("/api/blade-user/info", nil).Fail(t, 401)
	})
}

// With account.failCount = 5, of 40 simultaneous wrong passwords at most 5
// are checked (each checked one answers "wrong password", the others "locked"),
// and the right password is then refused while the lock lasts.
func TestLockoutUnderConcurrency(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, _ := h.NewTenant("Lockout Co")
		checked, locked := concurrentWrongLogins(t, []*apptest.H{h}, tenantID, 40)
		if checked > 5 || checked+locked != 40 {
			t.Fatalf("%d of 40 wrong passwords were checked (%d locked)", checked, locked)
		}
		if r := h.Anon().Token_(tenantID, "admin", "admin"); r.Status != 400 || !strings.Contains(string(r.Body), "登录错误次数过多") {
			t.Fatalf("right password while locked: %d %s", r.Status, r.Body)
		}
	})
}

// concurrentWrongLogins sends n wrong passwords for the tenant's admin at once,
// spread over the instances, and counts the answers.
func concurrentWrongLogins(t *testing.T, hs []*apptest.H, tenantID string, n int) (checked, locked int) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := hs[i%len(hs)].Anon().Token_(tenantID, "admin", "wrong")
			mu.Lock()
			defer mu.Unlock()
			switch body := string(r.Body); {
			case strings.Contains(body, "用户名或密码错误"):
				checked++
			case strings.Contains(body, "登录错误次数过多"):
				locked++
			default:
				t.Errorf("wrong password: %d %s", r.Status, body)
			}
		}()
	}
	close(start)
	wg.Wait()
	return checked, locked
}

// on is a client of instance h holding the session of c (signed in elsewhere).
func on(h *apptest.H, c *apptest.Client) *apptest.Client {
	return &apptest.Client{H: h, Token: c.Token, Refresh: c.Refresh, Login: c.Login}
}

// Two instances behind a load balancer (PostgreSQL and Redis): what changes
// on A applies to B's very next request, without waiting for B's caches.
func TestScaleOutSessionChanges(t *testing.T) {
	a, b := apptest.NewPair(t)
	tenantID, ta := a.NewTenant("Scale Sessions")
	id, bob, _ := promotedClerk(t, b, tenantID, ta)
	ta.Edit("/api/blade-user/submit", map[string]any{"id": id, "status": 0}).OK(t, nil)
	bob.Get("/api/blade-user/info", nil).Fail(t, 401)

	// logout on A with the access token only; B refuses the session's refresh token
	onA := a.Login(tenantID, "admin", "admin")
	onA.Get("/api/blade-auth/oauth/logout", nil).OK(t, nil)
	if r := refreshWith(b, onA.Refresh); r.Status != 400 {
		t.Fatalf("refresh on B after logout on A: %d %s", r.Status, r.Body)
	}

	// the tenant expires on A: its sessions on B end at once
	onB := on(b, ta)
	onB.Get("/api/blade-user/info", nil).OK(t, nil) // B has the tenant cached
	super := a.Admin()
	super.Post("/api/blade-system/tenant/setting", apptest.Q("ids", tenantRowID(t, super, tenantID), "expireTime", "2020-01-01 00:00:00")).OK(t, nil)
	onB.Get("/api/blade-user/info", nil).Fail(t, 401)
}

// The lockout counts attempts in the shared database: 40 wrong passwords
// spread over two instances check at most account.failCount of them.
func TestScaleOutLockoutUnderConcurrency(t *testing.T) {
	a, b := apptest.NewPair(t)
	tenantID, _ := a.NewTenant("Scale Lockout")
	checked, locked := concurrentWrongLogins(t, []*apptest.H{a, b}, tenantID, 40)
	if checked > 5 || checked+locked != 40 {
		t.Fatalf("%d of 40 wrong passwords were checked (%d locked)", checked, locked)
	}
	if r := b.Anon().Token_(tenantID, "admin", "admin"); r.Status != 400 || !strings.Contains(string(r.Body), "登录错误次数过多") {
		t.Fatalf("right password while locked: %d %s", r.Status, r.Body)
	}
}
