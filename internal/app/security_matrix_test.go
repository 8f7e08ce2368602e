package app_test

import (
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/resource"
)

// cast is the four callers of the sensitive-endpoint matrix (docs/security.md):
// the super user; a platform admin (tenant 000000, role alias admin); a fresh
// tenant's admin; and a plain user of tenant 000000 whose role has no alias
// the server knows but holds every menu and button.
type cast struct {
	super, platformAdmin, tenantAdmin, plain *apptest.Client

	tenantID   string            // the fresh tenant
	menus      map[string]string // menu and button ids by code
	superRole  string            // role administrator (000000)
	adminRole  string            // role admin of 000000
	plainRole  string            // the plain user's role (000000)
	tenantRole string            // the fresh tenant's admin role
	tenantRow  string            // the fresh tenant's row id
	dept       string            // the platform head office
	n          int               // for unique names
}

const castPassword = "Passw0rd!"

func newCast(t *testing.T, h *apptest.H) *cast {
	t.Helper()
	c := &cast{super: h.Admin()}
	c.superRole, c.dept = adminIDs(t, c.super)
	c.menus = soMenuIDs(t, c.super)
	c.adminRole = roleByAlias(t, c.super, "000000", "admin")
	c.plainRole = newRole(t, c.super, "店员", "clerk")
	all := make([]string, 0, len(c.menus))
	for _, id := range c.menus {
		all = append(all, id)
	}
	c.super.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{c.plainRole}, "menuIds": all}).OK(t, nil)
	newUser(t, c.super, "padmin", castPassword, c.adminRole, c.dept)
	newUser(t, c.super, "clerk", castPassword, c.plainRole, c.dept)
	c.platformAdmin = h.Login("000000", "padmin", castPassword)
	c.plain = h.Login("000000", "clerk", castPassword)
	c.tenantID, c.tenantAdmin = h.NewTenant("Matrix Co")
	c.tenantRole, _ = adminIDs(t, c.tenantAdmin)
	var page apptest.Page[struct {
		ID string `json:"id"`
	}]
	c.super.Get("/api/blade-system/tenant/list", apptest.Q("tenantId", c.tenantID)).OK(t, &page)
	if len(page.Records) != 1 {
		t.Fatalf("tenant %s listed %d times", c.tenantID, len(page.Records))
	}
	c.tenantRow = page.Records[0].ID
	return c
}

// roleByAlias finds a tenant's role by alias through the super user's role list.
func roleByAlias(t *testing.T, super *apptest.Client, tenantID, alias string) string {
	t.Helper()
	var tree []struct {
		ID        string `json:"id"`
		TenantID  string `json:"tenantId"`
		RoleAlias string `json:"roleAlias"`
	}
	super.Get("/api/blade-system/role/list", apptest.Q("roleAlias_equal", alias, "tenantId", tenantID)).OK(t, &tree)
	for _, r := range tree {
		if r.TenantID == tenantID && r.RoleAlias == alias {
			return r.ID
		}
	}
	t.Fatalf("no role %s in tenant %s: %+v", alias, tenantID, tree)
	return ""
}

// newRole creates a role in the caller's tenant and returns its id.
func newRole(t *testing.T, c *apptest.Client, name, alias string) string {
	t.Helper()
	var role struct {
		ID string `json:"id"`
	}
	c.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": name, "roleAlias": alias, "sort": 9}).OK(t, &role)
	return role.ID
}

// seq makes names unique within one console.
func (c *cast) seq(prefix string) string {
	c.n++
	return fmt.Sprintf("%s%d", prefix, c.n)
}

// create submits a new row as the super user and returns its id.
func (c *cast) create(t *testing.T, path string, body map[string]any) string {
	t.Helper()
	var row struct {
		ID string `json:"id"`
	}
	c.super.PostJSON(path, body).OK(t, &row)
	return row.ID
}

