package user_test

import (
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// Privilege rules (docs/security.md, "Roles"): nobody grants, assigns or
// creates a role above their own; only the super user assigns administrator
// or changes a super-user account; roles come from the user's own tenant.

const privPassword = "Passw0rd!"

// roleIDs maps a tenant's role aliases to ids, read by the super user.
func roleIDs(t *testing.T, super *apptest.Client, tenantID string) map[string]string {
	t.Helper()
	var list []struct {
		ID        string `json:"id"`
		TenantID  string `json:"tenantId"`
		RoleAlias string `json:"roleAlias"`
	}
	super.Get("/api/blade-system/role/list", apptest.Q("tenantId", tenantID)).OK(t, &list)
	out := map[string]string{}
	for _, r := range list {
		if r.TenantID == tenantID {
			out[r.RoleAlias] = r.ID
		}
	}
	return out
}

// addUser creates a user through c and returns its id.
func addUser(t *testing.T, c *apptest.Client, body map[string]any) string {
	t.Helper()
	full := map[string]any{"name": body["account"], "realName": body["account"], "password": privPassword}
	for k, v := range body {
		full[k] = v
	}
	var u struct {
		ID string `json:"id"`
	}
	c.PostJSON("/api/blade-user/submit", full).OK(t, &u)
	return u.ID
}

// userRow is the detail of a user as c sees it.
func userRow(t *testing.T, c *apptest.Client, id string) map[string]any {
	t.Helper()
	var u map[string]any
	c.Get("/api/blade-user/detail", apptest.Q("id", id)).OK(t, &u)
	return u
}

// platformCast is the platform tenant seen by its super user, an admin of
// tenant 000000 (role alias admin, not administrator) and a plain user.
type platformCast struct {
	super, padmin, plain    *apptest.Client
	superID, padminID, dept string
	roles                   map[string]string // 000000's roles by alias
	plainID                 string
}

func newPlatformCast(t *testing.T, h *apptest.H) *platformCast {
	t.Helper()
	c := &platformCast{super: h.Admin()}
	c.superID, c.dept = c.super.Login["user_id"].(string), c.super.Login["dept_id"].(string)
	c.roles = roleIDs(t, c.super, "000000")
	c.padminID = addUser(t, c.super, map[string]any{"account": "padmin", "roleId": c.roles["admin"], "deptId": c.dept})
	c.plainID = addUser(t, c.super, map[string]any{"account": "plain", "roleId": c.roles["user"], "deptId": c.dept})
	c.padmin = h.Login("000000", "padmin", privPassword)
	c.plain = h.Login("000000", "plain", privPassword)
	return c
}

// A platform admin cannot make itself (or anyone) the super user: not by
// grant, submit, update or quote-submit, nor by creating a user.
func TestPlatformAdminCannotAssignAdministrator(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		c := newPlatformCast(t, h)
		superRole := c.roles["administrator"]
		if msg := c.padmin.Post("/api/blade-user/grant", apptest.Q("userIds", c.padminID, "roleIds", superRole)).Fail(t, 403); msg != "只有超级管理员可以分配超级管理员角色" {
			t.Errorf("grant msg %q", msg)
		}
		c.padmin.Lang = "en"
		if msg := c.padmin.Post("/api/blade-user/grant", apptest.Q("userIds", c.plainID, "roleIds", superRole+","+c.roles["user"])).Fail(t, 403); !strings.Contains(msg, "super administrator role") {
			t.Errorf("grant msg (en) %q", msg)
		}
		c.padmin.Lang = ""
		c.padmin.Edit("/api/blade-user/submit", map[string]any{"id": c.padminID, "roleId": superRole}).Fail(t, 403)
		c.padmin.Edit("/api/blade-user/update", map[string]any{"id": c.padminID, "roleId": superRole}).Fail(t, 403)
		c.padmin.PostJSON("/api/blade-user/quote-submit", map[string]any{"account": "padmin", "roleId": superRole}).Fail(t, 403)
		c.padmin.PostJSON("/api/blade-user/submit", map[string]any{"account": "mole", "name": "m", "realName": "m",
			"password": privPassword, "roleId": superRole, "deptId": c.dept}).Fail(t, 403)

		// nothing changed: padmin is still a plain admin, and mole does not exist
		again := h.Login("000000", "padmin", privPassword)
		if again.Login["role_name"] != "admin" {
			t.Fatalf("padmin after the refusals: %v", again.Login["role_name"])
		}
		if r := h.Anon().Token_("000000", "mole", privPassword); r.Status == 200 {
			t.Fatal("a refused submit created the user")
		}
		// a plain user grants nothing, not even its own role
		c.plain.Post("/api/blade-user/grant", apptest.Q("userIds", c.plainID, "roleIds", c.roles["user"])).Fail(t, 403)
		// within the rules: the platform admin gives the tenant's other roles
		c.padmin.Post("/api/blade-user/grant", apptest.Q("userIds", c.plainID, "roleIds", c.roles["admin"])).OK(t, nil)
		// the super user may
		c.super.Post("/api/blade-user/grant", apptest.Q("userIds", c.padminID, "roleIds", superRole)).OK(t, nil)
		if h.Login("000000", "padmin", privPassword).Login["role_name"] != "administrator" {
			t.Fatal("the super user's grant of administrator did not take")
		}
	})
}

