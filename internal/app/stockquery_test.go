package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/stock"
)

const (
	stockPath  = "/api/bluebird-basic/materialstock"
	ledgerPath = "/api/bluebird-basic/stockledger"
)

func init() {
	// buckets and ledger rows arise from a posted receipt
	readOnlyCreators["bluebird-basic/materialstock"] = func(t *testing.T, c *apptest.Client) string {
		pl := newStockPlace(t, c)
		receiveLines(t, c, pl, []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position, "unitPrice": "1"}})
		var rows page[stockRow]
		c.Get(stockPath+"/list", apptest.Q("materialId", pl.material)).OK(t, &rows)
		if len(rows.Records) != 1 {
			t.Fatalf("stock rows of a received material: %+v", rows)
		}
		return rows.Records[0].ID
	}
	readOnlyCreators["bluebird-basic/stockledger"] = func(t *testing.T, c *apptest.Client) string {
		pl := newStockPlace(t, c)
		no := receiveLines(t, c, pl, []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position, "unitPrice": "1"}})
		var rows page[ledgerRow]
		c.Get(ledgerPath+"/list", apptest.Q("bizNo", no)).OK(t, &rows)
		if len(rows.Records) != 1 {
			t.Fatalf("ledger rows of a receipt: %+v", rows)
		}
		return rows.Records[0].ID
	}
}

// receiveLines saves, approves and posts a purchase receipt into pl's
// warehouse and returns its number.
func receiveLines(t *testing.T, c *apptest.Client, pl stockPlace, lines []map[string]any) string {
	t.Helper()
	var in receipt
	c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier, "details": lines}).OK(t, &in)
	c.Post(inPath+"/startProcess", apptest.Q("ids", in.ID)).OK(t, nil)
	c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", in.ID)).OK(t, nil)
	return in.DocNo
}

type stockRow struct {
	ID             string  `json:"id"`
	MaterialID     string  `json:"materialId"`
	MaterialCode   string  `json:"materialCode"`
	MaterialName   string  `json:"materialName"`
	Unit           string  `json:"unit"`
	WarehouseName  string  `json:"warehouseName"`
	PositionKey    string  `json:"positionKey"`
	PositionName   string  `json:"positionName"`
	BatchNo        string  `json:"batchNo"`
	ProductionDate string  `json:"productionDate"`
	ExpiryDate     string  `json:"expiryDate"`
	Qty            string  `json:"qty"`
	LockedQty      string  `json:"lockedQty"`
	AvailableQty   string  `json:"availableQty"`
	AvgCost        *string `json:"avgCost"`
	Amount         *string `json:"amount"`
}

func (r stockRow) String() string {
	s := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	return r.BatchNo + "@" + r.PositionKey + " " + r.Qty + "/" + r.LockedQty + "/" + r.AvailableQty + " " + s(r.AvgCost) + " " + s(r.Amount)
}

func stockRows(rows []stockRow) string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.String()
	}
	return strings.Join(out, "; ")
}

type ledgerRow struct {
	ID            string `json:"id"`
	ItemID        string `json:"itemId"`
	ItemName      string `json:"itemName"`
	WarehouseName string `json:"warehouseName"`
	PositionKey   string `json:"positionKey"`
	BatchNo       string `json:"batchNo"`
	TxType        int    `json:"txType"`
	Direction     int    `json:"direction"`
	Qty           string `json:"qty"`
	UnitCost      string `json:"unitCost"`
	BizNo         string `json:"bizNo"`
	BalanceQty    string `json:"balanceQty"`
}