// version reads a row's optimistic-lock version as the super user.
func (c *cast) version(t *testing.T, detailPath, id string) int {
	t.Helper()
	var row struct {
		Version int `json:"version"`
	}
	c.super.Get(detailPath, apptest.Q("id", id)).OK(t, &row)
	return row.Version
}

// newTenant creates a tenant as the super user: its row id and tenant id.
func (c *cast) newTenant(t *testing.T) (id, tenantID string) {
	t.Helper()
	var row struct {
		ID       string `json:"id"`
		TenantID string `json:"tenantId"`
	}
	c.super.PostJSON("/api/blade-system/tenant/submit", map[string]any{"tenantName": c.seq("Tenant "), "linkman": "x"}).OK(t, &row)
	return row.ID, row.TenantID
}

// A probe is one request to a sensitive endpoint. prepare makes the fresh
// rows it acts on (as the super user, or the tenant admin for rows of their
// tenant) and returns its query and JSON body (nil: none); shows, for a
// read, tells whether the answer shows the secret in plain.
type probe struct {
	method, path string
	prepare      func(t *testing.T, c *cast) (url.Values, any)
	shows        func(t *testing.T, r *apptest.Resp) bool
}

func post(path string, prepare func(t *testing.T, c *cast) (url.Values, any)) probe {
	return probe{method: "POST", path: path, prepare: prepare}
}

// read is a GET of a list whose row keyed key=keyValue holds the secret field=plain.
func read(path, key, keyValue, field, plain string) probe {
	return probe{method: "GET", path: path,
		prepare: func(*testing.T, *cast) (url.Values, any) { return apptest.Q(key, keyValue), nil },
		shows: func(t *testing.T, r *apptest.Resp) bool {
			var page apptest.Page[map[string]any]
			r.OK(t, &page)
			for _, row := range page.Records {
				if row[key] != keyValue {
					continue
				}
				if v := row[field]; v != plain && v != resource.SecretMask {
					t.Fatalf("%s: %s is neither shown nor masked: %v", path, field, v)
				}
				return row[field] == plain
			}
			t.Fatalf("%s: no row %s=%s", path, key, keyValue)
			return false
		}}
}

// readHidden is a GET of a list of configurations whose write-only secret
// (type=password) field is never sent: prepare saves one with the secret
// in the platform tenant and one in the fresh tenant, so that every caller
// lists one of their own; shows tells whether any row sends the field.
func readHidden(path, field string, config func(c *cast) map[string]any) probe {
	return probe{method: "GET", path: path,
		prepare: func(t *testing.T, c *cast) (url.Values, any) {
			c.super.PostJSON(strings.Replace(path, "/list", "/submit", 1), config(c)).OK(t, nil)
			c.tenantAdmin.PostJSON(strings.Replace(path, "/list", "/submit", 1), config(c)).OK(t, nil)
			return nil, nil
		},
		shows: func(t *testing.T, r *apptest.Resp) bool {
			var page apptest.Page[map[string]any]
			r.OK(t, &page)
			if len(page.Records) == 0 {
				t.Fatalf("%s: no configuration listed", path)
			}
			for _, row := range page.Records {
				if v, ok := row[field]; ok && v != "" {
					return true
				}
			}
			return false
		}}
}

func get(path string) probe {
	return probe{method: "GET", path: path, prepare: func(*testing.T, *cast) (url.Values, any) { return nil, nil }}
}

// userTarget is a fresh account a user probe acts on, with an ordinary role of its tenant.
type userTarget struct{ id, role string }

var userTargets = []struct {
	name string
	make func(t *testing.T, c *cast) userTarget
}{
	{"a platform user", func(t *testing.T, c *cast) userTarget {
		return userTarget{newUser(t, c.super, c.seq("pu"), castPassword, c.plainRole, c.dept), c.plainRole}
	}},
	{"a second super user", func(t *testing.T, c *cast) userTarget {
		return userTarget{newUser(t, c.super, c.seq("su"), castPassword, c.superRole, c.dept), c.plainRole}
	}},
	{"a tenant user", func(t *testing.T, c *cast) userTarget {
		role, dept := adminIDs(t, c.tenantAdmin)
		return userTarget{newUser(t, c.tenantAdmin, c.seq("tu"), castPassword, role, dept), role}
	}},
}

