package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/wire"
)

const (
	outPath         = "/api/bluebird-basic/materialoutrecordmain"
	outLinePath     = "/api/bluebird-basic/materialoutrecorddetail"
	whOutLinePath   = "/api/bluebird-warehouse/materialoutrecorddetail"
	whOutPlacesPath = "/api/bluebird-warehouse/materialoutrecorddetailposition"
)

func init() {
	sampleOverrides["bluebird-basic/materialoutrecordmain"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		pl := newStockPlace(h.T, c)
		return map[string]any{"outType": 1, "producePlanId": pickingPlan(h.T, c, "1000", pl.material), "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}
	}
	// a line saved on its own goes into a draft issue of the caller (an other
	// issue: a picking line's material must be in its plan's requirement)
	line := func(h *apptest.H, c *apptest.Client) map[string]any {
		pl := newStockPlace(h.T, c)
		var out issue
		c.PostJSON(outPath+"/addOtherOutRecord", map[string]any{"outType": 3, "otherReason": 1, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}).OK(h.T, &out)
		return map[string]any{"mainId": out.ID, "materialId": pl.material, "qty": "2", "positionId": pl.position}
	}
	for _, key := range []string{"bluebird-basic/materialoutrecorddetail", "bluebird-warehouse/materialoutrecorddetail", "bluebird-warehouse/materialoutrecorddetailposition"} {
		sampleOverrides[key] = line
		boundReferences[key+".positionId"] = "a line's location lies in its issue's warehouse"
	}
	boundReferences["bluebird-basic/materialoutrecordmain.warehouseId"] = "the lines' locations lie in the issue's warehouse"
}

type issue struct {
	ID          string  `json:"id"`
	Version     int     `json:"version"`
	DocNo       string  `json:"docNo"`
	OutType     int     `json:"outType"`
	Status      int     `json:"status"`
	StockStatus int     `json:"stockStatus"`
	TotalQty    *string `json:"totalQty"`
	TotalAmount *string `json:"totalAmount"`
	Details     []issueLine
}

type issueLine struct {
	ID           string  `json:"id"`
	Version      int     `json:"version"`
	MainID       string  `json:"mainId"`
	MaterialCode string  `json:"materialCode"`
	Qty          string  `json:"qty"`
	BaseQty      string  `json:"baseQty"`
	UnitCost     *string `json:"unitCost"`
	Amount       *string `json:"amount"`
	ReturnedQty  *string `json:"returnedQty"`
	DocNo        string  `json:"docNo"`
}

// balance is a material's bucket quantities "qty/locked".
func balance(t *testing.T, h *apptest.H, material string) string {
	t.Helper()
	var rows []struct {
		Qty    string `bun:"qty"`
		Locked string `bun:"locked_qty"`
	}
	id, _ := wire.ParseID(material)
	if err := h.App.DB.NewSelect().Table("bb_stock_balance").Column("qty", "locked_qty").Where("item_id = ?", id).Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.Qty+"/"+r.Locked)
	}
	return strings.Join(out, ",")
}

// receive puts qty pieces of the place's material into stock at price.
func receive(t *testing.T, c *apptest.Client, pl stockPlace, qty, price string) {
	t.Helper()
	var in receipt
	c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier,
		"details": []map[string]any{{"materialId": pl.material, "qty": qty, "positionId": pl.position, "unitPrice": price}}}).OK(t, &in)
	c.Post(inPath+"/startProcess", apptest.Q("ids", in.ID)).OK(t, nil)
	c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", in.ID)).OK(t, nil)
}