// TestMaterialStockQueries: the stock list shows each bucket with its
// material, place, batch dates, quantities and value; the picker's
// allDetail sorts FEFO and filters a position's subtree, batches, dates and
// availability; the totals add a material's buckets; the ledger lists a
// document's rows; stock cannot be written here; another tenant sees none
// of it; malformed parameters are refused.
func TestMaterialStockQueries(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, c := h.NewTenant("Stock Co")
		pl := newStockPlace(t, c)
		// positions: root > A > A1, root > B (the leaves hold the stock)
		var a, a1, b, bm struct{ ID string }
		c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": pl.warehouse, "parentId": pl.position, "warehouseKey": "A", "warehouseName": "A区"}).OK(t, &a)
		c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": pl.warehouse, "parentId": a.ID, "warehouseKey": "A1", "warehouseName": "A1格"}).OK(t, &a1)
		c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": pl.warehouse, "parentId": pl.position, "warehouseKey": "B", "warehouseName": "B区"}).OK(t, &b)
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "BM-FEFO", "materialName": "批次料", "unit": "kg", "batchManaged": 2}).OK(t, &bm)
		var mat struct {
			MaterialCode string `json:"materialCode"`
			Version      int    `json:"version"`
		}
		c.Get(basic+"material/detail", apptest.Q("id", pl.material)).OK(t, &mat)
		c.PostJSON(basic+"material/submit", map[string]any{"id": pl.material, "version": mat.Version, "safetyStock": "20"}).OK(t, nil)

		no := receiveLines(t, c, pl, []map[string]any{
			{"materialId": pl.material, "qty": "10", "positionId": a1.ID, "unitPrice": "2.5"},
			{"materialId": bm.ID, "qty": "5", "positionId": a1.ID, "unitPrice": "4", "batchNo": "LATE", "productionDate": "2026-01-10 00:00:00", "expiryDate": "2027-03-01 00:00:00"},
			{"materialId": bm.ID, "qty": "3", "positionId": b.ID, "unitPrice": "4", "batchNo": "EARLY", "productionDate": "2025-06-01 00:00:00", "expiryDate": "2026-09-01 00:00:00"},
			{"materialId": bm.ID, "qty": "2", "positionId": a1.ID, "unitPrice": "4", "batchNo": "NONE"},
		})
		receiveLines(t, c, pl, []map[string]any{{"materialId": pl.material, "qty": "3", "positionId": b.ID, "unitPrice": "3.1"}})

		// the list: M's average (25 + 9.3) / 13 = 2.638462, amounts at four places
		var rows page[stockRow]
		c.Get(stockPath+"/selectMaterialStockVOListPage", apptest.Q("materialId", pl.material, "descs", "qty")).OK(t, &rows)
		if got := stockRows(rows.Records); rows.Total != 2 || got != "@A1 10.000000/0.000000/10.000000 2.638462 26.3846; @B 3.000000/0.000000/3.000000 2.638462 7.9154" {
			t.Errorf("material stock rows (%d): %s", rows.Total, got)
		}
		if r := rows.Records[0]; r.MaterialCode != mat.MaterialCode || r.MaterialName != "料" || r.Unit != "pcs" || r.WarehouseName != "仓" || r.PositionName != "A1格" {
			t.Errorf("names of a stock row: %+v", r)
		}
		c.Get(stockPath+"/selectMaterialStockVOListPage", apptest.Q("keyword", "bm-fe")).OK(t, &rows)
		if rows.Total != 3 {
			t.Errorf("keyword on the material code: %d rows", rows.Total)
		}
		c.Get(stockPath+"/selectMaterialStockVOListPage", nil).OK(t, &rows)
		if rows.Total != 5 {
			t.Errorf("all buckets: %d", rows.Total)
		}

		// a text column's _null is "no value": the ledger of a bucket without a batch (the stock screen's drawer)
		// is not every batch's
		ledgerCount := func(kv ...string) int {
			t.Helper()
			var ledger page[struct{ ID string }]
			c.Get(ledgerPath+"/selectStockLedgerVOPage", apptest.Q(kv...)).OK(t, &ledger)
			return ledger.Total
		}
		if n := ledgerCount("itemId", pl.material, "batchNo_null", ""); n != 2 {
			t.Errorf("ledger rows of M without a batch: %d, want 2", n)
		}
		if n, all := ledgerCount("itemId", bm.ID, "batchNo_null", ""), ledgerCount("itemId", bm.ID, "batchNo_notnull", ""); n != 0 || all != 3 {
			t.Errorf("ledger rows of BM without a batch %d (want 0), with one %d (want 3)", n, all)
		}

		// allDetail: FEFO, the earliest expiry first, no expiry last
		c.Get(stockPath+"/allDetail", apptest.Q("materialId", bm.ID)).OK(t, &rows)
		if got := stockRows(rows.Records); got != "EARLY@B 3.000000/0.000000/3.000000 4.000000 12.0000; LATE@A1 5.000000/0.000000/5.000000 4.000000 20.0000; NONE@A1 2.000000/0.000000/2.000000 4.000000 8.0000" {
			t.Errorf("FEFO: %s", got)
		}
		if r := rows.Records[0]; r.ExpiryDate != "2026-09-01" || r.ProductionDate != "2025-06-01" || rows.Records[2].ExpiryDate != "" {
			t.Errorf("batch dates: %+v / %+v", r, rows.Records[2])
		}
		pick := func(want string, kv ...string) {
			t.Helper()
			var rows page[stockRow]
			c.Get(stockPath+"/allDetail", apptest.Q(append([]string{"materialId", bm.ID}, kv...)...)).OK(t, &rows)
			batches := make([]string, len(rows.Records))
			for i, r := range rows.Records {
				batches[i] = r.BatchNo
			}
			if got := strings.Join(batches, ","); got != want {
				t.Errorf("allDetail %v: %s, want %s", kv, got, want)
			}
		}
		pick("LATE,NONE", "positionId", a.ID) // A's subtree: A1
		pick("LATE,NONE", "positionId", a1.ID)
		pick("EARLY", "positionId", b.ID)
		pick("EARLY,LATE,NONE", "positionId", pl.position)
		pick("EARLY", "batchNo_equal", "EARLY")
		pick("", "batchNo_equal", "EAR")
		pick("EARLY", "batchNo", "AR")
		pick("EARLY", "expiryBefore", "2027-01-01")
		pick("EARLY,LATE", "expiryBefore", "2027-03-02")
		pick("LATE", "productionDateFrom", "2026-01-01")
		pick("EARLY", "productionDateTo", "2025-12-31 00:00:00")
		pick("EARLY", "warehouseId", pl.warehouse, "expiryBefore", "2026-09-02")

		// a lock takes EARLY out of what is available
		ctx := authz.With(context.Background(), &authz.Principal{TenantID: tenantID, UserID: 1})
		wh, _ := wire.ParseID(pl.warehouse)
		bid, _ := wire.ParseID(b.ID)
		bmid, _ := wire.ParseID(bm.ID)
		mid, _ := wire.ParseID(pl.material)
		if err := h.App.DB.Tx(ctx, func(tx bun.Tx) error {
			return h.App.Stock.Lock(ctx, tx, "TEST", db.NewID(), "T-1", []stock.LockLine{{
				Bucket:   stock.Bucket{Kind: stock.Material, ItemID: bmid, WarehouseID: wh, PositionID: bid, BatchNo: "EARLY"},
				DetailID: db.NewID(), Qty: wire.MustParseDecimal("3")}})
		}); err != nil {
			t.Fatal(err)
		}
		pick("LATE,NONE", "onlyAvailable", "true")
		pick("EARLY,LATE,NONE", "onlyAvailable", "false")
		c.Get(stockPath+"/allDetail", apptest.Q("materialId", bm.ID, "batchNo_equal", "EARLY")).OK(t, &rows)
		if got := stockRows(rows.Records); got != "EARLY@B 3.000000/3.000000/0.000000 4.000000 12.0000" {
			t.Errorf("locked bucket: %s", got)
		}
		var one stockRow
		c.Get(stockPath+"/detail", apptest.Q("id", rows.Records[0].ID)).OK(t, &one)
		if one.String() != "EARLY@B 3.000000/3.000000/0.000000 4.000000 12.0000" || one.ExpiryDate != "2026-09-01" {
			t.Errorf("detail: %s %+v", one, one)
		}

		// a bucket issued to zero is hidden unless asked for
		if err := h.App.DB.Tx(ctx, func(tx bun.Tx) error {
			_, err := h.App.Stock.Post(ctx, tx, stock.Posting{BizType: "TEST", BizID: db.NewID(), BizNo: "OUT-1", Lines: []stock.Line{{
				Bucket:   stock.Bucket{Kind: stock.Material, ItemID: mid, WarehouseID: wh, PositionID: bid},
				DetailID: db.NewID(), TxType: stock.MaterialOutOther, Qty: wire.MustParseDecimal("-3")}}})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		c.Get(stockPath+"/selectMaterialStockVOListPage", apptest.Q("materialId", pl.material)).OK(t, &rows)
		if got := stockRows(rows.Records); got != "@A1 10.000000/0.000000/10.000000 2.638461 26.3846" { // the issue left 34.3 − 3 × 2.638462 for 10
			t.Errorf("zero bucket hidden: %s", got)
		}
		c.Get(stockPath+"/selectMaterialStockVOListPage", apptest.Q("materialId", pl.material, "showZero", "true")).OK(t, &rows)
		if rows.Total != 2 {
			t.Errorf("showZero: %s", stockRows(rows.Records))
		}

		// totals per material, with the master's safety stock
		var totals page[struct {
			MaterialID   string  `json:"materialId"`
			MaterialCode string  `json:"materialCode"`
			Qty          string  `json:"qty"`
			LockedQty    string  `json:"lockedQty"`
			AvailableQty string  `json:"availableQty"`
			AvgCost      string  `json:"avgCost"`
			Amount       string  `json:"amount"`
			SafetyStock  *string `json:"safetyStock"`
			BelowSafety  bool    `json:"belowSafety"`
		}]
		c.Get(stockPath+"/selectOtherMaterialStockList", nil).OK(t, &totals)
		if totals.Total != 2 {
			t.Fatalf("totals: %+v", totals)
		}
		for _, r := range totals.Records {
			var got string
			switch r.MaterialID {
			case bm.ID:
				got = strings.Join([]string{r.Qty, r.LockedQty, r.AvailableQty, r.AvgCost, r.Amount}, " ")
				if got != "10.000000 3.000000 7.000000 4.000000 40.0000" || r.BelowSafety {
					t.Errorf("batched material's totals: %s %+v", got, r)
				}
			case pl.material:
				got = strings.Join([]string{r.Qty, r.LockedQty, r.AvailableQty, r.AvgCost, r.Amount}, " ")
				if got != "10.000000 0.000000 10.000000 2.638461 26.3846" || !r.BelowSafety || r.SafetyStock == nil || *r.SafetyStock != "20.000000" {
					t.Errorf("material's totals: %s %+v", got, r)
				}
			default:
				t.Errorf("a total of another material: %+v", r)
			}
		}
		c.Get(stockPath+"/selectOtherMaterialStockList", apptest.Q("keyword", "BM-F")).OK(t, &totals)
		if totals.Total != 1 || totals.Records[0].MaterialID != bm.ID {
			t.Errorf("totals by keyword: %+v", totals)
		}

		// the ledger of the first receipt: four incoming rows
		var ledger page[ledgerRow]
		c.Get(ledgerPath+"/selectStockLedgerVOPage", apptest.Q("bizNo", no, "ascs", "bizNo")).OK(t, &ledger)
		if ledger.Total != 4 {
			t.Fatalf("ledger rows of %s: %+v", no, ledger)
		}
		ledgerID := ledger.Records[0].ID
		for _, r := range ledger.Records {
			if r.TxType != int(stock.MaterialInPurchase) || r.Direction != stock.In || r.BizNo != no || r.WarehouseName != "仓" {
				t.Errorf("ledger row %+v", r)
			}
		}
		c.Get(ledgerPath+"/selectStockLedgerVOPage", apptest.Q("itemId", pl.material)).OK(t, &ledger)
		if ledger.Total != 3 || ledger.Records[0].BizNo != "OUT-1" || ledger.Records[0].Qty != "-3.000000" || ledger.Records[0].BalanceQty != "0.000000" ||
			ledger.Records[2].BizNo != no || ledger.Records[2].ItemName != "料" || ledger.Records[2].PositionKey != "A1" {
			t.Errorf("ledger of a material, newest first: %+v", ledger.Records)
		}
		c.Get(ledgerPath+"/list", apptest.Q("txType", "6")).OK(t, &ledger)
		if ledger.Total != 1 {
			t.Errorf("ledger by type: %+v", ledger)
		}

		// stock is written only by documents
		for _, p := range []string{"/submit", "/remove"} {
			msg := c.PostJSON(stockPath+p, map[string]any{"id": one.ID, "qty": "99"}).Fail(t, 400)
			if msg != "库存只能通过出入库单据变动, 不能直接修改或删除" {
				t.Errorf("%s: %q", p, msg)
			}
		}
		h.Anon().PostJSON(stockPath+"/submit", map[string]any{}).Fail(t, 401)

		// malformed parameters
		for _, q := range [][]string{
			{"showZero", "maybe"}, {"onlyAvailable", "yes!"}, {"positionId", "x"}, {"expiryBefore", "2026-13-45"},
			{"productionDateFrom", "soon"}, {"materialId", "abc"}, {"descs", "materialName"}, {"size", "abc"},
		} {
			c.Get(stockPath+"/allDetail", apptest.Q(q...)).Fail(t, 400)
			c.Get(stockPath+"/selectMaterialStockVOListPage", apptest.Q(q...)).Fail(t, 400)
		}
		c.Get(stockPath+"/selectOtherMaterialStockList", apptest.Q("materialId", "x")).Fail(t, 400)
		c.Get(stockPath+"/selectOtherMaterialStockList", apptest.Q("warehouseId", "1,2")).Fail(t, 400)
		c.Get(stockPath+"/detail", apptest.Q("id", "x")).Fail(t, 400)
		c.Get(ledgerPath+"/list", apptest.Q("postedAt_datege", "yesterday")).Fail(t, 400)

		// another tenant sees none of it, even naming the ids
		_, other := h.NewTenant("Other Stock Co")
		other.Get(stockPath+"/detail", apptest.Q("id", one.ID)).Fail(t, 404)
		for _, p := range []string{"/selectMaterialStockVOListPage", "/allDetail", "/list", "/selectOtherMaterialStockList"} {
			var rows page[map[string]any]
			other.Get(stockPath+p, apptest.Q("materialId", bm.ID, "showZero", "true")).OK(t, &rows)
			if rows.Total != 0 || len(rows.Records) != 0 {
				t.Errorf("another tenant's %s: %+v", p, rows)
			}
			other.Get(stockPath+p, apptest.Q("positionId", a.ID, "showZero", "true")).OK(t, &rows)
			if rows.Total != 0 {
				t.Errorf("another tenant's %s by position: %+v", p, rows)
			}
		}
		other.Get(ledgerPath+"/list", apptest.Q("bizNo", no)).OK(t, &ledger)
		if ledger.Total != 0 {
			t.Errorf("another tenant's ledger: %+v", ledger)
		}
		other.Get(ledgerPath+"/detail", apptest.Q("id", ledgerID)).Fail(t, 404)
		c.Get(ledgerPath+"/detail", apptest.Q("id", ledgerID)).OK(t, nil)
	})
}
