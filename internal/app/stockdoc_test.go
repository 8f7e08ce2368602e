package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/wire"
)

const inPath = "/api/bluebird-basic/materialinrecordmain"

func init() {
	sampleOverrides["bluebird-basic/materialinrecordmain"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		pl := newStockPlace(h.T, c)
		return map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}
	}
	// receipt lines arise with their receipt
	readOnlyCreators["bluebird-basic/materialinrecorddetail"] = func(t *testing.T, c *apptest.Client) string {
		pl := newStockPlace(t, c)
		var in receipt
		c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}).OK(t, &in)
		return in.Details[0].ID
	}
}

// stockPlace is a material warehouse, its root position (a leaf, so it
// holds stock), a material counted in pieces and a supplier.
type stockPlace struct {
	warehouse, position, material, supplier string
}

func newStockPlace(t testing.TB, c *apptest.Client) stockPlace {
	t.Helper()
	var w, m, s struct {
		ID string `json:"id"`
	}
	c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseCode": "W" + randomWord(6), "warehouseName": "仓", "warehouseType": 1}).OK(t, &w)
	var roots page[positionRow]
	c.Get(basic+"warehouseposition/list", apptest.Q("warehouseId", w.ID)).OK(t, &roots)
	c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "M" + randomWord(6), "materialName": "料", "unit": "pcs"}).OK(t, &m)
	c.PostJSON(basic+"suppliermain/submit", map[string]any{"supplierCode": "S" + randomWord(6), "supplierName": "供"}).OK(t, &s)
	return stockPlace{w.ID, roots.Records[0].ID, m.ID, s.ID}
}

type receipt struct {
	ID          string  `json:"id"`
	Version     int     `json:"version"`
	DocNo       string  `json:"docNo"`
	Status      int     `json:"status"`
	StockStatus int     `json:"stockStatus"`
	TotalQty    *string `json:"totalQty"`
	TotalAmount *string `json:"totalAmount"`
	Details     []struct {
		ID           string  `json:"id"`
		MaterialCode string  `json:"materialCode"`
		Unit         string  `json:"unit"`
		Qty          string  `json:"qty"`
		BaseQty      string  `json:"baseQty"`
		BatchNo      string  `json:"batchNo"`
		ExpiryDate   *string `json:"expiryDate"`
		Amount       *string `json:"amount"`
	} `json:"details"`
}

func stockQty(t *testing.T, h *apptest.H, material string) string {
	t.Helper()
	var sums []string
	id, _ := wire.ParseID(material)
	if err := h.App.DB.NewSelect().Table("bb_stock_balance").ColumnExpr("qty").Where("item_id = ?", id).Scan(context.Background(), &sums); err != nil {
		t.Fatal(err)
	}
	return strings.Join(sums, ",")
}