// TestMaterialIssue: an issue locks its stock when it goes for approval, a
// second one over what is left is refused there; posted, it takes the stock
// out at the average cost written back to its lines; voided, the stock
// comes back; an issue voided before posting lets its lock go. Lines
// change only while their issue may, and nothing crosses tenants.
func TestMaterialIssue(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Issue Co")
		pl := newStockPlace(t, c)
		planID := pickingPlan(t, c, "1000", pl.material)
		receive(t, c, pl, "10", "2.5")
		if got := balance(t, h, pl.material); got != "10.000000/0.000000" {
			t.Fatalf("received stock %s", got)
		}
		details := func(qty string) []map[string]any {
			return []map[string]any{{"materialId": pl.material, "qty": qty, "positionId": pl.position}}
		}

		// refusals before anything is saved
		if msg := c.PostJSON(outPath+"/addOtherOutRecord", map[string]any{"outType": 3, "warehouseId": pl.warehouse, "details": details("1")}).Fail(t, 400); msg != "请选择其他出库原因" {
			t.Errorf("an other issue without reason: %q", msg)
		}
		if msg := c.PostJSON(outPath+"/addOutRecord", map[string]any{"outType": 2, "warehouseId": pl.warehouse, "details": details("1")}).Fail(t, 400); msg != "采购退货请选择供应商" {
			t.Errorf("a purchase return without supplier: %q", msg)
		}
		if msg := c.PostJSON(outPath+"/submit", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse}).Fail(t, 400); msg != "单据没有明细" {
			t.Errorf("no lines: %q", msg)
		}
		other := newStockPlace(t, c)
		if msg := c.PostJSON(outPath+"/submit", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": other.position}}}).Fail(t, 400); !strings.Contains(msg, "库位不属于单据的仓库") {
			t.Errorf("a line in another warehouse: %q", msg)
		}

		// issue A: 6 of the 10, with what posting writes sent by the client ignored
		var a issue
		c.PostJSON(outPath+"/addOutRecord", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse, "stockStatus": 2, "totalAmount": "99",
			"details": []map[string]any{{"materialId": pl.material, "qty": "6", "positionId": pl.position, "unitCost": "9", "returnedQty": "6"}}}).OK(t, &a)
		if !strings.HasPrefix(a.DocNo, "MOUT") || a.Status != 1 || a.StockStatus != 1 || a.TotalAmount != nil || *a.TotalQty != "6.000000" ||
			len(a.Details) != 1 || a.Details[0].UnitCost != nil || a.Details[0].ReturnedQty != nil || a.Details[0].BaseQty != "6.000000" {
			t.Fatalf("saved issue %+v", a)
		}
		if msg := c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", a.ID)).Fail(t, 400); !strings.Contains(msg, a.DocNo) || !strings.Contains(msg, "待提交") {
			t.Errorf("issuing a draft: %q", msg)
		}
		c.Post(outPath+"/startProcess", apptest.Q("ids", a.ID)).OK(t, nil)
		if got := balance(t, h, pl.material); got != "10.000000/6.000000" {
			t.Errorf("after startProcess: %s, want 6 locked", got)
		}
		if msg := c.Edit(outPath+"/submit", map[string]any{"id": a.ID, "remark": "late"}).Fail(t, 400); !strings.Contains(msg, "已审批") {
			t.Errorf("editing an approved issue: %q", msg)
		}
		if msg := c.Post(outPath+"/remove", apptest.Q("ids", a.ID)).Fail(t, 400); !strings.Contains(msg, "已审批") {
			t.Errorf("removing an approved issue: %q", msg)
		}
		// its line cannot change either, on any of the line paths
		for _, p := range []string{outLinePath, whOutLinePath, whOutPlacesPath} {
			msg := c.Edit(p+"/submit", map[string]any{"id": a.Details[0].ID, "qty": "1"}).Fail(t, 400)
			if msg != "出库单 "+a.DocNo+" 的审核状态为 已审批, 只有待提交或已驳回的出库单可以修改明细" {
				t.Errorf("%s: editing a line of an approved issue: %q", p, msg)
			}
			if msg := c.Post(p+"/remove", apptest.Q("ids", a.Details[0].ID)).Fail(t, 400); !strings.Contains(msg, "已审批") {
				t.Errorf("%s: removing a line of an approved issue: %q", p, msg)
			}
			if msg := c.PostJSON(p+"/submit", map[string]any{"mainId": a.ID, "materialId": pl.material, "qty": "1", "positionId": pl.position}).Fail(t, 400); !strings.Contains(msg, "已审批") {
				t.Errorf("%s: adding a line to an approved issue: %q", p, msg)
			}
		}

		// issue B: 5 more, when 4 are available
		var b issue
		c.PostJSON(outPath+"/submitNew", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse, "details": details("5")}).OK(t, &b)
		msg := c.Post(outPath+"/startProcess", apptest.Q("ids", b.ID)).Fail(t, 400)
		if !strings.HasPrefix(msg, "库存不足: ") || !strings.Contains(msg, "可用 4.000000, 需要 5.000000") {
			t.Errorf("an issue over the available stock: %q", msg)
		}
		c.Get(outPath+"/detail", apptest.Q("id", b.ID)).OK(t, &b)
		if b.Status != 1 || balance(t, h, pl.material) != "10.000000/6.000000" {
			t.Errorf("after the refused startProcess: %+v, %s", b, balance(t, h, pl.material))
		}

		// posting A: the lock is consumed, the line priced from the ledger
		c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", a.ID)).OK(t, nil)
		c.Get(outPath+"/detail", apptest.Q("id", a.ID)).OK(t, &a)
		if a.StockStatus != 2 || balance(t, h, pl.material) != "4.000000/0.000000" {
			t.Errorf("after posting: %+v, %s", a, balance(t, h, pl.material))
		}
		if d := a.Details[0]; d.UnitCost == nil || *d.UnitCost != "2.500000" || d.Amount == nil || *d.Amount != "15.0000" || a.TotalAmount == nil || *a.TotalAmount != "15.0000" {
			t.Errorf("posted line %+v, total %v", d, a.TotalAmount)
		}
		var ledger []struct {
			TxType   int    `bun:"tx_type"`
			Qty      string `bun:"qty"`
			UnitCost string `bun:"unit_cost"`
		}
		if err := h.App.DB.NewSelect().Table("bb_stock_ledger").Column("tx_type", "qty", "unit_cost").Where("biz_no = ?", a.DocNo).Scan(context.Background(), &ledger); err != nil {
			t.Fatal(err)
		}
		if len(ledger) != 1 || ledger[0].TxType != 4 || ledger[0].Qty != "-6.000000" || ledger[0].UnitCost != "2.500000" {
			t.Errorf("ledger of the issue %+v", ledger)
		}
		if msg := c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", a.ID)).Fail(t, 400); !strings.Contains(msg, a.DocNo) {
			t.Errorf("posting twice: %q", msg)
		}

		// B's line is edited on its own while B is a draft: 4 fit
		c.Edit(outLinePath+"/submit", map[string]any{"id": mustLine(t, c, b.ID), "qty": "4"}).OK(t, nil)
		c.Get(outPath+"/detail", apptest.Q("id", b.ID)).OK(t, &b)
		if *b.TotalQty != "4.000000" || b.Details[0].BaseQty != "4.000000" || b.Details[0].MaterialCode == "" {
			t.Errorf("after the line edit: %+v", b)
		}
		if msg := c.Post(outLinePath+"/remove", apptest.Q("ids", b.Details[0].ID)).Fail(t, 400); msg != "出库单 "+b.DocNo+" 至少要保留一行明细, 请删除出库单" {
			t.Errorf("removing the last line: %q", msg)
		}
		c.Post(outPath+"/startProcess", apptest.Q("ids", b.ID)).OK(t, nil)
		if got := balance(t, h, pl.material); got != "4.000000/4.000000" {
			t.Errorf("B locked: %s", got)
		}
		// voided before posting: B lets its lock go
		c.Post(outPath+"/cancellation", apptest.Q("ids", b.ID)).OK(t, nil)
		c.Get(outPath+"/detail", apptest.Q("id", b.ID)).OK(t, &b)
		if b.Status != 5 || b.StockStatus != 1 || balance(t, h, pl.material) != "4.000000/0.000000" {
			t.Errorf("after voiding B: %+v, %s", b, balance(t, h, pl.material))
		}
		if msg := c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", b.ID)).Fail(t, 400); !strings.Contains(msg, "已作废") {
			t.Errorf("posting a voided issue: %q", msg)
		}

		// voided after posting: A's 6 come back
		c.Post(outPath+"/cancellation", apptest.Q("ids", a.ID)).OK(t, nil)
		c.Get(outPath+"/detail", apptest.Q("id", a.ID)).OK(t, &a)
		if a.Status != 5 || a.StockStatus != 3 || balance(t, h, pl.material) != "10.000000/0.000000" {
			t.Errorf("after voiding A: %+v, %s", a, balance(t, h, pl.material))
		}
		c.Post(outPath+"/cancellation", apptest.Q("ids", a.ID)).Fail(t, 400)

		// an other issue (scrap) of 3, lines added and removed on their own while a draft
		var o issue
		c.PostJSON(outPath+"/addOtherOutRecord", map[string]any{"outType": 3, "otherReason": 1, "warehouseId": pl.warehouse, "details": details("1")}).OK(t, &o)
		var added issueLine
		c.PostJSON(whOutPlacesPath+"/submit", map[string]any{"mainId": o.ID, "materialId": pl.material, "qty": "2", "positionId": pl.position}).OK(t, &added)
		c.PostJSON(whOutLinePath+"/submit", map[string]any{"mainId": o.ID, "materialId": pl.material, "qty": "5", "positionId": pl.position}).OK(t, nil)
		c.Get(outPath+"/detail", apptest.Q("id", o.ID)).OK(t, &o)
		if len(o.Details) != 3 || *o.TotalQty != "8.000000" {
			t.Fatalf("other issue with added lines: %+v", o)
		}
		c.Post(whOutLinePath+"/remove", apptest.Q("ids", o.Details[2].ID)).OK(t, nil)
		c.Get(outPath+"/detail", apptest.Q("id", o.ID)).OK(t, &o)
		if len(o.Details) != 2 || *o.TotalQty != "3.000000" {
			t.Fatalf("other issue after a line removal: %+v", o)
		}
		if msg := c.Edit(outLinePath+"/submit", map[string]any{"id": added.ID, "mainId": a.ID, "qty": "1"}).Fail(t, 400); msg != "明细不能移到另一张出库单" {
			t.Errorf("moving a line: %q", msg)
		}
		// the lists: picking and returns on page, other issues on otherPage
		var list page[issue]
		c.Get(outPath+"/otherPage", nil).OK(t, &list)
		if list.Total != 1 || list.Records[0].ID != o.ID {
			t.Errorf("otherPage %+v", list)
		}
		c.Get(outPath+"/page", nil).OK(t, &list)
		if list.Total != 2 {
			t.Errorf("page lists %d issues, want A and B", list.Total)
		}
		c.Get(outPath+"/pickingPage", nil).OK(t, &list)
		if list.Total != 2 {
			t.Errorf("pickingPage lists %d issues, want A and B", list.Total)
		}
		var lines page[issueLine]
		c.Get(outLinePath+"/listNew", apptest.Q("mainId", o.ID)).OK(t, &lines)
		if lines.Total != 2 || lines.Records[0].DocNo != o.DocNo {
			t.Errorf("listNew %+v", lines)
		}
		c.Post(outPath+"/startProcess", apptest.Q("ids", o.ID)).OK(t, nil)
		c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", o.ID)).OK(t, nil)
		if got := balance(t, h, pl.material); got != "7.000000/0.000000" {
			t.Errorf("after the scrap: %s", got)
		}
		// an issue edited into an other issue without its reason goes nowhere
		var e issue
		c.PostJSON(outPath+"/submit", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse, "details": details("1")}).OK(t, &e)
		c.Edit(outPath+"/submit", map[string]any{"id": e.ID, "outType": 3}).OK(t, nil)
		if msg := c.Post(outPath+"/startProcess", apptest.Q("ids", e.ID)).Fail(t, 400); msg != "请选择其他出库原因" {
			t.Errorf("startProcess of an other issue without reason: %q", msg)
		}

		// another tenant sees and touches none of it
		_, x := h.NewTenant("Other Co")
		x.Get(outPath+"/detail", apptest.Q("id", o.ID)).Fail(t, 404)
		x.Post(outPath+"/cancellation", apptest.Q("ids", o.ID)).Fail(t, 404)
		x.Post(outPath+"/startProcess", apptest.Q("ids", e.ID)).Fail(t, 404)
		x.Post(outPath+"/outboundSubmitted", apptest.Q("ids", e.ID)).Fail(t, 404)
		for _, p := range []string{outLinePath, whOutLinePath, whOutPlacesPath} {
			x.Get(p+"/detail", apptest.Q("id", added.ID)).Fail(t, 404)
			x.Post(p+"/remove", apptest.Q("ids", e.ID)).Fail(t, 404)
			var none page[issueLine]
			x.Get(p+"/list", nil).OK(t, &none)
			if none.Total != 0 {
				t.Errorf("%s: another tenant lists %d lines", p, none.Total)
			}
			if r := x.PostJSON(p+"/submit", map[string]any{"mainId": e.ID, "materialId": pl.material, "qty": "1", "positionId": pl.position}); r.Status != 400 && r.Status != 404 {
				t.Errorf("%s: another tenant adds a line to an issue: %d %s", p, r.Status, r.Body)
			}
		}
		for _, v := range []string{"page", "otherPage", "pickingPage"} {
			var none page[issue]
			x.Get(outPath+"/"+v, nil).OK(t, &none)
			if none.Total != 0 {
				t.Errorf("another tenant's %s lists %d issues", v, none.Total)
			}
		}
		c.Get(outPath+"/detail", apptest.Q("id", e.ID)).OK(t, &e)
		if e.Status != 1 || len(e.Details) != 1 {
			t.Errorf("the issue after the other tenant's tries: %+v", e)
		}
		// a removed issue's lines drop out of every line list
		c.Post(outPath+"/remove", apptest.Q("ids", e.ID)).OK(t, nil)
		for _, p := range []string{outLinePath, whOutLinePath, whOutPlacesPath} {
			c.Get(p+"/list", apptest.Q("mainId", e.ID)).OK(t, &lines)
			if lines.Total != 0 {
				t.Errorf("%s lists %d lines of a removed issue", p, lines.Total)
			}
		}
	})
}

