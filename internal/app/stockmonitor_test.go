package app_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/bluebird/console/internal/apptest"
)

const (
	thresholdPath = "/api/bluebird-basic/stockthreshold"
	expiryPath    = "/api/bluebird-basic/stockexpiry"
)

func init() {
	// an alert arises from a material's level (no stock is below it) and
	// from a received batch that expires soon
	readOnlyCreators["bluebird-basic/stockthreshold"] = func(t *testing.T, c *apptest.Client) string {
		var m struct{ ID string }
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "LV" + randomWord(6), "materialName": "阈值料", "unit": "pcs", "safetyStock": "5"}).OK(t, &m)
		return m.ID
	}
	readOnlyCreators["bluebird-basic/stockexpiry"] = func(t *testing.T, c *apptest.Client) string {
		pl := newStockPlace(t, c)
		var bm struct{ ID string }
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "EX" + randomWord(6), "materialName": "效期料", "unit": "kg", "batchManaged": 2}).OK(t, &bm)
		receiveLines(t, c, pl, []map[string]any{{"materialId": bm.ID, "qty": "1", "positionId": pl.position, "unitPrice": "1",
			"batchNo": "B1", "expiryDate": dayFromToday(5) + " 00:00:00"}})
		var rows page[expiryRow]
		c.Get(expiryPath+"/list", apptest.Q("materialId", bm.ID)).OK(t, &rows)
		if len(rows.Records) != 1 {
			t.Fatalf("expiry alerts of a batch received: %+v", rows)
		}
		return rows.Records[0].ID
	}
}

func dayFromToday(days int) string { return time.Now().AddDate(0, 0, days).Format(time.DateOnly) }

type thresholdRow struct {
	ID           string  `json:"id"`
	MaterialCode string  `json:"materialCode"`
	AlertType    int     `json:"alertType"`
	Alerts       []int   `json:"alerts"`
	Qty          string  `json:"qty"`
	LockedQty    string  `json:"lockedQty"`
	AvailableQty string  `json:"availableQty"`
	SafetyStock  *string `json:"safetyStock"`
	MinStock     *string `json:"minStock"`
	MaxStock     *string `json:"maxStock"`
	ShortageQty  *string `json:"shortageQty"`
	ExcessQty    *string `json:"excessQty"`
}

func (r thresholdRow) String() string {
	s := func(p *string) string {
		if p == nil {
			return "-"
		}
		return *p
	}
	return fmt.Sprintf("%v/%d %s/%s/%s short %s excess %s", r.Alerts, r.AlertType, r.Qty, r.LockedQty, r.AvailableQty, s(r.ShortageQty), s(r.ExcessQty))
}

type expiryRow struct {
	ID           string `json:"id"`
	MaterialID   string `json:"materialId"`
	BatchNo      string `json:"batchNo"`
	ExpiryDate   string `json:"expiryDate"`
	Qty          string `json:"qty"`
	DaysLeft     int    `json:"daysLeft"`
	AlertType    int    `json:"alertType"`
	MaterialName string `json:"materialName"`
}

type warehouseValue struct {
	WarehouseID   string `json:"warehouseId"`
	WarehouseName string `json:"warehouseName"`
	Qty           string `json:"qty"`
	Amount        string `json:"amount"`
}