// Only the super user changes, resets, disables or removes an account that
// holds the administrator role.
func TestOnlySuperChangesSuperAccounts(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		c := newPlatformCast(t, h)
		root2 := addUser(t, c.super, map[string]any{"account": "root2", "roleId": c.roles["administrator"], "deptId": c.dept})
		for _, target := range []string{c.superID, root2} {
			refused := map[string]*apptest.Resp{
				"reset-password": c.padmin.Post("/api/blade-user/reset-password", apptest.Q("userIds", target)),
				"disable":        c.padmin.Post("/api/blade-user/enabledStatus", apptest.Q("ids", target, "enabledStatus", "0")),
				"remove":         c.padmin.Post("/api/blade-user/remove", apptest.Q("ids", target)),
				"update":         c.padmin.Edit("/api/blade-user/update", map[string]any{"id": target, "realName": "owned"}),
				"submit":         c.padmin.Edit("/api/blade-user/submit", map[string]any{"id": target, "status": 0}),
				"update-platform": c.padmin.PostJSON("/api/blade-user/update-platform",
					map[string]any{"userId": target, "userType": 2, "userExt": "{}"}),
				"grant":        c.padmin.Post("/api/blade-user/grant", apptest.Q("userIds", target, "roleIds", c.roles["user"])),
				"quote-submit": c.padmin.PostJSON("/api/blade-user/quote-submit", map[string]any{"account": "root2", "realName": "owned"}),
				// one forbidden target among allowed ones spoils the batch
				"reset (batch)": c.padmin.Post("/api/blade-user/reset-password", apptest.Q("userIds", c.plainID+","+target)),
			}
			for name, r := range refused {
				if msg := r.Fail(t, 403); msg != "只有超级管理员可以修改超级管理员账号" {
					t.Errorf("%s of %s: %q", name, target, msg)
				}
			}
		}
		// untouched: both still sign in with their passwords, with their roles
		h.Admin()
		if r := h.Login("000000", "root2", privPassword); r.Login["role_name"] != "administrator" {
			t.Fatalf("root2: %v", r.Login)
		}
		if u := userRow(t, c.super, c.superID); u["realName"] == "owned" || u["userType"].(float64) == 2 {
			t.Fatalf("super account changed: %v", u)
		}
		if u := userRow(t, c.super, c.plainID); u["status"].(float64) != 1 {
			t.Fatalf("the refused batch changed the plain user: %v", u)
		}
		// reading stays allowed within the tenant, and the platform admin manages plain users
		userRow(t, c.padmin, c.superID)
		c.padmin.Post("/api/blade-user/reset-password", apptest.Q("userIds", c.plainID)).OK(t, nil)
		// the super user manages any of them
		c.super.Post("/api/blade-user/reset-password", apptest.Q("userIds", root2)).OK(t, nil)
		c.super.Post("/api/blade-user/remove", apptest.Q("ids", root2)).OK(t, nil)
	})
}

