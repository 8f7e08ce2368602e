package app_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/wire"
)

func init() {
	// Rows of the log and monitor resources arise from what callers do (conformance_test.go).
	readOnlyCreators["blade-log/api"] = func(t *testing.T, c *apptest.Client) string {
		marker := randomWord(12)
		c.Get("/api/blade-system/nothing-"+marker, nil) // a 404 is logged like any request
		return firstLogID(t, c, "/api/blade-log/api/list", url.Values{"requestUri": {marker}})
	}
	readOnlyCreators["blade-log/usual"] = func(t *testing.T, c *apptest.Client) string {
		tenant, _ := c.Login["tenant_id"].(string)
		c.H.Login(tenant, "admin", "admin") // a second sign-in, logged
		return firstLogID(t, c, "/api/blade-log/usual/list", url.Values{"logId": {"login"}})
	}
	readOnlyCreators["monitor/goodsDownloadM"] = func(t *testing.T, c *apptest.Client) string {
		if r := c.Get("/api/blade-log/error/export", nil); r.Status != 200 {
			t.Fatalf("export: %d %s", r.Status, r.Body)
		}
		return firstLogID(t, c, "/api/monitor/goodsDownloadM/page", url.Values{"target": {"blade-log/error"}})
	}
	readOnlyCreators["log-service/active"] = func(t *testing.T, c *apptest.Client) string {
		c.Post("/api/log-service/heartbeat", nil).OK(t, nil)
		return firstLogID(t, c, "/api/log-service/active/list", nil)
	}
}

type logPage = apptest.Page[map[string]any]

func firstLogID(t *testing.T, c *apptest.Client, path string, q url.Values) string {
	t.Helper()
	var page logPage
	c.Get(path, q).OK(t, &page)
	if len(page.Records) == 0 {
		t.Fatalf("%s %v: no rows", path, q)
	}
	id, _ := page.Records[0]["id"].(string)
	return id
}

func records(t *testing.T, c *apptest.Client, path string, q url.Values) []map[string]any {
	t.Helper()
	var page logPage
	c.Get(path, q).OK(t, &page)
	return page.Records
}

