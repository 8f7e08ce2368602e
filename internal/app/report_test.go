package app_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/bluebird/console/internal/apptest"
)

const reportPath = "/api/blade-report/report/rest"

func init() {
	// the conformance sample: a report summarises a registered resource by its declared fields
	sampleOverrides["blade-report/report"] = func(*apptest.H, *apptest.Client) map[string]any {
		return map[string]any{"source": "blade-system/post", "measures": "count", "chartType": "bar"}
	}
}

type reportRun struct {
	ReportName string `json:"reportName"`
	ChartType  string `json:"chartType"`
	Columns    []struct {
		Key     string `json:"key"`
		Measure bool   `json:"measure"`
	} `json:"columns"`
	Rows []map[string]any `json:"rows"`
}

// TestReports: definitions are saved only over declared fields, run
// through the engine with the caller's tenant and data scope, and export.
func TestReports(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		// the seeded example: users per department, with the departments' names
		super := h.Admin()
		var page apptest.Page[map[string]any]
		super.Get(reportPath+"/list", apptest.Q("reportName", "各部门用户数")).OK(t, &page)
		if len(page.Records) != 1 {
			t.Fatalf("the users-per-department example is not seeded: %v", page.Records)
		}
		var run reportRun
		super.Get(reportPath+"/run", apptest.Q("id", page.Records[0]["id"].(string))).OK(t, &run)
		if len(run.Rows) == 0 || run.Rows[0]["deptIdLabel"] == "" || run.Rows[0]["count"] == nil || run.ChartType != "bar" {
			t.Fatalf("users per department: %+v", run)
		}

		// tenant A: the administrator's suppliers and a buyer who sees only its own
		_, admin := h.NewTenant("Report Co")
		var depts []map[string]any
		admin.Get("/api/blade-system/dept/list", nil).OK(t, &depts)
		menus := soMenuIDs(t, admin)
		role := newRole(t, admin, "采购员", "buyer")
		var scope map[string]any
		super.PostJSON("/api/blade-system/data-scope/submit", map[string]any{"menuId": menus["supplier"], "resourceCode": "supplier",
			"scopeName": "own", "scopeType": 2, "scopeColumn": "create_user"}).OK(t, &scope)
		admin.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{role},
			"menuIds": []string{menus["supplier"]}, "dataScopeIds": []string{scope["id"].(string)}}).OK(t, nil)
		newUser(t, admin, "buyer1", castPassword, role, depts[0]["id"].(string))
		buyer := h.Login(admin.Login["tenant_id"].(string), "buyer1", castPassword)
		partnerSupplier(t, admin, "")
		partnerSupplier(t, admin, "")
		partnerSupplier(t, buyer, "")
		_, other := h.NewTenant("Other Co")
		partnerSupplier(t, other, "")

		def := map[string]any{"reportName": "供应商数", "source": "bluebird-basic/suppliermain", "groupBy": "status",
			"measures": "count", "chartType": "pie"}
		var saved map[string]any
		admin.PostJSON(reportPath+"/submit", def).OK(t, &saved)
		id := saved["id"].(string)
		count := func(c *apptest.Client) float64 {
			t.Helper()
			var r reportRun
			c.Get(reportPath+"/run", apptest.Q("id", id)).OK(t, &r)
			n := 0.0
			for _, row := range r.Rows {
				n += row["count"].(float64)
			}
			return n
		}
		if n := count(admin); n != 3 {
			t.Fatalf("the administrator counts the tenant's 3 suppliers (not the other tenant's): %v", n)
		}
		if n := count(buyer); n != 1 {
			t.Fatalf("the buyer's data scope is own: it counts its 1 supplier, got %v", n)
		}
		// another tenant neither runs nor reads the definition
		other.Get(reportPath+"/run", apptest.Q("id", id)).Fail(t, 404)
		other.Get(reportPath+"/run-export", apptest.Q("id", id)).Fail(t, 404)
		var preview reportRun
		other.PostJSON(reportPath+"/preview", def).OK(t, &preview)
		if len(preview.Rows) != 1 || preview.Rows[0]["count"] != 1.0 {
			t.Fatalf("the other tenant's preview counts its own supplier only: %v", preview.Rows)
		}

		// only declared fields, never SQL
		for _, bad := range []map[string]any{
			{"groupBy": "password"}, {"groupBy": "tenant_id; DROP TABLE blade_user"}, {"groupBy": "supplierName:day"},
			{"measures": "sum:supplierName"}, {"measures": "count:id"}, {"measures": "median:status"}, {"measures": ""},
			{"source": "blade-nothing/none"}, {"filters": "[1]"}, {"filters": `{"descs": "nope"}`}, {"chartType": "radar"},
			{"columns": "nope"},
		} {
			body := map[string]any{}
			for k, v := range def {
				body[k] = v
			}
			for k, v := range bad {
				body[k] = v
			}
			body["reportName"] = "bad " + randomWord(6)
			admin.PostJSON(reportPath+"/submit", body).Fail(t, 400)
			admin.PostJSON(reportPath+"/preview", body).Fail(t, 400)
		}
		if msg := admin.PostJSON(reportPath+"/preview", map[string]any{"reportName": "x", "source": "blade-user/user",
			"groupBy": "password", "measures": "count", "chartType": "bar"}).Fail(t, 400); msg != "不能按字段password分组" {
			t.Fatalf("message: %q", msg)
		}
		// a tenant administrator may not summarise what only the super user reads
		admin.PostJSON(reportPath+"/preview", map[string]any{"reportName": "x", "source": "blade-develop/datasource",
			"measures": "count", "chartType": "bar"}).Fail(t, 403)
		var sources []struct {
			ID string `json:"id"`
		}
		admin.Get(reportPath+"/sources", nil).OK(t, &sources)
		for _, s := range sources {
			if s.ID == "blade-develop/datasource" || s.ID == "blade-develop/code" {
				t.Fatalf("a tenant administrator is offered %s", s.ID)
			}
		}

		// an update keeps what it does not send, and is checked as saved
		admin.Edit(reportPath+"/submit", map[string]any{"id": id, "groupBy": "createTime:month", "columns": "count,createTime"}).OK(t, nil)
		var byMonth reportRun
		admin.Get(reportPath+"/run", apptest.Q("id", id)).OK(t, &byMonth)
		if len(byMonth.Columns) != 2 || byMonth.Columns[0].Key != "count" || len(byMonth.Rows) != 1 || len(byMonth.Rows[0]["createTime"].(string)) != 7 {
			t.Fatalf("by month, columns in the chosen order: %+v", byMonth)
		}
		admin.Edit(reportPath+"/submit", map[string]any{"id": id, "groupBy": "password"}).Fail(t, 400)

		// the export: labels and values
		r := admin.Get(reportPath+"/run-export", apptest.Q("id", id))
		if r.Status != 200 {
			t.Fatalf("export: %d %s", r.Status, r.Body)
		}
		f, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := f.GetRows("Sheet1")
		if len(rows) != 2 || rows[0][0] != "数量" || rows[0][1] != "创建时间" || rows[1][0] != "3" {
			t.Fatalf("export rows: %v", rows)
		}
		// recorded in the download monitor like a list's export
		recs := records(t, admin, "/api/monitor/goodsDownloadM/page", apptest.Q("target", "blade-report/report/rest/run-export?id="+id))
		if len(recs) != 1 || recs[0]["rowCount"] != float64(1) || recs[0]["byteSize"] != float64(len(r.Body)) || recs[0]["kind"] != "export" {
			t.Fatalf("report export recorded as %v", recs)
		}

		// remove
		admin.Post(reportPath+"/remove", apptest.Q("ids", id)).OK(t, nil)
		admin.Get(reportPath+"/run", apptest.Q("id", id)).Fail(t, 404)
		if !strings.Contains(string(admin.Get(reportPath+"/run", nil).Body), "id") {
			t.Fatal("a run without an id names the missing parameter")
		}
	})
}