// A user's roles are live roles of that user's tenant, whoever assigns them.
func TestRolesComeFromTheUsersTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		super := h.Admin()
		tenantA, a := h.NewTenant("Roles A")
		tenantB, _ := h.NewTenant("Roles B")
		roleA, deptA := a.Login["role_id"].(string), a.Login["dept_id"].(string)
		roleB := roleIDs(t, super, tenantB)["admin"]
		superRole := roleIDs(t, super, "000000")["administrator"]

		// the super user creating a user in tenant A with B's or the platform's role
		for _, role := range []string{roleB, superRole, roleA + "," + roleB} {
			msg := super.PostJSON("/api/blade-user/submit", map[string]any{"account": "x", "name": "x", "realName": "x",
				"password": privPassword, "roleId": role, "deptId": deptA, "tenantId": tenantA}).Fail(t, 400)
			if !strings.Contains(msg, "角色") {
				t.Errorf("role %s: %q", role, msg)
			}
		}
		id := addUser(t, a, map[string]any{"account": "alice", "roleId": roleA, "deptId": deptA})
		super.Edit("/api/blade-user/update", map[string]any{"id": id, "roleId": roleB}).Fail(t, 400)
		super.Post("/api/blade-user/grant", apptest.Q("userIds", id, "roleIds", superRole)).Fail(t, 400)
		a.Edit("/api/blade-user/update", map[string]any{"id": id, "roleId": roleB}).Fail(t, 400)
		if got := userRow(t, super, id)["roleId"]; got != roleA {
			t.Fatalf("alice's roles changed to %v", got)
		}
		// the tenant's own roles are fine, for its admin and for the super user
		super.PostJSON("/api/blade-user/submit", map[string]any{"account": "bob", "name": "b", "realName": "b",
			"password": privPassword, "roleId": roleA, "deptId": deptA, "tenantId": tenantA}).OK(t, nil)
		h.Login(tenantA, "bob", privPassword)
	})
}

// quote-submit finds the account in the tenant the user belongs to: for the
// super user the tenantId sent, not whichever tenant's "admin" comes first.
func TestQuoteSubmitStaysInItsTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		super := h.Admin()
		tenantA, a := h.NewTenant("Quote A")
		var got string
		super.PostJSON("/api/blade-user/quote-submit", map[string]any{"account": "admin", "tenantId": tenantA,
			"realName": "A boss", "version": userRow(t, a, a.Login["user_id"].(string))["version"]}).OK(t, &got)
		if got != a.Login["user_id"] {
			t.Fatalf("quote-submit of tenant %s's admin updated %s, want %s", tenantA, got, a.Login["user_id"])
		}
		if name := userRow(t, super, super.Login["user_id"].(string))["realName"]; name == "A boss" {
			t.Fatal("the super user's own account was renamed")
		}
	})
}