// Every /api request is in the API log with its method, address, caller,
// tenant, status and duration, and secrets in its parameters are masked:
// in the query, in a form and at any depth of a JSON body.
func TestAPILog(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		marker := randomWord(10)
		admin.Get("/api/blade-system/dict/list", url.Values{"marker": {marker}, "password": {"hunter2"}, "accessKey": {"AKIA-SECRET"},
			"client_secret": {"s3cr3t"}, "code": {"dict-code"}}).OK(t, nil)
		admin.PostJSON("/api/blade-log/error/client-logs", []map[string]any{{"type": "x", "message": marker,
			"info": "plain", "nested": map[string]any{"refreshToken": "tok-123", "keep": "visible"}}}).OK(t, nil)
		admin.Get("/api/blade-system/param/list", url.Values{"descs": {"nosuchcolumn"}}).Fail(t, 400)

		rows := records(t, admin, "/api/blade-log/api/list", url.Values{"requestUri": {"/api/blade-system/dict/list"}, "size": {"100"}})
		var got map[string]any
		for _, r := range rows {
			if strings.Contains(fmt.Sprint(r["params"]), marker) {
				got = r
			}
		}
		if got == nil {
			t.Fatalf("the dict request is not in the API log: %v", rows)
		}
		params := fmt.Sprint(got["params"])
		for _, secret := range []string{"hunter2", "AKIA-SECRET", "s3cr3t"} {
			if strings.Contains(params, secret) {
				t.Fatalf("secret %s in the logged parameters: %s", secret, params)
			}
		}
		if !strings.Contains(params, "password=******") || !strings.Contains(params, "code=dict-code") {
			t.Fatalf("parameters not masked as expected: %s", params)
		}
		if got["method"] != "GET" || got["createBy"] != "admin" || got["tenantId"] != "000000" || got["httpStatus"] != float64(200) {
			t.Fatalf("request logged as %v", got)
		}
		if _, ok := got["durationMs"].(float64); !ok || got["logTime"] == nil || got["remoteIp"] == "" {
			t.Fatalf("duration, time or address missing: %v", got)
		}

		body := records(t, admin, "/api/blade-log/api/list", url.Values{"requestUri": {"/api/blade-log/error/client-logs"}})
		if len(body) == 0 {
			t.Fatal("the JSON post is not logged")
		}
		if p := fmt.Sprint(body[0]["params"]); strings.Contains(p, "tok-123") || !strings.Contains(p, "visible") || !strings.Contains(p, "******") {
			t.Fatalf("JSON body logged as %s", p)
		}
		bad := records(t, admin, "/api/blade-log/api/list", url.Values{"requestUri": {"/api/blade-system/param/list"}, "httpStatus": {"400"}})
		if len(bad) == 0 {
			t.Fatal("a 400 is not logged with its status")
		}
		// the sign-in itself: its password parameter is masked, and the row is the platform's
		login := records(t, admin, "/api/blade-log/api/list", url.Values{"requestUri": {"/api/blade-auth/oauth/token"}})
		if len(login) == 0 || strings.Contains(fmt.Sprint(login[0]["params"]), "21232f297a57a5a743894a0e4a801fc3") ||
			!strings.Contains(fmt.Sprint(login[0]["params"]), "password=******") {
			t.Fatalf("sign-in logged as %v", login)
		}
		// filters by user and time
		if rs := records(t, admin, "/api/blade-log/api/list", url.Values{"createBy": {"nobody-" + marker}}); len(rs) != 0 {
			t.Fatalf("a user filter matched %d rows", len(rs))
		}
		today := time.Now().UTC().Format(time.DateOnly)
		if rs := records(t, admin, "/api/blade-log/api/list", url.Values{"logTime_dategt": {today + " 00:00:00"}}); len(rs) == 0 {
			t.Fatal("no rows today")
		}
		// empty and malformed
		admin.Get("/api/blade-log/api/detail", nil).Fail(t, 400)
		admin.Get("/api/blade-log/api/list", url.Values{"descs": {"params"}}).Fail(t, 400)
		// the export is a file
		if r := admin.Get("/api/blade-log/api/export", nil); r.Status != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "xlsx") {
			t.Fatalf("export: %d %s", r.Status, r.Header)
		}
	})
}