// userProbes act on one target each: "<name> <target>" in the table.
var userProbes = map[string]struct {
	path  string
	build func(t *testing.T, c *cast, u userTarget) (url.Values, any)
}{
	"user/submit · edit": {"/api/blade-user/submit", func(t *testing.T, c *cast, u userTarget) (url.Values, any) {
		return nil, map[string]any{"id": u.id, "realName": "Renamed", "version": c.version(t, "/api/blade-user/detail", u.id)}
	}},
	"user/update ·": {"/api/blade-user/update", func(t *testing.T, c *cast, u userTarget) (url.Values, any) {
		return nil, map[string]any{"id": u.id, "realName": "Renamed", "version": c.version(t, "/api/blade-user/detail", u.id)}
	}},
	"user/update-platform ·": {"/api/blade-user/update-platform", func(t *testing.T, c *cast, u userTarget) (url.Values, any) {
		return nil, map[string]any{"userId": u.id, "userType": 2, "userExt": "{}"}
	}},
	"user/reset-password ·": {"/api/blade-user/reset-password", func(t *testing.T, c *cast, u userTarget) (url.Values, any) {
		return apptest.Q("userIds", u.id), nil
	}},
	"user/enabledStatus · disable": {"/api/blade-user/enabledStatus", func(t *testing.T, c *cast, u userTarget) (url.Values, any) {
		return apptest.Q("ids", u.id, "enabledStatus", "0"), nil
	}},
	"user/remove ·": {"/api/blade-user/remove", func(t *testing.T, c *cast, u userTarget) (url.Values, any) {
		return apptest.Q("ids", u.id), nil
	}},
	"user/grant · an ordinary role to": {"/api/blade-user/grant", func(t *testing.T, c *cast, u userTarget) (url.Values, any) {
		return apptest.Q("userIds", u.id, "roleIds", u.role), nil
	}},
}