// A tenant administrator touches no user of another tenant, through any endpoint.
func TestTenantAdminStaysInItsTenant(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Own A")
		_, b := h.NewTenant("Other B")
		roleA, deptA := a.Login["role_id"].(string), a.Login["dept_id"].(string)
		roleB := b.Login["role_id"].(string)
		id := addUser(t, a, map[string]any{"account": "alice", "roleId": roleA, "deptId": deptA})
		version := userRow(t, a, id)["version"]
		calls := map[string]*apptest.Resp{
			"detail":          b.Get("/api/blade-user/detail", apptest.Q("id", id)),
			"platform-detail": b.Get("/api/blade-user/platform-detail", apptest.Q("id", id)),
			"submit":          b.PostJSON("/api/blade-user/submit", map[string]any{"id": id, "version": version, "realName": "x"}),
			"update":          b.PostJSON("/api/blade-user/update", map[string]any{"id": id, "version": version, "realName": "x"}),
			"update-platform": b.PostJSON("/api/blade-user/update-platform", map[string]any{"userId": id, "userType": 2}),
			"reset-password":  b.Post("/api/blade-user/reset-password", apptest.Q("userIds", id)),
			"grant":           b.Post("/api/blade-user/grant", apptest.Q("userIds", id, "roleIds", roleB)),
			"enabledStatus":   b.Post("/api/blade-user/enabledStatus", apptest.Q("ids", id, "enabledStatus", "0")),
			"remove":          b.Post("/api/blade-user/remove", apptest.Q("ids", id)),
		}
		for name, r := range calls {
			r.Fail(t, 404)
			_ = name
		}
		// quote-submit by alice's account makes (or here, refuses to make) a user of B, never edits A's
		b.PostJSON("/api/blade-user/quote-submit", map[string]any{"account": "alice", "realName": "x"}).Fail(t, 400)
		u := userRow(t, a, id)
		if u["realName"] != "alice" || u["status"].(float64) != 1 || u["userType"].(float64) != 1 || u["roleId"] != roleA {
			t.Fatalf("tenant B changed alice: %v", u)
		}
		h.Login(u["tenantId"].(string), "alice", privPassword)
	})
}

// Tenants cannot create or take away the aliases admin and administrator;
// nor can a non-super user change the administrator role's grants.
func TestReservedRoleAliases(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		super := h.Admin()
		c := newPlatformCast(t, h)
		tenantA, a := h.NewTenant("Alias A")
		adminA := a.Login["role_id"].(string)
		submit := "/api/blade-system/role/submit"
		var clerk struct {
			ID string `json:"id"`
		}
		a.PostJSON(submit, map[string]any{"roleName": "店员", "roleAlias": "clerk", "sort": 2}).OK(t, &clerk)
		refused := map[string]*apptest.Resp{
			"new admin (case)":       a.PostJSON(submit, map[string]any{"roleName": "x", "roleAlias": "Admin", "sort": 3}),
			"rename to admin":        a.Edit(submit, map[string]any{"id": clerk.ID, "roleAlias": "admin"}),
			"rename the admin role":  a.Edit(submit, map[string]any{"id": adminA, "roleAlias": "boss"}),
			"platform: new admin":    c.padmin.PostJSON(submit, map[string]any{"roleName": "x", "roleAlias": "ADMIN", "sort": 3}),
			"platform: rename admin": c.padmin.Edit(submit, map[string]any{"id": c.roles["admin"], "roleAlias": "boss"}),
			"platform: super role":   c.padmin.Edit(submit, map[string]any{"id": c.roles["administrator"], "roleName": "x"}),
			"platform: super grant": c.padmin.PostJSON("/api/blade-system/role/grant",
				map[string]any{"roleIds": []string{c.roles["administrator"]}, "menuIds": []string{}}),
		}
		for name, r := range refused {
			r.Fail(t, 403)
			_ = name
		}
		// renaming within the rules, and the admin role's own name, are fine
		a.Edit(submit, map[string]any{"id": clerk.ID, "roleAlias": "cashier"}).OK(t, nil)
		a.Edit(submit, map[string]any{"id": adminA, "roleName": "老板"}).OK(t, nil)
		if a2 := h.Login(tenantA, "admin", "admin"); a2.Login["role_name"] != "admin" {
			t.Fatalf("tenant admin: %v", a2.Login["role_name"])
		}
		// the super user may
		super.Edit(submit, map[string]any{"id": clerk.ID, "roleAlias": "admin2"}).OK(t, nil)
	})
}