// The usual log keeps sign-ins, failures, the lockout, sign-outs, password
// changes, grants and tenant changes; a tenant administrator sees only
// their tenant's, the super user every tenant's.
func TestUsualLog(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		tenantA, a := h.NewTenant("Usual A")
		tenantB, b := h.NewTenant("Usual B")
		// five wrong passwords lock the account (account.failCount 5)
		for i := 0; i < 6; i++ {
			(&apptest.Client{H: h}).Token_(tenantA, "admin", "wrong")
		}
		a.Post("/api/blade-user/update-password", url.Values{"oldPassword": {"admin"}, "newPassword": {"admin2"}, "newPassword1": {"admin2"}})
		kinds := func(c *apptest.Client, q url.Values) map[string]int {
			q.Set("size", "200")
			out := map[string]int{}
			for _, r := range records(t, c, "/api/blade-log/usual/list", q) {
				out[fmt.Sprint(r["logId"])]++
				if r["tenantId"] != tenantA && q.Get("tenantId") == tenantA {
					t.Fatalf("row of tenant %v in tenant %s's filter", r["tenantId"], tenantA)
				}
			}
			return out
		}
		got := kinds(admin, url.Values{"tenantId": {tenantA}})
		if got["login"] < 1 || got["login_failed"] < 5 || got["lockout"] != 1 {
			t.Fatalf("tenant A's usual log: %v", got)
		}
		// a tenant administrator sees their own tenant only
		for _, r := range records(t, b, "/api/blade-log/usual/list", url.Values{"size": {"200"}}) {
			if r["tenantId"] == tenantA {
				t.Fatalf("tenant B sees tenant A's event %v", r)
			}
		}
		for _, r := range records(t, b, "/api/blade-log/api/list", url.Values{"size": {"200"}}) {
			if r["tenantId"] != tenantB {
				t.Fatalf("tenant B sees another tenant's request %v", r)
			}
		}
		// the password change (which ended a's session; the account is locked anyway)
		if got := kinds(admin, url.Values{"tenantId": {tenantA}, "logId": {"password"}}); got["password"] != 1 {
			t.Fatalf("password change logged %v", got)
		}
		// a sign-out, a role grant and tenant settings, by the super user
		var roles []map[string]any
		admin.Get("/api/blade-system/role/list", nil).OK(t, &roles)
		roleID := fmt.Sprint(roles[0]["id"])
		admin.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{roleID}, "apiScopeIds": []string{}}).OK(t, nil)
		other := h.Admin()
		other.Get("/api/blade-auth/oauth/logout", nil).OK(t, nil)
		mine := kinds(admin, url.Values{"tenantId": {"000000"}})
		if mine["grant"] < 1 || mine["logout"] < 1 || mine["tenant"] < 2 {
			t.Fatalf("platform usual log: %v", mine)
		}
		grants := records(t, admin, "/api/blade-log/usual/list", url.Values{"logId": {"grant"}})
		if !strings.Contains(fmt.Sprint(grants[0]["logData"]), roleID) || grants[0]["createBy"] != "admin" {
			t.Fatalf("grant logged as %v", grants[0])
		}
		// tenant administrators read logs; other users may not
		b.Get("/api/blade-log/usual/list", nil).OK(t, nil)
		h.Anon().Get("/api/blade-log/usual/list", nil).Fail(t, 401)
		b.Get("/api/blade-log/usual/detail", url.Values{"id": {"x"}}).Fail(t, 400)
	})
}

// Rows older than the retention parameter are purged; younger ones stay.
func TestLogRetention(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		ctx := context.Background()
		admin.Get("/api/blade-system/dict/list", nil).OK(t, nil)
		h.App.Logs.Flush(ctx)
		var n int
		if err := h.App.DB.NewSelect().Table("blade_log_api").ColumnExpr("COUNT(*)").Scan(ctx, &n); err != nil || n == 0 {
			t.Fatalf("no API log rows (%v)", err)
		}
		old := wire.Time{Time: time.Now().UTC().AddDate(0, 0, -31)}
		if _, err := h.App.DB.NewUpdate().Table("blade_log_api").Set("log_time = ?", old).Where("request_uri = ?", "/api/blade-system/dict/list").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if got := h.App.Logs.RetentionDays(ctx); got != 30 {
			t.Fatalf("seeded retention %d days, want 30", got)
		}
		purged, err := h.App.Logs.Purge(ctx, time.Now())
		if err != nil || purged < 1 {
			t.Fatalf("purged %d (%v)", purged, err)
		}
		var left, oldLeft int
		h.App.DB.NewSelect().Table("blade_log_api").ColumnExpr("COUNT(*)").Scan(ctx, &left)
		h.App.DB.NewSelect().Table("blade_log_api").ColumnExpr("COUNT(*)").Where("log_time < ?", wire.Time{Time: time.Now().UTC().AddDate(0, 0, -30)}).Scan(ctx, &oldLeft)
		if left == 0 || oldLeft != 0 {
			t.Fatalf("after the purge: %d rows, %d of them old", left, oldLeft)
		}
		// a shorter retention through the parameter
		var params logPage
		admin.Get("/api/blade-system/param/list", url.Values{"paramKey": {"log.retentionDays"}}).OK(t, &params)
		if len(params.Records) != 1 {
			t.Fatalf("log.retentionDays seeded %d times", len(params.Records))
		}
		p := params.Records[0]
		admin.PostJSON("/api/blade-system/param/submit", map[string]any{"id": p["id"], "version": p["version"], "paramValue": "1"}).OK(t, nil)
		if got := h.App.Logs.RetentionDays(ctx); got != 1 {
			t.Fatalf("retention %d days after setting 1", got)
		}
		if purged, err := h.App.Logs.Purge(ctx, time.Now().Add(48*time.Hour)); err != nil || purged == 0 {
			t.Fatalf("purge two days ahead with 1 day kept: %d (%v)", purged, err)
		}
	})
}

