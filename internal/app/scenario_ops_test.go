package app_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

func TestOperationsEndpoints(t *testing.T) {
	h := apptest.New(t, "sqlite")
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready"} {
		res, err := http.Get(h.Server.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(b) != want {
			t.Errorf("%s: %d %q", path, res.StatusCode, b)
		}
	}
	h.Admin().Get("/api/blade-system/param/list", nil)
	res, err := http.Get(h.Server.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(b), `bluebird_http_request_duration_seconds_count{method="GET",route="/api/blade-system/param/list",status="2xx"}`) {
		t.Errorf("metrics lack the request histogram:\n%s", b[:min(len(b), 2000)])
	}
	// a 500 never shows internals; an unknown API path is a 404 envelope; the UI answers deep links
	r := h.Anon().Get("/api/no/such/thing", nil)
	if r.Status != 401 {
		t.Errorf("unknown path without a token: %d", r.Status)
	}
	r = h.Admin().Get("/api/no/such/thing", nil)
	r.Fail(t, 404)
	res, err = http.Get(h.Server.URL + "/system/user/index")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(b), "<") {
		t.Errorf("deep link: %d", res.StatusCode)
	}
	res, _ = http.Get(h.Server.URL + "/assets/missing-chunk.js")
	if res.StatusCode != 404 {
		t.Errorf("a missing chunk must 404, got %d", res.StatusCode)
	}
	res.Body.Close()
}

func TestBodyLimitAndMalformed(t *testing.T) {
	h := apptest.New(t, "sqlite")
	admin := h.Admin()
	big := strings.Repeat("x", 5<<20)
	r := admin.PostJSON("/api/blade-system/param/submit", `{"paramName":"`+big+`"}`)
	r.Fail(t, 413)
	admin.Lang = "en"
	if msg := admin.PostJSON("/api/blade-system/param/submit", `{"paramName": 12}`).Fail(t, 400); !strings.Contains(msg, "paramName") {
		t.Errorf("type error names the field: %q", msg)
	}
	admin.Get("/api/blade-system/param/detail", apptest.Q("id", "abc")).Fail(t, 400)
	admin.Get("/api/blade-system/param/list", apptest.Q("current", "x")).Fail(t, 400)
}

func TestResourceMetadata(t *testing.T) {
	h := apptest.New(t, "sqlite")
	admin := h.Admin()
	var meta struct {
		Path        string            `json:"path"`
		MenuCode    string            `json:"menuCode"`
		Permissions map[string]string `json:"permissions"`
		Fields      []struct {
			Name     string `json:"name"`
			Type     string `json:"type"`
			Required bool   `json:"required"`
			Label    struct{ Zh, En string }
			Messages map[string]struct{ Zh, En string }
		} `json:"fields"`
	}
	admin.Get("/api/meta/resource", apptest.Q("name", "blade-system/param")).OK(t, &meta)
	if meta.Path != "/api/blade-system/param" || meta.Permissions["add"] != "param_add" {
		t.Fatalf("meta: %+v", meta)
	}
	found := false
	for _, f := range meta.Fields {
		if f.Name == "paramValue" {
			found = true
			if f.Type != "text" || !f.Required || f.Messages["required"].Zh != "请输入参数键值" || f.Label.En == "" {
				t.Errorf("paramValue meta: %+v", f)
			}
		}
	}
	if !found {
		t.Error("paramValue missing from metadata")
	}
	var all []map[string]any
	admin.Get("/api/meta/resources", nil).OK(t, &all)
	if len(all) < 15 {
		t.Errorf("only %d resources in metadata", len(all))
	}
	admin.Get("/api/meta/resource", apptest.Q("name", "nope/nope")).Fail(t, 400)
	h.Anon().Get("/api/meta/resources", nil).Fail(t, 401)
}