func mustLine(t *testing.T, c *apptest.Client, issueID string) string {
	t.Helper()
	var d issue
	c.Get(outPath+"/detail", apptest.Q("id", issueID)).OK(t, &d)
	if len(d.Details) == 0 {
		t.Fatalf("issue %s has no lines", issueID)
	}
	return d.Details[0].ID
}

// TestIssueScreensAndEndpoints: the issue screens are in the metadata with
// their fixed issue types, and every issue endpoint of endpoints.txt is
// routed and answers an empty or malformed request with a 4xx.
func TestIssueScreensAndEndpoints(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		screens := map[string]string{}
		for _, m := range allMeta(t, admin) {
			if m.Name == "materialoutrecordmain" {
				screens[m.MenuCode] = m.Fixed["outType"]
			}
		}
		if len(screens) != 3 || screens["material_out"] != "" || screens["material_out_other"] != "3" || screens["production_picking"] != "1" {
			t.Errorf("issue screens %v", screens)
		}
		eps := endpointsOf(t, "/materialoutrecord")
		if len(eps) != 23 {
			t.Fatalf("%d issue endpoints in endpoints.txt, want 23", len(eps))
		}
		checkEndpointsRefuse(t, admin, eps, map[string]bool{"list": true, "page": true, "otherPage": true, "listNew": true}, "&mainId=%27")
	})
}