// probes returns every probe by its row name in docs/security.md.
func probes() map[string]probe {
	out := map[string]probe{}
	for prefix, p := range userProbes {
		for _, target := range userTargets {
			out[prefix+" "+target.name] = post(p.path, func(t *testing.T, c *cast) (url.Values, any) { return p.build(t, c, target.make(t, c)) })
		}
	}
	newUserBody := func(c *cast, role string) map[string]any {
		account := c.seq("nu")
		return map[string]any{"account": account, "name": account, "realName": account, "password": castPassword, "roleId": role, "deptId": c.dept}
	}
	fresh := func(path string, body func(c *cast) map[string]any) func(t *testing.T, c *cast) (url.Values, any) {
		return func(t *testing.T, c *cast) (url.Values, any) {
			return apptest.Q("ids", c.create(t, path, body(c))), nil
		}
	}
	body := func(b func(c *cast) map[string]any) func(t *testing.T, c *cast) (url.Values, any) {
		return func(t *testing.T, c *cast) (url.Values, any) { return nil, b(c) }
	}
	pkg := func(c *cast) map[string]any { return map[string]any{"packageName": c.seq("pkg")} }
	client := func(c *cast) map[string]any {
		return map[string]any{"clientId": c.seq("cl"), "clientSecret": "s3cret", "scope": "all", "authorizedGrantTypes": "password",
			"accessTokenValidity": 3600, "refreshTokenValidity": 3600}
	}
	menu := func(c *cast) map[string]any {
		code := c.seq("mx")
		return map[string]any{"parentId": c.menus["system"], "code": code, "name": code, "path": "/system/" + code, "sort": 99, "category": 1}
	}
	dataRule := func(c *cast) map[string]any {
		return map[string]any{"menuId": c.menus["user"], "resourceCode": "user", "scopeName": c.seq("own"), "scopeType": 2, "scopeColumn": "create_user"}
	}
	apiRule := func(c *cast) map[string]any {
		return map[string]any{"menuId": c.menus["user"], "resourceCode": "user", "scopeName": c.seq("page"), "scopePath": "/api/blade-user/page", "scopeType": 1}
	}
	param := func(c *cast) map[string]any {
		return map[string]any{"paramName": "p", "paramKey": c.seq("matrix.key"), "paramValue": "v"}
	}
	grant := func(role func(t *testing.T, c *cast) string) func(t *testing.T, c *cast) (url.Values, any) {
		return func(t *testing.T, c *cast) (url.Values, any) {
			return nil, map[string]any{"roleIds": []string{role(t, c)}, "menuIds": []string{c.menus["desk"]}}
		}
	}
	for name, p := range map[string]probe{
		"user/submit · new platform user":                    post("/api/blade-user/submit", body(func(c *cast) map[string]any { return newUserBody(c, c.plainRole) })),
		"user/submit · new user with the administrator role": post("/api/blade-user/submit", body(func(c *cast) map[string]any { return newUserBody(c, c.superRole) })),
		"user/grant · the administrator role to a platform user": post("/api/blade-user/grant", func(t *testing.T, c *cast) (url.Values, any) {
			return apptest.Q("userIds", userTargets[0].make(t, c).id, "roleIds", c.superRole), nil
		}),
		"tenant/submit · new tenant": post("/api/blade-system/tenant/submit", body(func(c *cast) map[string]any {
			return map[string]any{"tenantName": c.seq("Tenant "), "linkman": "x"}
		})),
		"tenant/submit · raise the tenant admin's own quota": post("/api/blade-system/tenant/submit", func(t *testing.T, c *cast) (url.Values, any) {
			return nil, map[string]any{"id": c.tenantRow, "accountNumber": -1, "version": c.version(t, "/api/blade-system/tenant/detail", c.tenantRow)}
		}),
		"tenant/remove · a tenant": post("/api/blade-system/tenant/remove", func(t *testing.T, c *cast) (url.Values, any) {
			id, _ := c.newTenant(t)
			return apptest.Q("ids", id), nil
		}),
		"tenant/setting · quota and expiry of a tenant": post("/api/blade-system/tenant/setting", func(t *testing.T, c *cast) (url.Values, any) {
			id, _ := c.newTenant(t)
			return apptest.Q("ids", id, "accountNumber", "-1", "expireTime", "2099-01-01 00:00:00"), nil
		}),
		"tenant/datasource · bind a tenant to a data source": post("/api/blade-system/tenant/datasource", func(t *testing.T, c *cast) (url.Values, any) {
			_, tenantID := c.newTenant(t)
			ds := c.create(t, "/api/blade-develop/datasource/submit", map[string]any{"name": c.seq("ds"), "driverClass": "org.postgresql.Driver",
				"url": "postgres://db2:5432/x", "username": "u", "password": "p"})
			return apptest.Q("tenantId", tenantID, "datasourceId", ds), nil
		}),
		"tenant-package/submit · new package": post("/api/blade-system/tenant-package/submit", body(pkg)),
		"tenant-package/remove · a package":   post("/api/blade-system/tenant-package/remove", fresh("/api/blade-system/tenant-package/submit", pkg)),
		"tenant-package/list":                 get("/api/blade-system/tenant-package/list"),
		"client/submit · new client":          post("/api/blade-system/client/submit", body(client)),
		"client/remove · a client":            post("/api/blade-system/client/remove", fresh("/api/blade-system/client/submit", client)),
		"client/list":                         read("/api/blade-system/client/list", "clientId", "saber", "clientSecret", "saber_secret"),
		"menu/submit · new menu":              post("/api/blade-system/menu/submit", body(menu)),
		"menu/remove · a menu":                post("/api/blade-system/menu/remove", fresh("/api/blade-system/menu/submit", menu)),
		"role/submit · new role of the caller's tenant": post("/api/blade-system/role/submit", body(func(c *cast) map[string]any {
			return map[string]any{"roleName": c.seq("role"), "roleAlias": c.seq("r"), "sort": 9}
		})),
		"role/submit · new role with the alias Admin (any case)": post("/api/blade-system/role/submit", body(func(c *cast) map[string]any {
			return map[string]any{"roleName": c.seq("role"), "roleAlias": "Admin", "sort": 9}
		})),
		"role/submit · new role with the alias administrator": post("/api/blade-system/role/submit", body(func(c *cast) map[string]any {
			return map[string]any{"roleName": c.seq("role"), "roleAlias": "administrator", "sort": 9}
		})),
		"role/submit · rename the administrator role": post("/api/blade-system/role/submit", func(t *testing.T, c *cast) (url.Values, any) {
			return nil, map[string]any{"id": c.superRole, "roleName": "超级管理员", "version": c.version(t, "/api/blade-system/role/detail", c.superRole)}
		}),
		"role/remove · a platform role": post("/api/blade-system/role/remove", func(t *testing.T, c *cast) (url.Values, any) {
			return apptest.Q("ids", newRole(t, c.super, c.seq("role"), c.seq("r"))), nil
		}),
		"role/remove · the administrator role": post("/api/blade-system/role/remove", func(*testing.T, *cast) (url.Values, any) { return nil, nil }),
		"role/grant · menus to a platform role": post("/api/blade-system/role/grant", grant(func(t *testing.T, c *cast) string {
			return newRole(t, c.super, c.seq("role"), c.seq("r"))
		})),
		"role/grant · menus to the administrator role": post("/api/blade-system/role/grant", func(t *testing.T, c *cast) (url.Values, any) {
			return nil, map[string]any{"roleIds": []string{c.superRole}, "menuIds": slices.Collect(maps.Values(c.menus))}
		}),
		"role/grant · menus to a tenant role": post("/api/blade-system/role/grant", grant(func(t *testing.T, c *cast) string {
			return newRole(t, c.tenantAdmin, c.seq("role"), c.seq("r"))
		})),
		"topmenu/grant · menus of a top menu": post("/api/blade-system/topmenu/grant", func(t *testing.T, c *cast) (url.Values, any) {
			code := c.seq("top")
			id := c.create(t, "/api/blade-system/topmenu/submit", map[string]any{"code": code, "name": code, "sort": 9})
			return nil, map[string]any{"topMenuIds": []string{id}, "menuIds": []string{c.menus["desk"]}}
		}),
		"data-scope/submit · new rule": post("/api/blade-system/data-scope/submit", body(dataRule)),
		"data-scope/remove · a rule":   post("/api/blade-system/data-scope/remove", fresh("/api/blade-system/data-scope/submit", dataRule)),
		"api-scope/submit · new rule":  post("/api/blade-system/api-scope/submit", body(apiRule)),
		"api-scope/remove · a rule":    post("/api/blade-system/api-scope/remove", fresh("/api/blade-system/api-scope/submit", apiRule)),
		"param/submit · new parameter": post("/api/blade-system/param/submit", body(param)),
		"param/remove · a parameter":   post("/api/blade-system/param/remove", fresh("/api/blade-system/param/submit", param)),
		"param/list":                   read("/api/blade-system/param/list", "paramKey", "tenant.default.password", "paramValue", "admin"),
		"oss/list · a configuration with its secret key": readHidden("/api/blade-resource/oss/list", "secretKey", func(c *cast) map[string]any {
			return map[string]any{"ossCode": c.seq("oss"), "category": 1, "accessKey": "AKMATRIX", "secretKey": "oss-matrix-secret"}
		}),
		"sms/list · a configuration with its secret key": readHidden("/api/blade-resource/sms/list", "secretKey", func(c *cast) map[string]any {
			return map[string]any{"smsCode": c.seq("sms"), "category": 3, "templateId": "SMS_1", "accessKey": "k", "secretKey": "sms-matrix-secret", "signName": "x"}
		}),
		"oauth/clear-cache": get("/api/blade-auth/oauth/clear-cache"),
	} {
		out[name] = p
	}
	// the administrator role is known only once the cast exists
	admin := out["role/remove · the administrator role"]
	admin.prepare = func(_ *testing.T, c *cast) (url.Values, any) { return apptest.Q("ids", c.superRole), nil }
	out["role/remove · the administrator role"] = admin
	return out
}

