package app_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/auth"
	"github.com/bluebird/console/internal/website"
)

const (
	websiteAdmin  = "/api/website/client/"
	websitePublic = "/api/website/public/"
)

// websiteSite creates a tenant whose website answers at domain and signs in as its admin.
func websiteSite(t *testing.T, h *apptest.H, name, domain string) (string, *apptest.Client) {
	t.Helper()
	var tenant struct {
		TenantID string `json:"tenantId"`
	}
	h.Admin().PostJSON("/api/blade-system/tenant/submit", map[string]any{"tenantName": name, "linkman": "tester", "domainUrl": domain}).OK(t, &tenant)
	return tenant.TenantID, h.Login(tenant.TenantID, "admin", "admin")
}

// websiteUpload uploads a small PNG through oss put-file and returns its link.
func websiteUpload(t *testing.T, c *apptest.Client) string {
	t.Helper()
	png, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
	var out struct{ Link string }
	c.PutFile("", "cover.png", png).OK(t, &out)
	if out.Link == "" {
		t.Fatal("put-file answered no link")
	}
	return out.Link
}

// websiteSamples are a valid new row of each admin resource.
var websiteSamples = map[string]map[string]any{
	"employee": {"employeeName": "Li Lei", "position": "CTO", "isPublished": 1, "sort": 1},
	"news":     {"title": "Opening", "summary": "s", "content": "<p>hello</p>", "isPublished": 1},
	"cases":    {"title": "Factory", "customerName": "Acme", "isPublished": 1},
	"video":    {"title": "Onboarding", "isPublished": 1}, // and an uploaded video (websiteSample)
	"job":      {"jobName": "Engineer", "headcount": 2, "isPublished": 1},
	"customer": {"customerName": "Acme", "email": "a@example.com", "isPublished": 1},
	"user":     {"account": "web1", "realName": "Han Meimei", "phone": "13800000000"},
	"message":  {"applicantName": "Wang", "phone": "13900000000", "content": "hi"},
}

// mp4Head is the smallest file put-file takes as an MP4: an ftyp box.
const mp4Head = "\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"

func init() {
	sampleOverrides["website/video"] = func(_ *apptest.H, c *apptest.Client) map[string]any {
		var up struct{ Link string }
		_ = json.Unmarshal(c.PutFile("?kind=video", "intro.mp4", []byte(mp4Head)).Env.Data, &up)
		return map[string]any{"videoUrl": up.Link} // a failed upload fails the submit, naming the field
	}
}

// websiteSample is a new row of the admin resource name as c would send
// it: the sample, with an upload of c's for a video.
func websiteSample(t *testing.T, c *apptest.Client, name string) map[string]any {
	body := maps.Clone(websiteSamples[name])
	if o := sampleOverrides["website/"+name]; o != nil {
		maps.Copy(body, o(c.H, c))
	}
	return body
}

// TestWebsiteAdmin: every /api/website/client resource answers BladeX's
// select, submit and delete (and the engine's names the screen uses),
// refuses empty and malformed requests with a 400, and keeps rich text
// without scripts or event handlers.
func TestWebsiteAdmin(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := websiteSite(t, h, "Site A", "a.example.test")
		for name := range websiteSamples {
			base := websiteAdmin + name
			sample := websiteSample(t, a, name)
			var row struct {
				ID      string `json:"id"`
				Version int    `json:"version"`
			}
			a.PostJSON(base+"/submit", sample).OK(t, &row)
			if !pageHas(t, a, base+"/select", row.ID) || !pageHas(t, a, base+"/list", row.ID) {
				t.Fatalf("%s: select and list do not show the new row", name)
			}
			a.Get(base+"/detail", apptest.Q("id", row.ID)).OK(t, nil)
			a.PostJSON(base+"/submit", map[string]any{}).Fail(t, 400)
			a.PostJSON(base+"/submit", `{"id": [1,`).Fail(t, 400)
			a.Post(base+"/delete", nil).Fail(t, 400)
			a.Post(base+"/delete", apptest.Q("ids", "x")).Fail(t, 400)
			a.Get(base+"/select", apptest.Q("current", "abc")).Fail(t, 400)
			a.Post(base+"/delete", apptest.Q("ids", row.ID)).OK(t, nil)
			a.Get(base+"/detail", apptest.Q("id", row.ID)).Fail(t, 404)
			h.Anon().Get(base+"/select", nil).Fail(t, 401)
		}
		// a video is an upload of the tenant's: not a link elsewhere, not another tenant's file
		_, b := websiteSite(t, h, "Site V", "v.example.test")
		for _, link := range []string{"https://videos.example.com/1", websiteSample(t, b, "video")["videoUrl"].(string)} {
			if msg := a.PostJSON(websiteAdmin+"video/submit", map[string]any{"title": "Elsewhere", "videoUrl": link}).Fail(t, 400); !strings.Contains(msg, "视频") {
				t.Errorf("video link %s: %q", link, msg)
			}
		}
		// rich text: scripts and event handlers never stored, formatting kept
		dirty := `<p onclick="steal()">Big <b>news</b></p><script>alert(1)</script><img src="x.png" onerror="alert(2)">`
		for name, field := range map[string]string{"news": "content", "cases": "content", "job": "requirement", "employee": "intro", "video": "description"} {
			body := websiteSample(t, a, name)
			body[field] = dirty
			var saved map[string]any
			a.PostJSON(websiteAdmin+name+"/submit", body).OK(t, &saved)
			var got map[string]any
			a.Get(websiteAdmin+name+"/detail", apptest.Q("id", fmt.Sprint(saved["id"]))).OK(t, &got)
			text, _ := got[field].(string)
			for _, bad := range []string{"<script", "onerror", "onclick", "alert("} {
				if strings.Contains(text, bad) {
					t.Errorf("%s.%s kept %s: %q", name, field, bad, text)
				}
			}
			if !strings.Contains(text, "<b>news</b>") || !strings.Contains(text, `<img src="x.png">`) {
				t.Errorf("%s.%s lost its formatting: %q", name, field, text)
			}
		}
	})
}