// TestIssueExpiredBatches: an outgoing line names its batch; an expired
// batch is not picked, but scrapped or returned to the supplier it is.
func TestIssueExpiredBatches(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Expiry Co")
		pl := newStockPlace(t, c)
		var m struct {
			ID string `json:"id"`
		}
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "EXP1", "materialName": "过期料", "unit": "pcs", "batchManaged": 2}).OK(t, &m)
		var in receipt
		c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier,
			"details": []map[string]any{{"materialId": m.ID, "qty": "5", "positionId": pl.position, "batchNo": "OLD1", "unitPrice": "4", "expiryDate": "2020-01-01 00:00:00"}}}).OK(t, &in)
		c.Post(inPath+"/startProcess", apptest.Q("ids", in.ID)).OK(t, nil)
		c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", in.ID)).OK(t, nil)
		planID := pickingPlan(t, c, "100", m.ID)

		if msg := c.PostJSON(outPath+"/submit", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": m.ID, "qty": "1", "positionId": pl.position}}}).Fail(t, 400); msg != "第1行: 物料 EXP1 按批次管理, 请输入批次号" {
			t.Errorf("an issue line without its batch: %q", msg)
		}
		issueOf := func(body map[string]any) issue {
			body["warehouseId"] = pl.warehouse
			body["details"] = []map[string]any{{"materialId": m.ID, "qty": "1", "positionId": pl.position, "batchNo": "OLD1"}}
			var out issue
			c.PostJSON(outPath+"/submit", body).OK(t, &out)
			c.Post(outPath+"/startProcess", apptest.Q("ids", out.ID)).OK(t, nil)
			return out
		}
		picking := issueOf(map[string]any{"outType": 1, "producePlanId": planID})
		if got := balance(t, h, m.ID); got != "5.000000/1.000000" {
			t.Errorf("the picking's lock: %s", got)
		}
		if msg := c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", picking.ID)).Fail(t, 400); msg != "批次 OLD1 已过期(2020-01-01), 不能出库" {
			t.Errorf("picking an expired batch: %q", msg)
		}
		c.Post(outPath+"/cancellation", apptest.Q("ids", picking.ID)).OK(t, nil)
		if got := balance(t, h, m.ID); got != "5.000000/0.000000" {
			t.Errorf("after voiding the picking: %s", got)
		}
		// a sample (an other issue that is not scrap) is refused too
		sample := issueOf(map[string]any{"outType": 3, "otherReason": 2})
		c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", sample.ID)).Fail(t, 400)
		c.Post(outPath+"/cancellation", apptest.Q("ids", sample.ID)).OK(t, nil)
		scrap := issueOf(map[string]any{"outType": 3, "otherReason": 1})
		c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", scrap.ID)).OK(t, nil)
		back := issueOf(map[string]any{"outType": 2, "supplierId": pl.supplier})
		c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", back.ID)).OK(t, nil)
		if got := balance(t, h, m.ID); got != "3.000000/0.000000" {
			t.Errorf("after the scrap and the return: %s", got)
		}
		var rows []struct {
			TxType      int     `bun:"tx_type"`
			PartnerType string  `bun:"partner_type"`
			UnitCost    string  `bun:"unit_cost"`
			BizNo       string  `bun:"biz_no"`
			PartnerID   wire.ID `bun:"partner_id"`
		}
		if err := h.App.DB.NewSelect().Table("bb_stock_ledger").Column("tx_type", "partner_type", "partner_id", "unit_cost", "biz_no").
			Where("biz_no IN (?, ?)", scrap.DocNo, back.DocNo).OrderExpr("tx_type").Scan(context.Background(), &rows); err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || rows[0].TxType != 5 || rows[0].PartnerType != "SUPPLIER" || rows[0].PartnerID.String() != pl.supplier ||
			rows[1].TxType != 6 || rows[0].UnitCost != "4.000000" || rows[1].UnitCost != "4.000000" {
			t.Errorf("ledger of the scrap and the return %+v", rows)
		}
	})
}

