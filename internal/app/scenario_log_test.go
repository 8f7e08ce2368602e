package app_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// TestClientErrorLogs drives the error-log upload of the web console (spec §2:
// 确定上传本地日志到服务器? → 发送成功!) and reading the uploads back.
func TestClientErrorLogs(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, ta := h.NewTenant("Logs Co")
		const upload = "/api/blade-log/error/client-logs"
		longStack := strings.Repeat("at frame (app.js:1:1)\n", 2000) // 44,000 bytes
		ta.PostJSON(upload, []map[string]any{
			{"type": "error", "url": "http://x/system/user", "message": "Cannot read properties of undefined", "stack": longStack, "time": "2026-11-22 09:30:00", "info": "UserPage"},
			{"type": "chunk", "url": "http://x/wel/index", "message": "Loading chunk 7 failed", "time": "2026-11-22 09:31:00"},
		}).OK(t, nil)

		var page apptest.Page[map[string]any]
		ta.Get("/api/blade-log/error/list", apptest.Q("serviceId", "bluebird-web")).OK(t, &page)
		if page.Total != 2 {
			t.Fatalf("want the 2 uploaded entries, got %d: %v", page.Total, page.Records)
		}
		byType := map[string]map[string]any{}
		for _, r := range page.Records {
			byType[r["exceptionName"].(string)] = r
			if r["tenantId"] != tenantID || r["createBy"] != "admin" {
				t.Fatalf("entry not attributed to the uploader: %v", r)
			}
		}
		first := byType["error"]
		if first["message"] != "Cannot read properties of undefined" || first["requestUri"] != "http://x/system/user" ||
			first["clientTime"] != "2026-11-22 09:30:00" || first["params"] != "UserPage" {
			t.Fatalf("entry fields: %v", first)
		}
		var detail map[string]any
		ta.Get("/api/blade-log/error/detail", apptest.Q("id", first["id"].(string))).OK(t, &detail)
		if s := detail["stackTrace"].(string); len(s) != 16000 || !strings.HasPrefix(s, "at frame") {
			t.Fatalf("a long stack is kept, cut to 16000 bytes: got %d bytes", len(s))
		}

		// Bad input: a clear message, and nothing of a refused upload is kept.
		if msg := ta.PostJSON(upload, []map[string]any{}).Fail(t, 400); msg != "没有可上传的日志" {
			t.Fatalf("empty upload: %q", msg)
		}
		ta.PostJSON(upload, `{"message":"not a list"}`).Fail(t, 400)
		msg := ta.PostJSON(upload, []map[string]any{{"message": "kept?"}, {"message": "  "}}).Fail(t, 400)
		if msg != "日志内容不能为空" {
			t.Fatalf("entry without a message: %q", msg)
		}
		ta.Get("/api/blade-log/error/list", apptest.Q("message", "kept?")).OK(t, &page)
		if page.Total != 0 {
			t.Fatal("a refused upload left rows behind")
		}
		many := make([]map[string]any, 501)
		for i := range many {
			many[i] = map[string]any{"message": fmt.Sprint("e", i)}
		}
		ta.Lang = "en"
		if msg := ta.PostJSON(upload, many).Fail(t, 400); msg != "At most 500 log entries can be uploaded at once" {
			t.Fatalf("501 entries: %q", msg)
		}
		ta.Lang = ""
		h.Anon().PostJSON(upload, []map[string]any{{"message": "anonymous"}}).Fail(t, 401)

		// Any user may upload their browser's errors; reading the log is for administrators.
		var role map[string]any
		ta.PostJSON("/api/blade-system/role/submit", map[string]any{"roleName": "职员", "roleAlias": "staff", "sort": 2}).OK(t, &role)
		_, deptID := adminIDs(t, ta)
		newUser(t, ta, "bob", "bob-pass", role["id"].(string), deptID)
		bob := h.Login(tenantID, "bob", "bob-pass")
		bob.PostJSON(upload, []map[string]any{{"message": "from bob"}}).OK(t, nil)
		bob.Get("/api/blade-log/error/list", nil).Fail(t, 403)

		// Another tenant sees none of it; the super user sees every tenant's.
		_, other := h.NewTenant("Other Co")
		other.Get("/api/blade-log/error/list", nil).OK(t, &page)
		if page.Total != 0 {
			t.Fatalf("another tenant sees %d entries", page.Total)
		}
		h.Admin().Get("/api/blade-log/error/list", apptest.Q("createBy", "bob")).OK(t, &page)
		if page.Total != 1 {
			t.Fatalf("super user: want bob's entry, got %d", page.Total)
		}
	})
}
