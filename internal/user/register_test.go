package user_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// identity stores an unbound third-party identity of a tenant, as a social login would.
func identity(t *testing.T, h *apptest.H, tenantID, sub string) string {
	t.Helper()
	now := wire.Now()
	o := &auth.OAuthIdentity{ID: db.NewID(), TenantID: tenantID, CreateTime: now, UpdateTime: now, Status: 1, Version: 1,
		UUID: sub, Username: sub, Nickname: "Nick " + sub, Avatar: "https://img.example/" + sub + ".png", Email: sub + "@example.com", Source: "mock"}
	if _, err := h.App.DB.NewInsert().Model(o).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return o.ID.String()
}

func register(c *apptest.Client, kv ...string) *apptest.Resp {
	return c.Post("/api/blade-user/register-guest", apptest.Q(kv...))
}

func TestRegisterGuestValidation(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		anon := h.Anon()
		oid := identity(t, h, "000000", "val")
		cases := []struct {
			kv     []string
			zh, en string
		}{
			{[]string{"account", "a1", "password", "pw", "oauthId", oid}, "请先输入租户编号", "Please enter the tenant ID first"},
			{[]string{"tenantId", "000000", "password", "pw", "oauthId", oid}, "请先输入账号名称", "Please enter the account name first"},
			{[]string{"tenantId", "000000", "account", "a1", "oauthId", oid}, "请先输入密码", "Please enter the password first"},
			{[]string{"tenantId", "000000", "account", "a1", "password", "pw", "oauthId", "12345"}, "第三方登录信息错误", "third-party login information is invalid"},
			{[]string{"tenantId", "000000", "account", "a1", "password", "pw", "oauthId", "x"}, "第三方登录信息错误", "third-party login information is invalid"},
			{[]string{"tenantId", "424242", "account", "a1", "password", "pw", "oauthId", oid}, "租户ID未找到", "Tenant ID not found"},
			{[]string{"tenantId", "000000", "account", "admin", "password", "pw", "oauthId", oid}, "登录账号已存在", "Account already exists"},
			{[]string{"tenantId", "000000", "account", "bad account", "password", "pw", "oauthId", oid}, "登录账号格式不正确", "not in a valid format"},
		}
		for _, tc := range cases {
			anon.Lang = ""
			if msg := register(anon, tc.kv...).Fail(t, 400); !strings.Contains(msg, tc.zh) {
				t.Errorf("%v: zh %q, want %q", tc.kv, msg, tc.zh)
			}
			anon.Lang = "en"
			if msg := register(anon, tc.kv...).Fail(t, 400); !strings.Contains(msg, tc.en) {
				t.Errorf("%v: en %q, want %q", tc.kv, msg, tc.en)
			}
		}
		anon.Lang = ""

		// an identity of another tenant cannot be used here
		tenantB, _ := h.NewTenant("Tenant B")
		oidB := identity(t, h, tenantB, "other")
		if msg := register(anon, "tenantId", "000000", "account", "b1", "password", "pw", "oauthId", oidB).Fail(t, 400); !strings.Contains(msg, "第三方登录信息错误") {
			t.Errorf("identity of another tenant: %q", msg)
		}
		// a JSON body works as well as the query
		r := anon.PostJSON("/api/blade-user/register-guest", map[string]any{"tenantId": "000000", "name": "Json", "account": "json1",
			"password": authn.MD5Hex("pw"), "oauthId": oid}).OK(t, nil)
		if r.Env.Msg != "注册申请已提交,请耐心等待管理员通过!" {
			t.Errorf("register msg %q", r.Env.Msg)
		}
		if msg := register(anon, "tenantId", "000000", "account", "json2", "password", "pw", "oauthId", oid).Fail(t, 400); !strings.Contains(msg, "已绑定") {
			t.Errorf("bound identity: %q", msg)
		}
	})
}