// endpointsOf are the endpoints.txt lines ("METHOD path") whose path
// contains part.
func endpointsOf(t *testing.T, part string) [][2]string {
	t.Helper()
	var eps [][2]string
	for _, line := range strings.Split(partnerEndpointLines(t), "\n") {
		method, path, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok && strings.Contains(path, part) {
			eps = append(eps, [2]string{method, path})
		}
	}
	return eps
}

// checkEndpointsRefuse: every endpoint is routed; the lists named in lists
// answer an empty request, every other endpoint refuses it with a 4xx; and a
// malformed request (bad ids, paging and the extra query, a broken JSON
// body) is a 4xx, never a 500.
func checkEndpointsRefuse(t *testing.T, c *apptest.Client, eps [][2]string, lists map[string]bool, extraQuery string) {
	t.Helper()
	for _, ep := range eps {
		method, path := ep[0], ep[1]
		r, ok := routed(c, method, path)
		if !ok {
			t.Errorf("%s %s is not routed", method, path)
			continue
		}
		if lists[path[strings.LastIndex(path, "/")+1:]] {
			r.OK(t, nil)
		} else if r.Status < 400 || r.Status >= 500 {
			t.Errorf("%s %s empty: %d %s", method, path, r.Status, r.Body)
		}
		mal := path + "?id=x&ids=1,,zz&current=-1&size=abc" + extraQuery
		if method == "POST" {
			r = c.Do(method, mal, strings.NewReader(`{"id": [1, 2}`), nil)
		} else {
			r = c.Do(method, mal, nil, nil)
		}
		if r.Status < 400 || r.Status >= 500 {
			t.Errorf("%s %s malformed: %d %s", method, path, r.Status, r.Body)
		}
	}
}