// TestMaterialReceipt: a purchase receipt is numbered, converted into the
// base unit, batched and priced; approved, it goes into stock once; voided,
// its stock goes back out; the document refuses what its state forbids.
func TestMaterialReceipt(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Receipt Co")
		pl := newStockPlace(t, c)
		var batched struct {
			ID string `json:"id"`
		}
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "BAT1", "materialName": "批次料", "unit": "pcs",
			"batchManaged": 2, "shelfLifeDays": 30}).OK(t, &batched)
		var conv struct {
			ID string `json:"id"`
		}
		c.PostJSON(basic+"unitcomparison/submit", map[string]any{"itemKind": 1, "itemId": pl.material, "fromUnit": "box", "toUnit": "pcs", "ratio": "12"}).OK(t, &conv)
		c.Post(basic+"unitcomparison/startProcess", apptest.Q("ids", conv.ID)).OK(t, nil)

		// refusals before anything is saved
		msg := c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}).Fail(t, 400)
		if msg != "采购入库请选择供应商" {
			t.Errorf("no supplier: %q", msg)
		}
		msg = c.PostJSON(inPath+"/submit", map[string]any{"inType": 2, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}).Fail(t, 400)
		if msg != "退库入库单只能由退库单生成" {
			t.Errorf("a back-stock receipt by hand: %q", msg)
		}
		msg = c.PostJSON(inPath+"/saveMaterialInRecordOthers", map[string]any{"inType": 3, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}).Fail(t, 400)
		if msg != "请选择其他入库原因" {
			t.Errorf("an other receipt without reason: %q", msg)
		}
		msg = c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier}).Fail(t, 400)
		if msg != "单据没有明细" {
			t.Errorf("no lines: %q", msg)
		}
		var in receipt
		c.PostJSON(inPath+"/saveMaterialInRecord", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier,
			"details": []map[string]any{
				{"materialId": pl.material, "unit": "box", "qty": "2", "positionId": pl.position, "unitPrice": "24"},
				{"materialId": batched.ID, "qty": "0.5", "positionId": pl.position, "unitPrice": "3.3333", "productionDate": "2026-11-01 00:00:00"},
			}}).OK(t, &in)
		if !strings.HasPrefix(in.DocNo, "MIN") || in.Status != 1 || in.StockStatus != 1 || len(in.Details) != 2 {
			t.Fatalf("saved receipt %+v", in)
		}
		d0, d1 := in.Details[0], in.Details[1]
		if d0.BaseQty != "24.000000" || d0.Unit != "box" || *d0.Amount != "48.0000" || d1.Unit != "pcs" || d1.BatchNo == "" ||
			d1.ExpiryDate == nil || !strings.HasPrefix(*d1.ExpiryDate, "2026-12-01") || *in.TotalQty != "24.500000" || *in.TotalAmount != "49.6667" {
			t.Errorf("lines %+v totals %v %v", in.Details, *in.TotalQty, *in.TotalAmount)
		}
		// not approved: no posting
		msg = c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", in.ID)).Fail(t, 400)
		if !strings.Contains(msg, in.DocNo) || !strings.Contains(msg, "待提交") {
			t.Errorf("posting a draft: %q", msg)
		}
		c.Post(inPath+"/startProcess", apptest.Q("ids", in.ID)).OK(t, nil)
		msg = c.Edit(inPath+"/submit", map[string]any{"id": in.ID, "remark": "late"}).Fail(t, 400)
		if !strings.Contains(msg, "已审批") {
			t.Errorf("editing an approved receipt: %q", msg)
		}
		c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", in.ID)).OK(t, nil)
		c.Get(inPath+"/detail", apptest.Q("id", in.ID)).OK(t, &in)
		if in.StockStatus != 2 || stockQty(t, h, pl.material) != "24.000000" || stockQty(t, h, batched.ID) != "0.500000" {
			t.Errorf("after posting: %+v, stock %s / %s", in, stockQty(t, h, pl.material), stockQty(t, h, batched.ID))
		}
		msg = c.Post(inPath+"/submitInStockMaterialOthers", apptest.Q("ids", in.ID)).Fail(t, 400)
		if !strings.Contains(msg, in.DocNo) || !strings.Contains(msg, "已出入库") {
			t.Errorf("posting twice: %q", msg)
		}
		// the ledger row carries the price per base unit: 48 for 24 pieces
		var costs []string
		if err := h.App.DB.NewSelect().Table("bb_stock_ledger").ColumnExpr("unit_cost").Where("biz_no = ?", in.DocNo).OrderExpr("seq, item_id").Scan(context.Background(), &costs); err != nil {
			t.Fatal(err)
		}
		if strings.Join(costs, ",") != "2.000000,3.333300" && strings.Join(costs, ",") != "3.333300,2.000000" {
			t.Errorf("ledger unit costs %v", costs)
		}
		// voided: the stock goes back out
		c.Post(inPath+"/cancellation", apptest.Q("ids", in.ID)).OK(t, nil)
		c.Get(inPath+"/detail", apptest.Q("id", in.ID)).OK(t, &in)
		if in.Status != 5 || in.StockStatus != 3 || stockQty(t, h, pl.material) != "0.000000" {
			t.Errorf("after the void: %+v, stock %s", in, stockQty(t, h, pl.material))
		}
		// another tenant sees none of it
		_, other := h.NewTenant("Other Co")
		other.Get(inPath+"/detail", apptest.Q("id", in.ID)).Fail(t, 404)
		other.Post(inPath+"/cancellation", apptest.Q("ids", in.ID)).Fail(t, 404)
		var lines page[struct{ ID string }]
		other.Get(basic+"materialinrecorddetail/selectMaterialInRecordDetailVOListPage", nil).OK(t, &lines)
		if lines.Total != 0 {
			t.Errorf("another tenant lists %d receipt lines", lines.Total)
		}
		c.Get(basic+"materialinrecorddetail/detailListVO", apptest.Q("mainId", in.ID)).OK(t, nil)
	})
}

// TestOtherReceiptScreen: other receipts are a screen of their own, whose
// buttons guard its rows' commands.
func TestOtherReceiptScreen(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		var found bool
		for _, m := range allMeta(t, h.Admin()) {
			if m.MenuCode == "material_in_other" {
				found = m.Name == "materialinrecordmain" && m.Fixed["inType"] == "3"
			}
		}
		if !found {
			t.Error("no other-receipts screen in the metadata")
		}
	})
}