func TestRegisterGuestApproval(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		anon, admin := h.Anon(), h.Admin()
		oid := identity(t, h, "000000", "guest")
		// plain text passwords are accepted too (hashed as the UI would)
		register(anon, "tenantId", "000000", "account", "guest", "password", "guest-pw", "oauthId", oid).OK(t, nil)

		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-user/page", apptest.Q("account", "guest")).OK(t, &page)
		if len(page.Records) != 1 {
			t.Fatalf("registered user not listed: %v", page.Records)
		}
		u := page.Records[0]
		if u["status"].(float64) != 2 || u["roleName"] == "" || u["deptName"] == "" || u["name"] != "Nick guest" ||
			u["email"] != "guest@example.com" || u["avatar"] == "" {
			t.Fatalf("registered user: %v", u)
		}
		var bound wire.ID
		if err := h.App.DB.NewSelect().Table("blade_user_oauth").Column("user_id").Where("id = ?", oid).Scan(context.Background(), &bound); err != nil {
			t.Fatal(err)
		}
		if bound.String() != u["id"] {
			t.Fatalf("identity bound to %s, want %s", bound, u["id"])
		}

		r := anon.Token_("000000", "guest", "guest-pw")
		if !strings.Contains(string(r.Body), "账号正在等待管理员审核") {
			t.Fatalf("pending login: %d %s", r.Status, r.Body)
		}
		admin.Post("/api/blade-user/enabledStatus", apptest.Q("ids", u["id"].(string), "enabledStatus", "1")).OK(t, nil)
		admin.Get("/api/blade-user/detail", apptest.Q("id", u["id"].(string))).OK(t, &u)
		if u["status"].(float64) != 1 {
			t.Fatalf("status after approval: %v", u["status"])
		}
		c := h.Login("000000", "guest", "guest-pw")
		if c.Login["role_name"] != "user" {
			t.Fatalf("approved login: %v", c.Login)
		}
	})
}

func TestRegisterGuestClosedAndQuota(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		anon, admin := h.Anon(), h.Admin()

		// a tenant whose quota is already used up by its admin
		tenantB, _ := h.NewTenant("Small Co")
		var tenants apptest.Page[map[string]any]
		admin.Get("/api/blade-system/tenant/page", apptest.Q("tenantId", tenantB)).OK(t, &tenants)
		admin.Edit("/api/blade-system/tenant/submit", map[string]any{"id": tenants.Records[0]["id"], "accountNumber": 1}).OK(t, nil)
		oidB := identity(t, h, tenantB, "q")
		if msg := register(anon, "tenantId", tenantB, "account", "q1", "password", "pw", "oauthId", oidB).Fail(t, 400); !strings.Contains(msg, "最大账号额度") {
			t.Errorf("quota: %q", msg)
		}
		// a tenant without a "user" role: the account is created without roles
		admin.Edit("/api/blade-system/tenant/submit", map[string]any{"id": tenants.Records[0]["id"], "accountNumber": -1}).OK(t, nil)
		register(anon, "tenantId", tenantB, "account", "q1", "password", "pw", "oauthId", oidB).OK(t, nil)

		// registration switched off
		var params apptest.Page[map[string]any]
		admin.Get("/api/blade-system/param/list", apptest.Q("paramKey", "account.registerUser")).OK(t, &params)
		if len(params.Records) != 1 {
			t.Fatalf("param account.registerUser: %v", params.Records)
		}
		admin.Edit("/api/blade-system/param/submit", map[string]any{"id": params.Records[0]["id"], "paramValue": "false"}).OK(t, nil)
		oid := identity(t, h, "000000", "closed")
		if msg := register(anon, "tenantId", "000000", "account", "c1", "password", "pw", "oauthId", oid).Fail(t, 400); !strings.Contains(msg, "未开启注册") {
			t.Errorf("registration off: %q", msg)
		}
		if msg := register(anon, "tenantId", "000000", "account", "c2", "password", "pw").Fail(t, 400); !strings.Contains(msg, "未开启注册") {
			t.Errorf("registration off, no social login: %q", msg)
		}
	})
}