// expectation is one cell of the table: a status and, for reads, whether
// the secret is shown ("shown"), masked ("masked"), or never sent
// ("hidden", a write-only secret).
type expectation struct {
	status int
	secret string
}

// matrixRow is one row of the table in docs/security.md.
type matrixRow struct {
	name  string
	cells [4]expectation
}

var callerNames = [4]string{"super user", "platform admin", "tenant admin", "plain user"}

// readMatrix parses the table between the matrix markers of docs/security.md.
func readMatrix(t *testing.T) []matrixRow {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(doc), "<!-- matrix:begin -->")
	table, _, ok2 := strings.Cut(rest, "<!-- matrix:end -->")
	if !ok1 || !ok2 {
		t.Fatal("docs/security.md: no matrix markers")
	}
	var rows []matrixRow
	for _, line := range strings.Split(strings.TrimSpace(table), "\n")[2:] { // after the header and its rule
		cols := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cols) != 5 {
			t.Fatalf("docs/security.md: matrix row %q has %d columns", line, len(cols))
		}
		row := matrixRow{name: strings.TrimSpace(cols[0])}
		for i, cell := range cols[1:] {
			f := strings.Fields(cell)
			n, err := strconv.Atoi(f[0])
			if err != nil || len(f) > 2 || (len(f) == 2 && f[1] != "shown" && f[1] != "masked" && f[1] != "hidden") {
				t.Fatalf("docs/security.md: row %q: bad cell %q", row.name, cell)
			}
			row.cells[i].status = n
			if len(f) == 2 {
				row.cells[i].secret = f[1]
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// TestSensitiveEndpointMatrix runs every row of the table in docs/security.md
// as the four callers, and without a token.
func TestSensitiveEndpointMatrix(t *testing.T) {
	rows := readMatrix(t)
	all := probes()
	for _, row := range rows {
		if _, ok := all[row.name]; !ok {
			t.Errorf("docs/security.md row %q has no probe", row.name)
		}
		delete(all, row.name)
	}
	for name := range all {
		t.Errorf("probe %q has no row in docs/security.md", name)
	}
	if t.Failed() {
		return
	}
	all = probes()
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		c := newCast(t, h)
		callers := [4]*apptest.Client{c.super, c.platformAdmin, c.tenantAdmin, c.plain}
		for _, row := range rows {
			p := all[row.name]
			t.Run(row.name, func(t *testing.T) {
				if r := h.Anon().Do(p.method, p.path, nil, nil); r.Status != 401 || r.Env.Code != 401 {
					t.Errorf("without a token: HTTP %d %s", r.Status, r.Body)
				}
				for i, want := range row.cells {
					t.Run(callerNames[i], func(t *testing.T) {
						q, body := p.prepare(t, c)
						var r *apptest.Resp
						switch {
						case body != nil:
							r = callers[i].PostJSON(p.path+query(q), body)
						case p.method == "GET":
							r = callers[i].Get(p.path, q)
						default:
							r = callers[i].Post(p.path, q)
						}
						if r.Status != want.status || r.Env.Code != want.status {
							t.Fatalf("want %d, got HTTP %d: %s", want.status, r.Status, r.Body)
						}
						if want.secret != "" && p.shows(t, r) != (want.secret == "shown") {
							t.Errorf("the secret should be %s: %s", want.secret, r.Body)
						}
					})
				}
			})
		}
	})
}

func query(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}
