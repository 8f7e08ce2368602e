package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/authn"
)

// newUser creates a user in the admin's tenant with the given role and the
// admin's department, and returns its id.
func newUser(t *testing.T, admin *apptest.Client, account, password, roleID, deptID string) string {
	t.Helper()
	var u map[string]any
	admin.PostJSON("/api/blade-user/submit", map[string]any{"account": account, "name": account, "realName": account,
		"password": password, "roleId": roleID, "deptId": deptID, "phone": "13800000000"}).OK(t, &u)
	if u["password"] != nil && u["password"] != "" {
		t.Fatalf("password echoed: %v", u)
	}
	return u["id"].(string)
}

func adminIDs(t *testing.T, c *apptest.Client) (roleID, deptID string) {
	return c.Login["role_id"].(string), c.Login["dept_id"].(string)
}

func TestUserLifecycle(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Users Co")
		roleID, deptID := adminIDs(t, ta)
		id := newUser(t, ta, "alice", "s3cret", roleID, deptID)
		// duplicate account, missing password, bad phone
		ta.PostJSON("/api/blade-user/submit", map[string]any{"account": "alice", "name": "a", "realName": "a", "password": "x", "roleId": roleID, "deptId": deptID}).Fail(t, 400)
		if msg := ta.PostJSON("/api/blade-user/submit", map[string]any{"account": "bob", "name": "b", "realName": "b", "roleId": roleID, "deptId": deptID}).Fail(t, 400); msg != "请输入密码" {
			t.Errorf("missing password msg %q", msg)
		}
		ta.PostJSON("/api/blade-user/submit", map[string]any{"account": "carol", "name": "c", "realName": "c", "password": "x", "roleId": roleID, "deptId": deptID, "phone": "12ab"}).Fail(t, 400)

		alice := h.Login(tenantID, "alice", "s3cret")
		var info map[string]any
		alice.Get("/api/blade-user/info", nil).OK(t, &info)
		if info["account"] != "alice" || info["deptName"] != "Users Co" {
			t.Fatalf("info: %v", info)
		}
		// profile update touches only allowed fields
		alice.PostJSON("/api/blade-user/update-info", map[string]any{"realName": "Alice", "phone": "13900000000", "account": "hacked"}).OK(t, nil)
		alice.Get("/api/blade-user/info", nil).OK(t, &info)
		if info["realName"] != "Alice" || info["account"] != "alice" {
			t.Fatalf("update-info: %v", info)
		}
		// password change: wrong old, mismatch, then success revokes the session
		alice.Post("/api/blade-user/update-password", apptest.Q("oldPassword", authn.MD5Hex("nope"), "newPassword", authn.MD5Hex("n1"), "newPassword1", authn.MD5Hex("n1"))).Fail(t, 400)
		if msg := alice.Post("/api/blade-user/update-password", apptest.Q("oldPassword", authn.MD5Hex("s3cret"), "newPassword", authn.MD5Hex("n1"), "newPassword1", authn.MD5Hex("n2"))).Fail(t, 400); msg != "两次密码输入不一致" {
			t.Errorf("mismatch msg %q", msg)
		}
		alice.Post("/api/blade-user/update-password", apptest.Q("oldPassword", authn.MD5Hex("s3cret"), "newPassword", authn.MD5Hex("n1"), "newPassword1", authn.MD5Hex("n1"))).OK(t, nil)
		alice.Get("/api/blade-user/info", nil).Fail(t, 401)
		alice = h.Login(tenantID, "alice", "n1")
		// reset password to account.initPassword
		ta.Post("/api/blade-user/reset-password", apptest.Q("userIds", id)).OK(t, nil)
		alice.Get("/api/blade-user/info", nil).Fail(t, 401)
		alice = h.Login(tenantID, "alice", "123456")
		// disable: login refused, token revoked; enable again
		ta.Post("/api/blade-user/enabledStatus", apptest.Q("ids", id, "enabledStatus", "0")).OK(t, nil)
		alice.Get("/api/blade-user/info", nil).Fail(t, 401)
		if r := h.Anon().Token_(tenantID, "alice", "123456"); r.Status != 400 || !strings.Contains(string(r.Body), "禁用") {
			t.Fatalf("disabled login: %d %s", r.Status, r.Body)
		}
		ta.Post("/api/blade-user/enabledStatus", apptest.Q("ids", id, "enabledStatus", "1")).OK(t, nil)
		h.Login(tenantID, "alice", "123456")
		ta.Post("/api/blade-user/enabledStatus", apptest.Q("ids", id, "enabledStatus", "7")).Fail(t, 400)
		// platform details
		ta.PostJSON("/api/blade-user/update-platform", map[string]any{"userId": id, "userType": 2, "userExt": `{"device":"pda"}`}).OK(t, nil)
		var pd map[string]any
		ta.Get("/api/blade-user/platform-detail", apptest.Q("id", id)).OK(t, &pd)
		if pd["userType"].(float64) != 2 || pd["userExt"] != `{"device":"pda"}` {
			t.Fatalf("platform detail: %v", pd)
		}
		// update (edit form), user-list, selectUserListPage
		ta.Edit("/api/blade-user/update", map[string]any{"id": id, "realName": "Alice L"}).OK(t, nil)
		var opts []map[string]any
		ta.Get("/api/blade-user/user-list", nil).OK(t, &opts)
		if len(opts) != 2 {
			t.Errorf("user-list: %v", opts)
		}
		var page apptest.Page[map[string]any]
		ta.Get("/api/blade-user/selectUserListPage", apptest.Q("realName", "Alice")).OK(t, &page)
		if page.Total != 1 || page.Records[0]["realName"] != "Alice L" {
			t.Fatalf("selectUserListPage: %+v", page)
		}
		// a user cannot delete themself; the admin can delete alice
		ta.Post("/api/blade-user/remove", apptest.Q("ids", ta.Login["user_id"].(string))).Fail(t, 400)
		ta.Post("/api/blade-user/remove", apptest.Q("ids", id)).OK(t, nil)
		if r := h.Anon().Token_(tenantID, "alice", "123456"); r.Status != 400 {
			t.Fatalf("deleted user logs in: %d", r.Status)
		}
		// an ordinary user may not administer users
		h.Admin() // keeps the super user able to log in
	})
}

