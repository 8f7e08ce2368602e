package app_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"net/url"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/authn"
	"github.com/bluebird/console/internal/resource"
)

// rowsBy lists a resource and returns its rows keyed by one property.
func rowsBy(t *testing.T, c *apptest.Client, path, key string, q url.Values) map[string]map[string]any {
	t.Helper()
	q.Set("size", "1000")
	var page apptest.Page[map[string]any]
	c.Get(path, q).OK(t, &page)
	out := map[string]map[string]any{}
	for _, r := range page.Records {
		out[r[key].(string)] = r
	}
	return out
}

// exportHas tells whether an export of path contains s.
func exportHas(t *testing.T, c *apptest.Client, path, s string) bool {
	t.Helper()
	r := c.Get(path, nil)
	if r.Status != 200 {
		t.Fatalf("export %s: %d %s", path, r.Status, r.Body)
	}
	zr, err := zip.NewReader(bytes.NewReader(r.Body), int64(len(r.Body)))
	if err != nil {
		t.Fatalf("export %s is not xlsx: %v", path, err)
	}
	return zipContains(t, zr, s)
}

// Client secrets and secret parameters read as the mask in list, detail and
// export for everybody but the super user; other parameters stay readable.
func TestSecretsMaskedExceptForSuper(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		c := newCast(t, h)
		for _, who := range []struct {
			name   string
			c      *apptest.Client
			reveal bool
		}{{"super", c.super, true}, {"platform admin", c.platformAdmin, false}, {"tenant admin", c.tenantAdmin, false}, {"plain user", c.plain, false}} {
			want := func(plain string) string {
				if who.reveal {
					return plain
				}
				return resource.SecretMask
			}
			clients := rowsBy(t, who.c, "/api/blade-system/client/list", "clientId", url.Values{})
			saber := clients["saber"]
			if saber == nil || saber["clientSecret"] != want("saber_secret") {
				t.Errorf("%s: client/list saber = %v", who.name, saber)
			}
			var detail map[string]any
			who.c.Get("/api/blade-system/client/detail", apptest.Q("id", saber["id"].(string))).OK(t, &detail)
			if detail["clientSecret"] != want("saber_secret") {
				t.Errorf("%s: client/detail secret %v", who.name, detail["clientSecret"])
			}
			params := rowsBy(t, who.c, "/api/blade-system/param/list", "paramKey", url.Values{})
			for key, plain := range map[string]string{"tenant.default.password": "admin", "account.initPassword": "123456"} {
				if got := params[key]["paramValue"]; got != want(plain) {
					t.Errorf("%s: param %s = %v", who.name, key, got)
				}
			}
			if got := params["account.failCount"]["paramValue"]; got != "5" {
				t.Errorf("%s: a plain parameter is masked: %v", who.name, got)
			}
			var p map[string]any
			who.c.Get("/api/blade-system/param/detail", apptest.Q("id", params["tenant.default.password"]["id"].(string))).OK(t, &p)
			if p["paramValue"] != want("admin") {
				t.Errorf("%s: param/detail = %v", who.name, p["paramValue"])
			}
			if exportHas(t, who.c, "/api/blade-system/client/export", "saber_secret") != who.reveal {
				t.Errorf("%s: client export shows the secret: %v", who.name, !who.reveal)
			}
			if exportHas(t, who.c, "/api/blade-system/param/export?paramKey=initPassword", "123456") != who.reveal {
				t.Errorf("%s: param export shows the secret: %v", who.name, !who.reveal)
			}
		}
		// A secret is no filter: a guess at the value neither narrows nor
		// empties the list, so the list cannot be used to probe it.
		for _, guess := range []string{"admin", "wrong"} {
			q := apptest.Q("paramKey", "tenant.default.password", "paramValue", guess, "paramValue_equal", guess, "paramValue_likeright", guess)
			if got := rowsBy(t, c.tenantAdmin, "/api/blade-system/param/list", "paramKey", q); len(got) != 1 {
				t.Errorf("guess %q filtered the list: %v", guess, got)
			}
		}
		c.tenantAdmin.Get("/api/blade-system/client/list", apptest.Q("descs", "clientSecret")).Fail(t, 400)
	})
}

// clientLogin signs in as the super user through the given client and
// answers the HTTP status: the stored client secret is what decides.
func clientLogin(h *apptest.H, clientID, secret string) int {
	q := url.Values{"tenantId": {"000000"}, "username": {"admin"}, "password": {authn.MD5Hex("admin")},
		"grant_type": {"password"}, "scope": {"all"}}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(clientID+":"+secret))
	return h.Anon().Do("POST", "/api/blade-auth/oauth/token?"+q.Encode(), nil, map[string]string{"Authorization": basic, "Tenant-Id": "000000"}).Status
}

