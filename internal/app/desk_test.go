package app_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

type deskNotice struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Category    int    `json:"category"`
	ReleaseTime string `json:"releaseTime"`
	Content     string `json:"content"`
	Read        bool   `json:"read"`
	Version     int    `json:"version"`
}

const noticePath = "/api/blade-desk/notice"

// TestNoticeScenario: publish, list, open (read per user), edit, remove, and
// the refusals of empty or malformed requests.
func TestNoticeScenario(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, ta := h.NewTenant("Notice Co")
		// empty and malformed requests are 4xx
		if msg := ta.PostJSON(noticePath+"/submit", map[string]any{}).Fail(t, 400); msg == "" {
			t.Error("empty submit without a message")
		}
		ta.PostJSON(noticePath+"/submit", map[string]any{"title": "x", "category": 99, "content": "<p>x</p>"}).Fail(t, 400)
		ta.PostJSON(noticePath+"/submit", map[string]any{"title": "x", "category": "1", "content": "<p>x</p>"}).Fail(t, 400)
		ta.Get(noticePath+"/detail", nil).Fail(t, 400)
		ta.Get(noticePath+"/detail", url.Values{"id": {"abc"}}).Fail(t, 400)
		ta.Post(noticePath+"/remove", nil).Fail(t, 400)
		ta.Get(noticePath+"/list", url.Values{"descs": {"content"}}).Fail(t, 400)

		var n deskNotice
		ta.PostJSON(noticePath+"/submit", map[string]any{"title": "停电通知", "category": 1, "content": "<p>明天<b>停电</b></p>"}).OK(t, &n)
		if n.ID == "" || n.ReleaseTime == "" {
			t.Fatalf("saved notice %+v: an id and a release time (now) expected", n)
		}
		var page apptest.Page[deskNotice]
		ta.Get(noticePath+"/list", url.Values{"title": {"停电"}}).OK(t, &page)
		if len(page.Records) != 1 || page.Records[0].Read {
			t.Fatalf("list %+v: one unread notice expected", page.Records)
		}
		var got deskNotice
		ta.Get(noticePath+"/detail", url.Values{"id": {n.ID}}).OK(t, &got)
		if got.Content != "<p>明天<b>停电</b></p>" || !got.Read {
			t.Fatalf("detail %+v", got)
		}
		ta.Get(noticePath+"/list", nil).OK(t, &page)
		if len(page.Records) != 1 || !page.Records[0].Read {
			t.Fatalf("after opening it: %+v", page.Records)
		}
		// read is per user: another user of the tenant still sees it unread
		ids := soMenuIDs(t, h.Admin())
		_, deptID := adminIDs(t, ta)
		var role struct{ ID string }
		ta.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": "读者", "roleAlias": "reader", "sort": 3}).OK(t, &role)
		ta.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{role.ID}, "menuIds": []string{ids["desk"], ids["notice"]}}).OK(t, nil)
		newUser(t, ta, "reader1", "secret1", role.ID, deptID)
		reader := h.Login(ta.Login["tenant_id"].(string), "reader1", "secret1")
		reader.Get(noticePath+"/list", nil).OK(t, &page)
		if len(page.Records) != 1 || page.Records[0].Read {
			t.Fatalf("reader's list %+v: unread expected", page.Records)
		}
		// a reader granted the menu but none of its buttons cannot write
		reader.PostJSON(noticePath+"/submit", map[string]any{"title": "x", "category": 1, "content": "<p>x</p>"}).Fail(t, 403)
		reader.Edit(noticePath+"/submit", map[string]any{"id": n.ID, "title": "改"}).Fail(t, 403)
		reader.Post(noticePath+"/remove", url.Values{"ids": {n.ID}}).Fail(t, 403)
		// edit, then remove
		ta.Edit(noticePath+"/submit", map[string]any{"id": n.ID, "title": "停电通知(更正)", "category": 7}).OK(t, nil)
		ta.Get(noticePath+"/detail", url.Values{"id": {n.ID}}).OK(t, &got)
		if got.Title != "停电通知(更正)" || got.Category != 7 || got.Content != "<p>明天<b>停电</b></p>" {
			t.Fatalf("after the edit: %+v", got)
		}
		ta.Post(noticePath+"/remove", url.Values{"ids": {n.ID}}).OK(t, nil)
		ta.Get(noticePath+"/detail", url.Values{"id": {n.ID}}).Fail(t, 404)
	})
}