// Queued log rows are written by Close: none is lost when the console stops.
func TestLogsCloseWritesQueued(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		for i := 0; i < 30; i++ {
			admin.Get("/api/blade-system/dict/list", url.Values{"n": {fmt.Sprint(i)}})
		}
		h.App.Logs.Close() // the cleanup closes again: harmless
		var n int
		if err := h.App.DB.NewSelect().Table("blade_log_api").ColumnExpr("COUNT(*)").
			Where("request_uri = ?", "/api/blade-system/dict/list").Scan(context.Background(), &n); err != nil {
			t.Fatal(err)
		}
		if n != 30 || h.App.Logs.Dropped() != 0 {
			t.Fatalf("%d of 30 requests written after Close, %d dropped", n, h.App.Logs.Dropped())
		}
	})
}

// Every export is in the goods-download monitor (who, what, rows, size,
// status); an administrator marks records checked; tenants stay apart.
func TestGoodsDownloadMonitor(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Download A")
		_, b := h.NewTenant("Download B")
		a.PostJSON("/api/blade-system/post/submit", map[string]any{"category": 1, "postCode": "P1", "postName": "Clerk", "sort": 1}).OK(t, nil)
		r := a.Get("/api/blade-system/post/export", nil)
		if r.Status != 200 {
			t.Fatalf("export: %d %s", r.Status, r.Body)
		}
		rows := records(t, a, "/api/monitor/goodsDownloadM/page", url.Values{"target": {"blade-system/post"}})
		if len(rows) != 1 {
			t.Fatalf("export recorded %d times", len(rows))
		}
		rec := rows[0]
		if rec["kind"] != "export" || rec["createBy"] != "admin" || rec["rowCount"] != float64(1) || rec["httpStatus"] != float64(200) ||
			rec["byteSize"] != float64(len(r.Body)) || !strings.HasSuffix(fmt.Sprint(rec["fileName"]), ".xlsx") || rec["checked"] != float64(0) {
			t.Fatalf("export recorded as %v (file %d bytes)", rec, len(r.Body))
		}
		id := fmt.Sprint(rec["id"])
		if len(records(t, b, "/api/monitor/goodsDownloadM/page", nil)) != 0 {
			t.Fatal("tenant B sees tenant A's downloads")
		}
		b.Post("/api/monitor/goodsDownloadM/update", url.Values{"ids": {id}}).Fail(t, 404)
		a.Post("/api/monitor/goodsDownloadM/update", nil).Fail(t, 400)
		a.Post("/api/monitor/goodsDownloadM/update", url.Values{"ids": {id}}).OK(t, nil)
		var detail map[string]any
		a.Get("/api/monitor/goodsDownloadM/detail", url.Values{"id": {id}}).OK(t, &detail)
		if detail["checked"] != float64(1) || detail["checkBy"] != "admin" || detail["checkTime"] == nil {
			t.Fatalf("checked record: %v", detail)
		}
		if rs := records(t, a, "/api/monitor/goodsDownloadM/page", url.Values{"checked": {"0"}}); len(rs) != 0 {
			t.Fatalf("unchecked filter: %v", rs)
		}
		// a plain user neither reads nor checks
		h.Anon().Get("/api/monitor/goodsDownloadM/page", nil).Fail(t, 401)
	})
}

