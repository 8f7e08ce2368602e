package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/wire"
)

const (
	transferPath     = "/api/bluebird-basic/materialtransfermain"
	transferLinePath = "/api/bluebird-warehouse/materialtransferdetail"
)

func init() {
	sampleOverrides["bluebird-basic/materialtransfermain"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		a, b := newStockPlace(h.T, c), newStockPlace(h.T, c)
		return map[string]any{"transferType": 1, "fromWarehouseId": a.warehouse, "toWarehouseId": b.warehouse,
			"details": []map[string]any{{"materialId": a.material, "qty": "1", "fromPositionId": a.position, "toPositionId": b.position}}}
	}
	// a line added on its own route to a draft transfer
	sampleOverrides["bluebird-warehouse/materialtransferdetail"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		a, b := newStockPlace(h.T, c), newStockPlace(h.T, c)
		var tr transferDoc
		c.PostJSON(transferPath+"/submit", map[string]any{"transferType": 1, "fromWarehouseId": a.warehouse, "toWarehouseId": b.warehouse,
			"details": []map[string]any{{"materialId": a.material, "qty": "1", "fromPositionId": a.position, "toPositionId": b.position}}}).OK(h.T, &tr)
		return map[string]any{"mainId": tr.ID, "materialId": a.material, "qty": "2", "fromPositionId": a.position, "toPositionId": b.position}
	}
	readOnlyCreators["bluebird-basic/materialtransferdetail"] = func(t *testing.T, c *apptest.Client) string {
		a, b := newStockPlace(t, c), newStockPlace(t, c)
		var tr transferDoc
		c.PostJSON(transferPath+"/submit", map[string]any{"transferType": 1, "fromWarehouseId": a.warehouse, "toWarehouseId": b.warehouse,
			"details": []map[string]any{{"materialId": a.material, "qty": "1", "fromPositionId": a.position, "toPositionId": b.position}}}).OK(t, &tr)
		return tr.Details[0].ID
	}
	for _, f := range []string{"bluebird-basic/materialtransfermain.fromWarehouseId", "bluebird-basic/materialtransfermain.toWarehouseId"} {
		boundReferences[f] = "the lines' positions lie in the transfer's warehouses"
	}
	for _, f := range []string{"bluebird-warehouse/materialtransferdetail.fromPositionId", "bluebird-warehouse/materialtransferdetail.toPositionId"} {
		boundReferences[f] = "a line's positions lie in its transfer's warehouses"
	}
}

type transferDoc struct {
	ID          string  `json:"id"`
	Version     int     `json:"version"`
	DocNo       string  `json:"docNo"`
	Status      int     `json:"status"`
	StockStatus int     `json:"stockStatus"`
	TotalQty    *string `json:"totalQty"`
	Details     []struct {
		ID       string  `json:"id"`
		Version  int     `json:"version"`
		Qty      string  `json:"qty"`
		BaseQty  string  `json:"baseQty"`
		BatchNo  string  `json:"batchNo"`
		UnitCost *string `json:"unitCost"`
	} `json:"details"`
}

// transferReceive puts qty of material into a place through a posted purchase receipt at price.
func transferReceive(t *testing.T, c *apptest.Client, pl stockPlace, material, qty, price, batch string) {
	t.Helper()
	var in receipt
	c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier,
		"details": []map[string]any{{"materialId": material, "qty": qty, "positionId": pl.position, "unitPrice": price, "batchNo": batch}}}).OK(t, &in)
	c.Post(inPath+"/startProcess", apptest.Q("ids", in.ID)).OK(t, nil)
	c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", in.ID)).OK(t, nil)
}

// bucketQty is the quantity and locked quantity of material at a position ("qty/locked", or "none").
func bucketQty(t *testing.T, h *apptest.H, material, position string) string {
	t.Helper()
	var rows []struct {
		Qty    string `bun:"qty"`
		Locked string `bun:"locked_qty"`
	}
	m, _ := wire.ParseID(material)
	p, _ := wire.ParseID(position)
	if err := h.App.DB.NewSelect().Table("bb_stock_balance").Column("qty", "locked_qty").Where("item_id = ? AND position_id = ?", m, p).Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		return "none"
	}
	var parts []string
	for _, r := range rows {
		parts = append(parts, r.Qty+"/"+r.Locked)
	}
	return strings.Join(parts, ",")
}