// Secrets are write-only: a submit that sends the mask, an empty value or no
// value keeps the stored secret; only a new value replaces it.
func TestSecretsWriteOnly(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		super := h.Admin()
		client := map[string]any{"clientId": "bbsec", "clientSecret": resource.SecretMask, "scope": "all",
			"authorizedGrantTypes": "password,refresh_token", "accessTokenValidity": 3600, "refreshTokenValidity": 7200}
		if msg := super.PostJSON("/api/blade-system/client/submit", client).Fail(t, 400); msg != "请输入应用密钥" {
			t.Errorf("a mask as a new secret: %q", msg)
		}
		super.Lang = "en"
		if msg := super.PostJSON("/api/blade-system/client/submit", client).Fail(t, 400); msg != "Please enter client secret" {
			t.Errorf("a mask as a new secret (en): %q", msg)
		}
		super.Lang = ""
		client["clientSecret"] = "first-secret"
		var row map[string]any
		super.PostJSON("/api/blade-system/client/submit", client).OK(t, &row)
		id := row["id"].(string)
		if got := clientLogin(h, "bbsec", "first-secret"); got != 200 {
			t.Fatalf("login through the new client: %d", got)
		}
		for _, keep := range []map[string]any{
			{"id": id, "clientSecret": resource.SecretMask, "scope": "server"},
			{"id": id, "clientSecret": "", "scope": "server"},
			{"id": id, "scope": "server"},
		} {
			super.Edit("/api/blade-system/client/submit", keep).OK(t, &row)
			if row["clientSecret"] != "first-secret" || row["scope"] != "server" {
				t.Errorf("submit %v: %v", keep, row)
			}
			if got := clientLogin(h, "bbsec", "first-secret"); got != 200 {
				t.Errorf("after submit %v the old secret no longer works: %d", keep, got)
			}
		}
		super.Edit("/api/blade-system/client/submit", map[string]any{"id": id, "clientSecret": "second-secret"}).OK(t, nil)
		if clientLogin(h, "bbsec", "first-secret") != 401 || clientLogin(h, "bbsec", "second-secret") != 200 {
			t.Errorf("a new secret did not replace the old one")
		}

		// secret parameters: the same, judged by the stored key
		params := rowsBy(t, super, "/api/blade-system/param/list", "paramKey", url.Values{})
		pw := params["tenant.default.password"]["id"].(string)
		for _, keep := range []string{resource.SecretMask, ""} {
			var p map[string]any
			super.Edit("/api/blade-system/param/submit", map[string]any{"id": pw, "paramValue": keep}).OK(t, &p)
			if p["paramValue"] != "admin" {
				t.Errorf("param submitted with %q: %v", keep, p["paramValue"])
			}
		}
		super.Edit("/api/blade-system/param/submit", map[string]any{"id": pw, "paramValue": "Tenant#1"}).OK(t, nil)
		var tenant struct {
			TenantID string `json:"tenantId"`
		}
		super.PostJSON("/api/blade-system/tenant/submit", map[string]any{"tenantName": "Secret Co", "linkman": "x"}).OK(t, &tenant)
		h.Login(tenant.TenantID, "admin", "Tenant#1") // the new tenant's admin got the new default password
		// a plain parameter is no secret: an empty value is refused, not kept
		fc := params["account.failCount"]["id"].(string)
		if msg := super.Edit("/api/blade-system/param/submit", map[string]any{"id": fc, "paramValue": ""}).Fail(t, 400); msg != "请输入参数键值" {
			t.Errorf("empty plain parameter: %q", msg)
		}
		// nor is the mask a value for a new secret parameter
		super.PostJSON("/api/blade-system/param/submit", map[string]any{"paramName": "SMS", "paramKey": "sms.demo.secretKey", "paramValue": resource.SecretMask}).Fail(t, 400)
	})
}

// The metadata tells the web form which inputs are write-only.
func TestSecretMetadata(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		field := func(res, name string) map[string]any {
			var m struct {
				Fields []map[string]any `json:"fields"`
			}
			admin.Get("/api/meta/resource", apptest.Q("name", res)).OK(t, &m)
			for _, f := range m.Fields {
				if f["name"] == name {
					return f
				}
			}
			t.Fatalf("%s has no field %s", res, name)
			return nil
		}
		cs := field("blade-system/client", "clientSecret")
		if cs["secret"] != true || cs["secretRows"] != nil || cs["filter"] != nil {
			t.Errorf("clientSecret metadata: %v", cs)
		}
		pv := field("blade-system/param", "paramValue")
		rows, _ := pv["secretRows"].(map[string]any)
		if pv["secret"] != true || rows["field"] != "paramKey" || len(rows["keys"].([]any)) == 0 {
			t.Errorf("paramValue metadata: %v", pv)
		}
	})
}