// A file downloaded through its signed link is recorded for the file's
// tenant, with its name and size.
func TestFileDownloadRecorded(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, a := h.NewTenant("Files A")
		link := uploadText(t, a, "notes.txt", "hello downloads")
		r := h.Anon().Do("GET", strings.TrimPrefix(link, h.Server.URL), nil, nil)
		if r.Status != 200 {
			t.Fatalf("download: %d %s", r.Status, r.Body)
		}
		rows := records(t, a, "/api/monitor/goodsDownloadM/page", url.Values{"kind": {"file"}})
		if len(rows) != 1 || rows[0]["fileName"] != "notes.txt" || rows[0]["byteSize"] != float64(len("hello downloads")) {
			t.Fatalf("file download recorded as %v", rows)
		}
	})
}

// Heartbeats become online time: gaps up to two intervals count, a longer
// one starts a new session; getUserActive answers rows and a day series.
func TestUserActive(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantA, a := h.NewTenant("Active A")
		_, b := h.NewTenant("Active B")
		ctx := context.Background()
		uid, _ := wire.ParseID(fmt.Sprint(a.Login["user_id"]))
		p := &authz.Principal{TenantID: tenantA, UserID: uid, Account: "admin"}
		day := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
		for _, s := range []int{0, 60, 120, 400, 460, 500} { // 60+60, a gap of 280 s, then 60+40
			if err := h.App.Monitor.Beat(ctx, p, day.Add(time.Duration(s)*time.Second)); err != nil {
				t.Fatal(err)
			}
		}
		h.App.Monitor.Beat(ctx, p, day.Add(24*time.Hour)) // the next day: a row of its own
		var rep struct {
			Records []map[string]any
			Days    []struct {
				Day           string
				OnlineSeconds int64
				Users         int
			}
		}
		a.Get("/api/log-service/active/getUserActive", url.Values{"startDay": {"2026-03-09"}, "endDay": {"2026-03-11"}}).OK(t, &rep)
		if len(rep.Days) != 3 || rep.Days[1].Day != "2026-03-10" || rep.Days[1].OnlineSeconds != 220 || rep.Days[1].Users != 1 || rep.Days[0].Users != 0 {
			t.Fatalf("day series %+v", rep.Days)
		}
		if len(rep.Records) != 2 || rep.Records[0]["sessions"] != float64(2) || rep.Records[0]["onlineSeconds"] != float64(220) {
			t.Fatalf("rows %v", rep.Records)
		}
		// the console's own heartbeat: today's row
		a.Post("/api/log-service/heartbeat", nil).OK(t, nil)
		a.Get("/api/log-service/active/getUserActive", nil).OK(t, &rep)
		if len(rep.Days) != 7 || len(rep.Records) != 1 || rep.Records[0]["day"] != time.Now().UTC().Format(time.DateOnly) {
			t.Fatalf("today: %+v", rep)
		}
		// another tenant sees none of it
		b.Get("/api/log-service/active/getUserActive", url.Values{"startDay": {"2026-03-09"}, "endDay": {"2026-03-11"}}).OK(t, &rep)
		if len(rep.Records) != 0 {
			t.Fatalf("tenant B sees %v", rep.Records)
		}
		a.Get("/api/log-service/active/getUserActive", url.Values{"startDay": {"10.3.2026"}}).Fail(t, 400)
		a.Get("/api/log-service/active/getUserActive", url.Values{"startDay": {"2024-01-01"}, "endDay": {"2026-01-01"}}).Fail(t, 400)
		a.Get("/api/log-service/active/getUserActive", url.Values{"startDay": {"2026-03-12"}, "endDay": {"2026-03-11"}}).Fail(t, 400)
		h.Anon().Post("/api/log-service/heartbeat", nil).Fail(t, 401)
	})
}

// uploadText uploads a text file through put-file and answers its signed link.
func uploadText(t *testing.T, c *apptest.Client, name, text string) string {
	t.Helper()
	var out struct{ Link string }
	c.PutFile("", name, []byte(text)).OK(t, &out)
	if out.Link == "" {
		t.Fatal("no link")
	}
	return out.Link
}