func avgCost(t *testing.T, h *apptest.H, material string) string {
	t.Helper()
	var v []string
	m, _ := wire.ParseID(material)
	if err := h.App.DB.NewSelect().Table("bb_item_cost").Column("avg_cost").Where("item_id = ?", m).Scan(context.Background(), &v); err != nil {
		t.Fatal(err)
	}
	return strings.Join(v, ",")
}

// TestMaterialTransfer: a transfer between warehouses locks its source at
// startProcess, moves exactly its quantity at the average cost, and its
// void moves it back; refusals for the same bucket, too much, wrong states
// and another tenant; the lines' own routes write through the document.
func TestMaterialTransfer(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Transfer Co")
		a, b := newStockPlace(t, c), newStockPlace(t, c)
		transferReceive(t, c, a, a.material, "10", "2", "")
		transferReceive(t, c, a, a.material, "10", "4", "")
		if got := bucketQty(t, h, a.material, a.position); got != "20.000000/0.000000" {
			t.Fatalf("received %s", got)
		}
		cost := avgCost(t, h, a.material)
		if cost != "3.000000" {
			t.Fatalf("average %s", cost)
		}
		line := func(qty string) map[string]any {
			return map[string]any{"materialId": a.material, "qty": qty, "fromPositionId": a.position, "toPositionId": b.position}
		}
		// refusals at save
		msg := c.PostJSON(transferPath+"/submit", map[string]any{"transferType": 1, "fromWarehouseId": a.warehouse, "toWarehouseId": a.warehouse,
			"details": []map[string]any{{"materialId": a.material, "qty": "1", "fromPositionId": a.position, "toPositionId": a.position}}}).Fail(t, 400)
		if msg != "仓库间调拨的调入仓库必须与调出仓库不同" {
			t.Errorf("warehouse transfer within one warehouse: %q", msg)
		}
		msg = c.PostJSON(transferPath+"/submit", map[string]any{"transferType": 2, "fromWarehouseId": a.warehouse,
			"details": []map[string]any{{"materialId": a.material, "qty": "1", "fromPositionId": a.position, "toPositionId": a.position}}}).Fail(t, 400)
		if msg != "第1行: 调出与调入的库位相同" {
			t.Errorf("same bucket: %q", msg)
		}
		msg = c.PostJSON(transferPath+"/submit", map[string]any{"transferType": 1, "fromWarehouseId": a.warehouse, "toWarehouseId": b.warehouse,
			"details": []map[string]any{{"materialId": a.material, "qty": "1", "fromPositionId": b.position, "toPositionId": b.position}}}).Fail(t, 400)
		if msg != "第1行: 库位不属于调出仓库" {
			t.Errorf("source outside the source warehouse: %q", msg)
		}
		// too much: refused at startProcess, nothing locked
		var big transferDoc
		c.PostJSON(transferPath+"/saveMaterialTransferMain", map[string]any{"transferType": 1, "fromWarehouseId": a.warehouse, "toWarehouseId": b.warehouse,
			"details": []map[string]any{line("21")}}).OK(t, &big)
		msg = c.Post(transferPath+"/startProcess", apptest.Q("ids", big.ID)).Fail(t, 400)
		if !strings.HasPrefix(msg, "库存不足") {
			t.Errorf("over-transfer: %q", msg)
		}
		if got := bucketQty(t, h, a.material, a.position); got != "20.000000/0.000000" {
			t.Errorf("after a refused start %s", got)
		}
		// 7.5 from A to B
		var tr transferDoc
		c.PostJSON(transferPath+"/submit", map[string]any{"transferType": 1, "fromWarehouseId": a.warehouse, "toWarehouseId": b.warehouse,
			"details": []map[string]any{line("7.5")}}).OK(t, &tr)
		if !strings.HasPrefix(tr.DocNo, "MTR") || tr.Status != 1 || tr.StockStatus != 1 || *tr.TotalQty != "7.500000" {
			t.Fatalf("saved transfer %+v", tr)
		}
		msg = c.Post(transferPath+"/outboundSubmitted", apptest.Q("ids", tr.ID)).Fail(t, 400)
		if !strings.Contains(msg, tr.DocNo) || !strings.Contains(msg, "待提交") {
			t.Errorf("posting a draft: %q", msg)
		}
		c.Post(transferPath+"/startProcess", apptest.Q("ids", tr.ID)).OK(t, nil)
		if got := bucketQty(t, h, a.material, a.position); got != "20.000000/7.500000" {
			t.Errorf("locked at start: %s", got)
		}
		// approved: neither the document nor its lines may be edited
		msg = c.Edit(transferPath+"/submit", map[string]any{"id": tr.ID, "remark": "late"}).Fail(t, 400)
		if !strings.Contains(msg, "已审批") {
			t.Errorf("editing an approved transfer: %q", msg)
		}
		msg = c.PostJSON(transferLinePath+"/submit", map[string]any{"id": tr.Details[0].ID, "version": tr.Details[0].Version, "qty": "1"}).Fail(t, 400)
		if !strings.Contains(msg, "已审批") {
			t.Errorf("editing a line of an approved transfer: %q", msg)
		}
		msg = c.PostJSON(transferLinePath+"/submit", map[string]any{"mainId": tr.ID, "materialId": a.material, "qty": "1", "fromPositionId": a.position, "toPositionId": b.position}).Fail(t, 400)
		if !strings.Contains(msg, "已审批") {
			t.Errorf("adding a line to an approved transfer: %q", msg)
		}
		c.Post(transferLinePath+"/remove", apptest.Q("ids", tr.Details[0].ID)).Fail(t, 400)
		c.Post(transferPath+"/remove", apptest.Q("ids", tr.ID)).Fail(t, 400)

		c.Post(transferPath+"/outboundSubmitted", apptest.Q("ids", tr.ID)).OK(t, nil)
		if got := bucketQty(t, h, a.material, a.position); got != "12.500000/0.000000" {
			t.Errorf("source after the transfer: %s", got)
		}
		if got := bucketQty(t, h, a.material, b.position); got != "7.500000/0.000000" {
			t.Errorf("destination after the transfer: %s", got)
		}
		if got := avgCost(t, h, a.material); got != cost {
			t.Errorf("the transfer changed the average: %s", got)
		}
		c.Get(transferPath+"/detail", apptest.Q("id", tr.ID)).OK(t, &tr)
		if tr.StockStatus != 2 || tr.Details[0].UnitCost == nil || *tr.Details[0].UnitCost != "3.000000" {
			t.Errorf("posted transfer %+v", tr)
		}
		c.Post(transferPath+"/outboundSubmitted", apptest.Q("ids", tr.ID)).Fail(t, 400)
		// another tenant sees and touches none of it
		_, other := h.NewTenant("Other Transfer Co")
		other.Get(transferPath+"/detail", apptest.Q("id", tr.ID)).Fail(t, 404)
		other.Post(transferPath+"/cancellation", apptest.Q("ids", tr.ID)).Fail(t, 404)
		other.Get(transferLinePath+"/detail", apptest.Q("id", tr.Details[0].ID)).Fail(t, 404)
		other.Get(basic+"materialtransferdetail/detail", apptest.Q("id", tr.Details[0].ID)).Fail(t, 404)
		other.PostJSON(transferLinePath+"/submit", map[string]any{"id": tr.Details[0].ID, "version": 1, "qty": "1"}).Fail(t, 404)
		other.Post(transferLinePath+"/remove", apptest.Q("ids", tr.Details[0].ID)).Fail(t, 404)
		var vo page[struct{ ID string }]
		other.Get(basic+"materialtransferdetail/selectMaterialTransferDetailVOList", nil).OK(t, &vo.Records)
		if len(vo.Records) != 0 {
			t.Errorf("another tenant lists %d transfer lines", len(vo.Records))
		}
		c.Get(basic+"materialtransferdetail/selectMaterialTransferDetailVOList", apptest.Q("mainId", tr.ID)).OK(t, &vo.Records)
		if len(vo.Records) != 1 {
			t.Errorf("own transfer lines listed %d", len(vo.Records))
		}

		// the destination spends some: the void cannot take back 7.5
		var spend transferDoc
		c.PostJSON(transferPath+"/submit", map[string]any{"transferType": 1, "fromWarehouseId": b.warehouse, "toWarehouseId": a.warehouse,
			"details": []map[string]any{{"materialId": a.material, "qty": "5", "fromPositionId": b.position, "toPositionId": a.position}}}).OK(t, &spend)
		c.Post(transferPath+"/startProcess", apptest.Q("ids", spend.ID)).OK(t, nil)
		c.Post(transferPath+"/outboundSubmitted", apptest.Q("ids", spend.ID)).OK(t, nil)
		msg = c.Post(transferPath+"/cancellation", apptest.Q("ids", tr.ID)).Fail(t, 400)
		if !strings.HasPrefix(msg, "冲销后库存为负") {
			t.Errorf("void with the destination spent: %q", msg)
		}
		// voided in the other order, both move back
		c.Post(transferPath+"/cancellation", apptest.Q("ids", spend.ID)).OK(t, nil)
		c.Post(transferPath+"/cancellation", apptest.Q("ids", tr.ID)).OK(t, nil)
		if got := bucketQty(t, h, a.material, a.position); got != "20.000000/0.000000" {
			t.Errorf("source after the voids: %s", got)
		}
		if got := bucketQty(t, h, a.material, b.position); got != "0.000000/0.000000" {
			t.Errorf("destination after the voids: %s", got)
		}
		c.Get(transferPath+"/detail", apptest.Q("id", tr.ID)).OK(t, &tr)
		if tr.Status != 5 || tr.StockStatus != 3 || avgCost(t, h, a.material) != cost {
			t.Errorf("voided transfer %+v, average %s", tr, avgCost(t, h, a.material))
		}
		c.Post(transferPath+"/cancellation", apptest.Q("ids", tr.ID)).Fail(t, 400)

		// a draft's lines are written on their own route, through the document's rules
		var draft transferDoc
		c.PostJSON(transferPath+"/submit", map[string]any{"transferType": 1, "fromWarehouseId": a.warehouse, "toWarehouseId": b.warehouse,
			"details": []map[string]any{line("1")}}).OK(t, &draft)
		var added struct {
			ID      string `json:"id"`
			BaseQty string `json:"baseQty"`
		}
		c.PostJSON(transferLinePath+"/submit", map[string]any{"mainId": draft.ID, "materialId": a.material, "qty": "2", "fromPositionId": a.position, "toPositionId": b.position}).OK(t, &added)
		msg = c.PostJSON(transferLinePath+"/submit", map[string]any{"mainId": draft.ID, "materialId": a.material, "qty": "2", "fromPositionId": a.position, "toPositionId": a.position}).Fail(t, 400)
		if !strings.Contains(msg, "库位不属于调入仓库") {
			t.Errorf("a line into the wrong warehouse: %q", msg)
		}
		c.Get(transferPath+"/detail", apptest.Q("id", draft.ID)).OK(t, &draft)
		if len(draft.Details) != 2 || *draft.TotalQty != "3.000000" || added.BaseQty != "2.000000" {
			t.Errorf("after adding a line: %+v", draft)
		}
		first := draft.Details[0]
		c.PostJSON(transferLinePath+"/submit", map[string]any{"id": first.ID, "version": first.Version, "qty": "4"}).OK(t, nil)
		c.PostJSON(transferLinePath+"/submit", map[string]any{"id": first.ID, "version": first.Version, "qty": "5"}).Fail(t, 400)
		c.Get(transferPath+"/detail", apptest.Q("id", draft.ID)).OK(t, &draft)
		if len(draft.Details) != 2 || draft.Details[0].ID != first.ID || draft.Details[0].BaseQty != "4.000000" || *draft.TotalQty != "6.000000" {
			t.Errorf("after editing a line: %+v", draft)
		}
		c.Post(transferLinePath+"/remove", apptest.Q("ids", added.ID)).OK(t, nil)
		msg = c.Post(transferLinePath+"/remove", apptest.Q("ids", first.ID)).Fail(t, 400)
		if msg != "不能删除单据的最后一行明细, 请删除单据" {
			t.Errorf("removing the last line: %q", msg)
		}
		c.Get(transferPath+"/detail", apptest.Q("id", draft.ID)).OK(t, &draft)
		if len(draft.Details) != 1 || *draft.TotalQty != "4.000000" {
			t.Errorf("after removing a line: %+v", draft)
		}
	})
}