// TestNoticeSanitised: nothing that runs reaches a reader.
func TestNoticeSanitised(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, ta := h.NewTenant("Sanitise Co")
		body := `<p onclick="steal()">Hello <b>all</b></p><script>alert(1)</script>` +
			`<img src="x.png" onerror="alert(2)"><a href="javascript:alert(3)">x</a><a href="https://example.com/a">ok</a>` +
			`<iframe src="https://evil.example"></iframe><span style="color: red">red</span>`
		var n deskNotice
		ta.PostJSON(noticePath+"/submit", map[string]any{"title": "xss", "category": 1, "content": body}).OK(t, &n)
		var got deskNotice
		ta.Get(noticePath+"/detail", url.Values{"id": {n.ID}}).OK(t, &got)
		low := strings.ToLower(got.Content)
		for _, bad := range []string{"<script", "alert(1)", "onerror", "onclick", "javascript:", "<iframe"} {
			if strings.Contains(low, bad) {
				t.Errorf("sanitised body still holds %q: %s", bad, got.Content)
			}
		}
		for _, kept := range []string{"<b>all</b>", `<img src="x.png"`, `href="https://example.com/a"`, `style="color: red"`} {
			if !strings.Contains(got.Content, kept) {
				t.Errorf("sanitised body lost %q: %s", kept, got.Content)
			}
		}
		// an update is sanitised too, and a body with nothing left is refused
		ta.Edit(noticePath+"/submit", map[string]any{"id": n.ID, "content": `<p>x</p><img src=a onerror=alert(1)>`}).OK(t, nil)
		ta.Get(noticePath+"/detail", url.Values{"id": {n.ID}}).OK(t, &got)
		if strings.Contains(got.Content, "onerror") {
			t.Errorf("updated body: %s", got.Content)
		}
		if msg := ta.PostJSON(noticePath+"/submit", map[string]any{"title": "x", "category": 1, "content": "<script>alert(1)</script>"}).Fail(t, 400); msg != "通知内容不能为空" {
			t.Errorf("script-only body: %q", msg)
		}
	})
}

// TestNoticeNeedsMenu: a user not granted the 通知公告 menu is refused the
// notices, and another tenant's notices are never listed.
func TestNoticeNeedsMenu(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		ids := soMenuIDs(t, h.Admin())
		tenantID, ta, _, _ := soClerk(t, h, ids, "user")
		var n deskNotice
		ta.PostJSON(noticePath+"/submit", map[string]any{"title": "内部", "category": 1, "content": "<p>x</p>"}).OK(t, &n)
		clerk := h.Login(tenantID, "clerk1", "secret1")
		clerk.Get(noticePath+"/list", nil).Fail(t, 403)
		clerk.Get(noticePath+"/detail", url.Values{"id": {n.ID}}).Fail(t, 403)
		clerk.Get(noticePath+"/export", nil).Fail(t, 403)
		_, other := h.NewTenant("Other Co")
		var page apptest.Page[deskNotice]
		other.Get(noticePath+"/list", nil).OK(t, &page)
		for _, r := range page.Records {
			if r.ID == n.ID {
				t.Fatal("another tenant lists the notice")
			}
		}
		other.Get(noticePath+"/detail", url.Values{"id": {n.ID}}).Fail(t, 404)
	})
}

type deskFigure struct {
	Key      string `json:"key"`
	Label    string `json:"label"`
	MenuCode string `json:"menuCode"`
	Value    int64  `json:"value"`
}

func figures(t *testing.T, c *apptest.Client) map[string]int64 {
	t.Helper()
	var list []deskFigure
	c.Get("/api/blade-desk/home/summary", nil).OK(t, &list)
	out := map[string]int64{}
	for _, f := range list {
		if f.Label == "" || f.MenuCode == "" {
			t.Errorf("figure without a label or menu: %+v", f)
		}
		out[f.Key] = f.Value
	}
	return out
}

// TestHomeSummary: the key figures count the caller's tenant only, and only
// those whose menus the caller is granted.
func TestHomeSummary(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		h.Anon().Get("/api/blade-desk/home/summary", nil).Fail(t, 401)
		ids := soMenuIDs(t, h.Admin())
		tenantID, ta, _, _ := soClerk(t, h, ids, "notice")
		_, other := h.NewTenant("Busy Co")
		// another tenant's users
		_, deptID := adminIDs(t, other)
		otherRole, _ := adminIDs(t, other)
		for _, acc := range []string{"o1", "o2", "o3"} {
			newUser(t, other, acc, "secret1", otherRole, deptID)
		}

		a := figures(t, ta)
		if a["users"] != 2 { // admin and clerk1
			t.Errorf("tenant admin's users figure %d, want 2 (%v)", a["users"], a)
		}
		if _, ok := a["materials"]; !ok {
			t.Errorf("tenant admin lacks the materials figure: %v", a)
		}
		if b := figures(t, other); b["users"] != 4 {
			t.Errorf("other tenant's users figure %d, want 4", b["users"])
		}
		// the super user counts its own tenant, not every tenant's users
		if s := figures(t, h.Admin()); s["users"] >= 4+2+1 {
			t.Errorf("super user's figure counts other tenants: %v", s)
		}
		// a clerk granted only the notice menu gets no figure
		clerk := h.Login(tenantID, "clerk1", "secret1")
		if c := figures(t, clerk); len(c) != 0 {
			t.Errorf("clerk without the menus sees figures: %v", c)
		}
	})
}