// TestStockMonitor: the threshold monitor lists the materials below their
// safety or minimum stock (on the available quantity: an issue's lock
// counts) or above their maximum (on hand), per warehouse too, filtered by
// kind and keyword and exported; the expiry tab lists batches expiring
// within the days asked (expired ones as expired); the dashboard's value by
// warehouse is Σ qty × average cost; another tenant sees none of it; bad
// parameters are 400s.
func TestStockMonitor(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Monitor Co")
		pl := newStockPlace(t, c)  // W1 with M
		pl2 := newStockPlace(t, c) // W2 with M2
		pl2.supplier = pl.supplier
		var m3, bm struct{ ID string }
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "Z3" + randomWord(4), "materialName": "无货料", "unit": "pcs", "safetyStock": "1"}).OK(t, &m3)
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "BM" + randomWord(4), "materialName": "批次料", "unit": "kg", "batchManaged": 2}).OK(t, &bm)
		levels := func(id string, kv map[string]any) {
			var mat struct{ Version int }
			c.Get(basic+"material/detail", apptest.Q("id", id)).OK(t, &mat)
			kv["id"], kv["version"] = id, mat.Version
			c.PostJSON(basic+"material/submit", kv).OK(t, nil)
		}
		levels(pl.material, map[string]any{"safetyStock": "20", "minStock": "5", "maxStock": "100"})
		levels(pl2.material, map[string]any{"maxStock": "8"})

		receiveLines(t, c, pl, []map[string]any{
			{"materialId": pl.material, "qty": "10", "positionId": pl.position, "unitPrice": "2.5"},
			{"materialId": bm.ID, "qty": "3", "positionId": pl.position, "unitPrice": "4", "batchNo": "EXP", "expiryDate": dayFromToday(-3) + " 00:00:00"},
			{"materialId": bm.ID, "qty": "2", "positionId": pl.position, "unitPrice": "4", "batchNo": "SOON", "expiryDate": dayFromToday(10) + " 00:00:00"},
			{"materialId": bm.ID, "qty": "4", "positionId": pl.position, "unitPrice": "4", "batchNo": "LATER", "expiryDate": dayFromToday(40) + " 00:00:00"},
			{"materialId": bm.ID, "qty": "1", "positionId": pl.position, "unitPrice": "4", "batchNo": "NONE"},
		})
		receiveLines(t, c, pl2, []map[string]any{
			{"materialId": pl2.material, "qty": "12", "positionId": pl2.position, "unitPrice": "3.1"},
			{"materialId": pl.material, "qty": "2", "positionId": pl2.position, "unitPrice": "2.5"},
		})
		receiveLines(t, c, pl2, []map[string]any{{"materialId": pl2.material, "qty": "1", "positionId": pl2.position, "unitPrice": "3.2"}})
		// an other issue (samples) of 8 of M in W1, approved: locked, not yet gone
		var out issue
		c.PostJSON(outPath+"/addOutRecord", map[string]any{"outType": 3, "otherReason": 2, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "8", "positionId": pl.position}}}).OK(t, &out)
		c.Post(outPath+"/startProcess", apptest.Q("ids", out.ID)).OK(t, nil)

		alerts := func(kv ...string) map[string]string {
			t.Helper()
			var rows page[thresholdRow]
			c.Get(thresholdPath+"/list", apptest.Q(kv...)).OK(t, &rows)
			got := map[string]string{}
			for _, r := range rows.Records {
				got[r.ID] = r.String()
			}
			if int(rows.Total) != len(rows.Records) {
				t.Errorf("threshold total %d for %d rows", rows.Total, len(rows.Records))
			}
			return got
		}
		same := func(what string, got, want map[string]string) {
			t.Helper()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s:\n got %v\nwant %v", what, got, want)
			}
		}
		// M: 12 on hand, 8 locked: 4 available, under both the minimum 5 and the safety 20
		mAll := "[1 2]/2 12.000000/8.000000/4.000000 short 16.000000 excess -"
		m2All := "[3]/3 13.000000/0.000000/13.000000 short - excess 5.000000"
		m3All := "[1]/1 0.000000/0.000000/0.000000 short 1.000000 excess -"
		same("all alerts", alerts(), map[string]string{pl.material: mAll, pl2.material: m2All, m3.ID: m3All})
		same("below minimum", alerts("alertType", "2"), map[string]string{pl.material: mAll})
		same("below safety", alerts("alertType", "1"), map[string]string{pl.material: mAll, m3.ID: m3All})
		same("above maximum", alerts("alertType", "3"), map[string]string{pl2.material: m2All})
		same("W1", alerts("warehouseId", pl.warehouse), map[string]string{pl.material: "[1 2]/2 10.000000/8.000000/2.000000 short 18.000000 excess -"})
		same("W2", alerts("warehouseId", pl2.warehouse), map[string]string{
			pl.material: "[1 2]/2 2.000000/0.000000/2.000000 short 18.000000 excess -", pl2.material: m2All})
		same("keyword", alerts("keyword", "无货"), map[string]string{m3.ID: m3All})
		var m3Code struct{ MaterialCode string }
		c.Get(basic+"material/detail", apptest.Q("id", m3.ID)).OK(t, &m3Code)
		same("code", alerts("materialCode", strings.ToLower(m3Code.MaterialCode)), map[string]string{m3.ID: m3All})
		var rows page[thresholdRow]
		c.Get(thresholdPath+"/list", apptest.Q("size", "2")).OK(t, &rows)
		if rows.Total != 3 || len(rows.Records) != 2 {
			t.Errorf("a page of 2 of 3 alerts: %d, %d rows", rows.Total, len(rows.Records))
		}
		var one thresholdRow
		c.Get(thresholdPath+"/detail", apptest.Q("id", pl2.material)).OK(t, &one)
		if one.String() != m2All || one.MaxStock == nil || *one.MaxStock != "8.000000" {
			t.Errorf("detail of an alert: %s", one)
		}
		c.Get(thresholdPath+"/detail", apptest.Q("id", bm.ID)).Fail(t, 404) // no level
		c.Get(thresholdPath+"/detail", nil).Fail(t, 400)

		// the export: the list's columns under their labels, one line per alert
		r := c.Get(thresholdPath+"/export", apptest.Q("alertType", "3"))
		if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheetml") {
			t.Fatalf("export: %d %s", r.Status, r.Header.Get("Content-Type"))
		}
		f, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		lines, err := f.GetRows("Sheet1")
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != 2 || !slices.Contains(lines[0], "预警类型") || !slices.Contains(lines[0], "超出数量") || !slices.Contains(lines[1], "5.000000") {
			t.Errorf("export rows: %q", lines)
		}
		if recs := records(t, c, "/api/monitor/goodsDownloadM/page", apptest.Q("target", "bluebird-basic/stockthreshold")); len(recs) != 1 || recs[0]["rowCount"] != float64(1) {
			t.Errorf("threshold export recorded as %v", recs)
		}

		// expiry: within 30 days by default, the expired batch as expired
		expiring := func(kv ...string) string {
			t.Helper()
			var rows page[expiryRow]
			c.Get(expiryPath+"/list", apptest.Q(kv...)).OK(t, &rows)
			var out []string
			for _, r := range rows.Records {
				if r.MaterialID != bm.ID || r.MaterialName != "批次料" {
					t.Errorf("expiry row of another material: %+v", r)
				}
				out = append(out, fmt.Sprintf("%s %s %d/%d %s", r.BatchNo, r.Qty, r.DaysLeft, r.AlertType, r.ExpiryDate))
			}
			return strings.Join(out, "; ")
		}
		exp, soon, later := dayFromToday(-3), dayFromToday(10), dayFromToday(40)
		if got, want := expiring(), "EXP 3.000000 -3/5 "+exp+"; SOON 2.000000 10/4 "+soon; got != want {
			t.Errorf("expiry alerts: %s, want %s", got, want)
		}
		if got, want := expiring("days", "60"), "EXP 3.000000 -3/5 "+exp+"; SOON 2.000000 10/4 "+soon+"; LATER 4.000000 40/4 "+later; got != want {
			t.Errorf("within 60 days: %s, want %s", got, want)
		}
		if got := expiring("days", "0"); got != "EXP 3.000000 -3/5 "+exp {
			t.Errorf("within 0 days: %s", got)
		}
		if got := expiring("alertType", "4", "days", "60"); got != "SOON 2.000000 10/4 "+soon+"; LATER 4.000000 40/4 "+later {
			t.Errorf("expiring only: %s", got)
		}
		if got := expiring("alertType", "5"); got != "EXP 3.000000 -3/5 "+exp {
			t.Errorf("expired only: %s", got)
		}
		if got := expiring("warehouseId", pl2.warehouse); got != "" {
			t.Errorf("expiry alerts of W2: %s", got)
		}
		if got := expiring("batchNo", "OO"); got != "SOON 2.000000 10/4 "+soon {
			t.Errorf("by batch: %s", got)
		}
		r = c.Get(expiryPath+"/export", apptest.Q("days", "60"))
		if f, err = excelize.OpenReader(bytes.NewReader(r.Body)); err != nil {
			t.Fatalf("expiry export: %d %v", r.Status, err)
		}
		if lines, _ = f.GetRows("Sheet1"); len(lines) != 4 || !slices.Contains(lines[0], "有效期至") {
			t.Errorf("expiry export: %q", lines)
		}

		// value by warehouse: W1 = 10 × 2.5 + 10 × 4; W2 = 2 × 2.5 + 13 × 3.107692 (M2's average of 37.2 + 3.2 over 13)
		var values []warehouseValue
		c.Get(stockPath+"/valueByWarehouse", nil).OK(t, &values)
		if got := fmt.Sprint(values); got != fmt.Sprintf("[{%s 仓 20.000000 65.0000} {%s 仓 15.000000 45.4000}]", pl.warehouse, pl2.warehouse) {
			t.Errorf("value by warehouse: %s", got)
		}
		// the figure is the stock list's amounts added up
		var stock page[stockRow]
		c.Get(stockPath+"/selectMaterialStockVOListPage", apptest.Q("warehouseId", pl2.warehouse)).OK(t, &stock)
		if got := stockRows(stock.Records); !strings.Contains(got, "3.107692 40.4000") || !strings.Contains(got, "2.500000 5.0000") {
			t.Errorf("W2's stock: %s", got)
		}

		// malformed parameters
		for _, q := range [][]string{{"alertType", "4"}, {"alertType", "x"}, {"warehouseId", "w"}, {"id", "1.5"}, {"size", "abc"}, {"keyword", strings.Repeat("k", 300)}} {
			c.Get(thresholdPath+"/list", apptest.Q(q...)).Fail(t, 400)
			if q[0] != "size" { // the export is not paged
				c.Get(thresholdPath+"/export", apptest.Q(q...)).Fail(t, 400)
			}
		}
		for _, q := range [][]string{{"days", "-1"}, {"days", "x"}, {"days", "99999"}, {"alertType", "1"}, {"warehouseId", "w"}, {"descs", "materialName"}} {
			msg := c.Get(expiryPath+"/list", apptest.Q(q...)).Fail(t, 400)
			c.Get(expiryPath+"/export", apptest.Q(q...)).Fail(t, 400)
			if q[0] == "days" && msg != "参数days应为0到3650之间的整数" {
				t.Errorf("days %s: %q", q[1], msg)
			}
		}
		h.Anon().Get(thresholdPath+"/list", nil).Fail(t, 401)
		h.Anon().Get(stockPath+"/valueByWarehouse", nil).Fail(t, 401)

		// another tenant sees none of it, even naming A's ids
		_, b := h.NewTenant("Other Monitor Co")
		pb := newStockPlace(t, b)
		receiveLines(t, b, pb, []map[string]any{{"materialId": pb.material, "qty": "1", "positionId": pb.position, "unitPrice": "7"}})
		same("tenant B's alerts", func() map[string]string {
			var rows page[thresholdRow]
			b.Get(thresholdPath+"/list", nil).OK(t, &rows)
			got := map[string]string{}
			for _, r := range rows.Records {
				got[r.ID] = r.String()
			}
			return got
		}(), map[string]string{})
		b.Get(thresholdPath+"/detail", apptest.Q("id", pl.material)).Fail(t, 404)
		var bRows page[expiryRow]
		b.Get(expiryPath+"/list", apptest.Q("days", "3650")).OK(t, &bRows)
		b.Get(expiryPath+"/list", apptest.Q("days", "3650", "materialId", bm.ID)).OK(t, &bRows)
		if bRows.Total != 0 {
			t.Errorf("tenant B sees A's batches: %+v", bRows)
		}
		var bThr page[thresholdRow]
		b.Get(thresholdPath+"/list", apptest.Q("warehouseId", pl2.warehouse)).OK(t, &bThr)
		if bThr.Total != 0 {
			t.Errorf("tenant B naming A's warehouse: %+v", bThr)
		}
		b.Get(stockPath+"/valueByWarehouse", nil).OK(t, &values)
		if got := fmt.Sprint(values); got != fmt.Sprintf("[{%s 仓 1.000000 7.0000}]", pb.warehouse) {
			t.Errorf("tenant B's value by warehouse: %s", got)
		}
	})
}