func TestUserGrantAndQuoteSubmit(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, ta := h.NewTenant("Grant Co")
		_, other := h.NewTenant("Other Co")
		roleID, deptID := adminIDs(t, ta)
		otherRole, _ := adminIDs(t, other)
		id := newUser(t, ta, "dave", "pw", roleID, deptID)
		// a role of another tenant is refused
		ta.Post("/api/blade-user/grant", apptest.Q("userIds", id, "roleIds", otherRole)).Fail(t, 400)
		ta.Post("/api/blade-user/grant", apptest.Q("userIds", id, "roleIds", roleID)).OK(t, nil)
		// quote-submit upserts by account
		var got string
		ta.PostJSON("/api/blade-user/quote-submit", map[string]any{"account": "dave", "realName": "Dave Q"}).OK(t, &got)
		if got != id {
			t.Fatalf("quote-submit by account updated %s, want %s", got, id)
		}
		var u map[string]any
		ta.Get("/api/blade-user/detail", apptest.Q("id", id)).OK(t, &u)
		if u["realName"] != "Dave Q" {
			t.Fatalf("quote-submit did not update: %v", u)
		}
		// the other tenant's admin can neither see nor grant dave
		other.Get("/api/blade-user/detail", apptest.Q("id", id)).Fail(t, 404)
		other.Post("/api/blade-user/grant", apptest.Q("userIds", id, "roleIds", otherRole)).Fail(t, 404)
		other.Post("/api/blade-user/reset-password", apptest.Q("userIds", id)).Fail(t, 404)
	})
}

// A BladeX database imported with sha1(md5) hashes keeps working, and the
// hash is upgraded to argon2id on the first login.
func TestLegacyHashUpgrade(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		ctx := context.Background()
		md5 := authn.MD5Hex("admin")
		sha := sha1Hex(md5)
		if _, err := h.App.DB.NewUpdate().Table("blade_user").Set("password = ?", sha).Where("account = 'admin' AND tenant_id = '000000'").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		h.Admin()
		var stored string
		if err := h.App.DB.NewSelect().Table("blade_user").Column("password").Where("account = 'admin' AND tenant_id = '000000'").Scan(ctx, &stored); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(stored, "$argon2id$") {
			t.Fatalf("hash not upgraded: %s", stored)
		}
		h.Admin()
	})
}