// TestRegisterWithoutSocialLogin: a visitor registers in a tenant with no
// third-party login; the account waits for approval and cannot sign in
// until an administrator holding user_audit approves it; a rejected one is
// removed and its name may register again; only pending accounts are
// approved or rejected.
func TestRegisterWithoutSocialLogin(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		anon, admin := h.Anon(), h.Admin()
		r := anon.PostJSON("/api/blade-user/register-guest", map[string]any{"tenantId": "000000", "name": "Visitor", "account": "visitor",
			"password": authn.MD5Hex("v-pw")}).OK(t, nil)
		if r.Env.Msg != "注册申请已提交,请耐心等待管理员通过!" {
			t.Errorf("register msg %q", r.Env.Msg)
		}
		register(anon, "tenantId", "000000", "account", "loser", "password", "l-pw").OK(t, nil)

		// the pending filter lists the two
		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-user/page", apptest.Q("status", "2")).OK(t, &page)
		ids := map[string]string{}
		for _, u := range page.Records {
			if u["status"].(float64) != 2 {
				t.Fatalf("status filter: %v", u)
			}
			ids[u["account"].(string)] = u["id"].(string)
		}
		if ids["visitor"] == "" || ids["loser"] == "" {
			t.Fatalf("pending users: %v", page.Records)
		}
		anon.Lang = "en"
		if r := anon.Token_("000000", "visitor", "v-pw"); r.Status != 400 || !strings.Contains(string(r.Body), "waiting for administrator approval") {
			t.Fatalf("pending login (en): %d %s", r.Status, r.Body)
		}
		anon.Lang = ""

		// another tenant's administrator cannot approve (the row is not theirs)
		_, other := h.NewTenant("Other Co")
		other.Post("/api/blade-user/auditPass", apptest.Q("ids", ids["visitor"])).Fail(t, 404)

		admin.Post("/api/blade-user/auditPass", apptest.Q("ids", ids["visitor"])).OK(t, nil)
		c := h.Login("000000", "visitor", "v-pw")
		if c.Login["role_name"] != "user" {
			t.Fatalf("approved login: %v", c.Login)
		}
		// a user without the user_audit button cannot reject
		c.Post("/api/blade-user/auditRefuse", apptest.Q("ids", ids["loser"])).Fail(t, 403)
		// an enabled account is no longer pending: neither command applies
		if msg := admin.Post("/api/blade-user/auditRefuse", apptest.Q("ids", ids["visitor"])).Fail(t, 400); !strings.Contains(msg, "不能审核拒绝") {
			t.Errorf("refuse an enabled account: %q", msg)
		}

		admin.Post("/api/blade-user/auditRefuse", apptest.Q("ids", ids["loser"])).OK(t, nil)
		if r := anon.Token_("000000", "loser", "l-pw"); r.Status == 200 {
			t.Fatal("a rejected registration signed in")
		}
		admin.Get("/api/blade-user/page", apptest.Q("account", "loser")).OK(t, &page)
		if page.Total != 0 {
			t.Fatalf("rejected account still listed: %v", page.Records)
		}
		register(anon, "tenantId", "000000", "account", "loser", "password", "l-pw2").OK(t, nil)
	})
}

// A tenant without the "user" role (a new one has only admin): the
// registration has no role, so approving it says to give it one first;
// with a role given through user/grant, it is approved and signs in.
func TestApprovalNeedsARole(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, admin := h.NewTenant("Fresh Co")
		anon := h.Anon()
		register(anon, "tenantId", tenantID, "account", "newbie", "password", "n-pw").OK(t, nil)
		var page apptest.Page[map[string]any]
		admin.Get("/api/blade-user/page", apptest.Q("status", "2")).OK(t, &page)
		if len(page.Records) != 1 || page.Records[0]["roleId"] != "" {
			t.Fatalf("pending in a tenant without the user role: %v", page.Records)
		}
		id := page.Records[0]["id"].(string)
		if msg := admin.Post("/api/blade-user/auditPass", apptest.Q("ids", id)).Fail(t, 400); !strings.Contains(msg, "newbie") || !strings.Contains(msg, "角色配置") {
			t.Errorf("approving without a role: %q", msg)
		}
		if r := anon.Token_(tenantID, "newbie", "n-pw"); r.Status == 200 {
			t.Fatal("a refused approval left the account able to sign in")
		}
		var roles []struct {
			ID        string `json:"id"`
			RoleAlias string `json:"roleAlias"`
		}
		admin.Get("/api/blade-system/role/list", nil).OK(t, &roles)
		if len(roles) == 0 {
			t.Fatal("the tenant lists no role")
		}
		admin.Post("/api/blade-user/grant", apptest.Q("userIds", id, "roleIds", roles[0].ID)).OK(t, nil)
		admin.Post("/api/blade-user/auditPass", apptest.Q("ids", id)).OK(t, nil)
		h.Login(tenantID, "newbie", "n-pw")
	})
}