// TestWebsitePublic: without a token, a website reads only the published
// rows of the tenant its domain names, through a cache a change drops; its
// application form lands in that tenant's messages behind the login
// captcha; both are rate-limited per IP.
func TestWebsitePublic(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := websiteSite(t, h, "Site A", "a.example.test")
		_, b := websiteSite(t, h, "Site B", "b.example.test")
		cover := websiteUpload(t, a)
		submit := func(c *apptest.Client, title string, published int) string {
			var row struct{ ID string }
			c.PostJSON(websiteAdmin+"news/submit", map[string]any{"title": title, "coverUrl": cover, "isPublished": published,
				"content": "<p>" + title + "</p>"}).OK(t, &row)
			return row.ID
		}
		pubA := submit(a, "A published", 1)
		draftA := submit(a, "A draft", 0)
		var bRow struct{ ID string }
		b.PostJSON(websiteAdmin+"news/submit", map[string]any{"title": "B published", "isPublished": 1}).OK(t, &bRow)
		anon := h.Anon()
		list := func(domain string) []map[string]any {
			var page apptest.Page[map[string]any]
			anon.Get(websitePublic+"news/list", apptest.Q("domain", domain)).OK(t, &page)
			return page.Records
		}
		rows := list("a.example.test")
		if len(rows) != 1 || rows[0]["id"] != pubA || rows[0]["title"] != "A published" {
			t.Fatalf("site A lists %v, want only its published row", rows)
		}
		for _, hidden := range []string{"tenantId", "isPublished", "createUser", "version", "isDeleted"} {
			if _, ok := rows[0][hidden]; ok {
				t.Errorf("a public row carries %s", hidden)
			}
		}
		// the cover is a signed link a browser may load without a token
		link, _ := rows[0]["coverUrl"].(string)
		if r := anon.Do("GET", strings.TrimPrefix(link, h.Server.URL), nil, nil); !strings.HasPrefix(link, "/api/blade-resource/oss/endpoint/file/") || r.Status != 200 {
			t.Fatalf("public cover %q: %d", link, r.Status)
		}
		anon.Get(websitePublic+"news/detail", apptest.Q("domain", "a.example.test", "id", pubA)).OK(t, nil)
		anon.Get(websitePublic+"news/detail", apptest.Q("domain", "a.example.test", "id", draftA)).Fail(t, 404)
		anon.Get(websitePublic+"news/detail", apptest.Q("domain", "a.example.test", "id", bRow.ID)).Fail(t, 404)
		if rows := list("b.example.test"); len(rows) != 1 || rows[0]["id"] != bRow.ID {
			t.Fatalf("site B lists %v", rows)
		}
		anon.Get(websitePublic+"news/list", apptest.Q("domain", "nobody.example.test")).Fail(t, 404)
		anon.Get(websitePublic+"news/list", apptest.Q("domain", "a.example.test", "size", "x")).Fail(t, 400)
		anon.Get(websitePublic+"news/detail", apptest.Q("domain", "a.example.test", "id", "zz")).Fail(t, 400)
		// a change shows at once: publishing the draft drops the cached page
		a.Edit(websiteAdmin+"news/submit", map[string]any{"id": draftA, "isPublished": 1}).OK(t, nil)
		if rows := list("a.example.test"); len(rows) != 2 {
			t.Fatalf("after publishing the draft site A lists %d rows", len(rows))
		}
		a.Post(websiteAdmin+"news/delete", apptest.Q("ids", pubA)).OK(t, nil)
		if rows := list("a.example.test"); len(rows) != 1 || rows[0]["id"] != draftA {
			t.Fatalf("after a removal site A lists %v", rows)
		}
		// every other kind answers its published rows the same way
		for _, kind := range []string{"employee", "cases", "video", "job", "customer"} {
			var row struct{ ID string }
			a.PostJSON(websiteAdmin+kind+"/submit", websiteSample(t, a, kind)).OK(t, &row)
			var page apptest.Page[map[string]any]
			anon.Get(websitePublic+kind+"/list", apptest.Q("domain", "a.example.test")).OK(t, &page)
			if len(page.Records) != 1 || page.Records[0]["id"] != row.ID {
				t.Fatalf("public %s lists %v", kind, page.Records)
			}
			anon.Get(websitePublic+kind+"/detail", apptest.Q("domain", "a.example.test", "id", row.ID)).OK(t, nil)
			var none apptest.Page[map[string]any]
			anon.Get(websitePublic+kind+"/list", apptest.Q("domain", "b.example.test")).OK(t, &none)
			if len(none.Records) != 0 {
				t.Fatalf("site B lists site A's %s", kind)
			}
		}

		// the application form: the login captcha, into site A's messages only
		captcha := func() (string, string) {
			var c map[string]string // BladeX answers the captcha bare, without the envelope
			if err := json.Unmarshal(anon.Get("/api/blade-auth/oauth/captcha", nil).Body, &c); err != nil || c["key"] == "" {
				t.Fatalf("captcha: %v %v", err, c)
			}
			return c["key"], h.App.Auth.Captcha.(*auth.MemoryCaptcha).Peek(c["key"])
		}
		apply := func(body any, key, code string) *apptest.Resp {
			raw, _ := json.Marshal(body)
			return anon.Do("POST", websitePublic+"apply?domain=a.example.test", bytes.NewReader(raw),
				map[string]string{"Captcha-Key": key, "Captcha-Code": code})
		}
		form := map[string]any{"applicantName": "Applicant", "phone": "13700000000", "content": "I would like to join"}
		key, code := captcha()
		apply(form, key, "wrong").Fail(t, 400)
		key, code = captcha()
		apply(map[string]any{"phone": "13700000000"}, key, code).Fail(t, 400) // no name
		key, code = captcha()
		apply(form, key, code).OK(t, nil)
		var msgs apptest.Page[map[string]any]
		a.Get(websiteAdmin+"message/select", nil).OK(t, &msgs)
		if len(msgs.Records) != 1 || msgs.Records[0]["applicantName"] != "Applicant" || msgs.Records[0]["clientIp"] == "" {
			t.Fatalf("site A's messages: %v", msgs.Records)
		}
		b.Get(websiteAdmin+"message/select", nil).OK(t, &msgs)
		if len(msgs.Records) != 0 {
			t.Fatalf("site B sees site A's application")
		}
		apply(form, key, code).Fail(t, 400) // a captcha answers once
		// 5 attempts an hour per IP: this is the fifth, the sixth is refused whatever it sends
		key, code = captcha()
		apply(form, key, code).OK(t, nil)
		key, code = captcha()
		if msg := apply(form, key, code).Fail(t, 429); msg == "" {
			t.Fatal("a refused application says nothing")
		}
		// reads: 120 a minute per IP (the requests above count too)
		limited := false
		for i := 0; i < website.ReadLimit.Max+1 && !limited; i++ {
			r := anon.Get(websitePublic+"job/list", apptest.Q("domain", "a.example.test"))
			limited = r.Status == http.StatusTooManyRequests
		}
		if !limited {
			t.Fatal("public reads are not rate-limited")
		}
	})
}

// TestWebsitePublicPathsTight: exactly the public website routes need no
// token; every other website route answers an anonymous caller 401.
func TestWebsitePublicPathsTight(t *testing.T) {
	h := apptest.New(t, "sqlite")
	public := website.PublicPaths()
	anon := h.Anon()
	seen := 0
	err := chi.Walk(h.App.Handler.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if !strings.HasPrefix(route, "/api/website/") {
			return nil
		}
		r := anon.Do(method, route, nil, nil)
		if slices.Contains(public, route) {
			seen++
			if r.Status == 401 {
				t.Errorf("%s %s: public route asks a token", method, route)
			}
		} else if r.Status != 401 {
			t.Errorf("%s %s answers an anonymous caller %d", method, route, r.Status)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(public) {
		t.Fatalf("%d public website routes routed, %d declared", seen, len(public))
	}
}
