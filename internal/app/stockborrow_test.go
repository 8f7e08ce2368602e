package app_test

import (
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

const (
	borrowPath     = "/api/bluebird-basic/materialborrowrepaymain"
	borrowLinePath = "/api/bluebird-basic/materialborrowrepaydetail"
)

func init() {
	sampleOverrides["bluebird-basic/materialborrowrepaymain"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		a := newStockPlace(h.T, c)
		return map[string]any{"borrowRepayType": 1, "borrowerType": 1, "borrowerName": "张三", "expectedReturnDate": "2030-01-01 00:00:00",
			"warehouseId": a.warehouse, "details": []map[string]any{{"materialId": a.material, "qty": "1", "positionId": a.position}}}
	}
	sampleOverrides["bluebird-basic/materialborrowrepaydetail"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		a := newStockPlace(h.T, c)
		var b borrowDoc
		c.PostJSON(borrowPath+"/submit", map[string]any{"borrowRepayType": 1, "borrowerType": 1, "borrowerName": "张三", "expectedReturnDate": "2030-01-01 00:00:00",
			"warehouseId": a.warehouse, "details": []map[string]any{{"materialId": a.material, "qty": "1", "positionId": a.position}}}).OK(h.T, &b)
		return map[string]any{"mainId": b.ID, "materialId": a.material, "qty": "2", "positionId": a.position}
	}
	boundReferences["bluebird-basic/materialborrowrepaymain.warehouseId"] = "the lines' positions lie in the document's warehouse"
	boundReferences["bluebird-basic/materialborrowrepaydetail.positionId"] = "a line's position lies in its document's warehouse"
}

type borrowDoc struct {
	ID           string  `json:"id"`
	Version      int     `json:"version"`
	DocNo        string  `json:"docNo"`
	Status       int     `json:"status"`
	StockStatus  int     `json:"stockStatus"`
	BorrowStatus int     `json:"borrowStatus"`
	TotalQty     *string `json:"totalQty"`
	Details      []struct {
		ID             string  `json:"id"`
		Version        int     `json:"version"`
		BaseQty        string  `json:"baseQty"`
		BatchNo        string  `json:"batchNo"`
		UnitCost       *string `json:"unitCost"`
		RepaidQty      *string `json:"repaidQty"`
		OutstandingQty *string `json:"outstandingQty"`
	} `json:"details"`
}

// TestMaterialBorrowRepay: a borrow locks at startProcess and lends out at
// the average cost; two partial returns come back at that cost with the
// borrow's status following them; over-returns, a wrong batch and a void of
// a borrow with returns are refused; a voided return is out again.
func TestMaterialBorrowRepay(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Borrow Co")
		a := newStockPlace(t, c)
		var bm struct {
			ID string `json:"id"`
		}
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "BB1", "materialName": "批次料", "unit": "pcs", "batchManaged": 2}).OK(t, &bm)
		transferReceive(t, c, a, bm.ID, "10", "2", "B1")
		transferReceive(t, c, a, bm.ID, "10", "4", "B2")
		cost := avgCost(t, h, bm.ID)
		if cost != "3.000000" {
			t.Fatalf("average %s", cost)
		}
		msg := c.PostJSON(borrowPath+"/submit", map[string]any{"borrowRepayType": 1, "borrowerType": 1, "warehouseId": a.warehouse, "expectedReturnDate": "2030-01-01 00:00:00",
			"details": []map[string]any{{"materialId": bm.ID, "qty": "1", "positionId": a.position, "batchNo": "B1"}}}).Fail(t, 400)
		if msg != "请输入借用方名称" {
			t.Errorf("no borrower: %q", msg)
		}
		msg = c.PostJSON(borrowPath+"/submit", map[string]any{"borrowRepayType": 1, "borrowerType": 1, "borrowerName": "张三", "warehouseId": a.warehouse, "expectedReturnDate": "2030-01-01 00:00:00",
			"details": []map[string]any{{"materialId": bm.ID, "qty": "1", "positionId": a.position}}}).Fail(t, 400)
		if !strings.Contains(msg, "请输入批次号") {
			t.Errorf("a batch-managed line without batch: %q", msg)
		}
		var b borrowDoc
		c.PostJSON(borrowPath+"/saveMaterialBorrowRepayMain", map[string]any{"borrowRepayType": 1, "borrowerType": 1, "borrowerName": "张三", "warehouseId": a.warehouse,
			"expectedReturnDate": "2030-01-01 00:00:00", "details": []map[string]any{{"materialId": bm.ID, "qty": "6", "positionId": a.position, "batchNo": "B1"}}}).OK(t, &b)
		if !strings.HasPrefix(b.DocNo, "MBW") || b.BorrowStatus != 1 || b.StockStatus != 1 {
			t.Fatalf("saved borrow %+v", b)
		}
		// a return of a borrow not lent out
		repay := func(qty, batch string) map[string]any {
			return map[string]any{"borrowRepayType": 2, "borrowId": b.ID, "warehouseId": a.warehouse, "repayerName": "张三",
				"details": []map[string]any{{"borrowDetailId": b.Details[0].ID, "materialId": bm.ID, "qty": qty, "positionId": a.position, "batchNo": batch}}}
		}
		msg = c.PostJSON(borrowPath+"/submit", repay("1", "")).Fail(t, 400)
		if !strings.Contains(msg, "不在借出状态") {
			t.Errorf("return before lending: %q", msg)
		}
		c.Post(borrowPath+"/startProcess", apptest.Q("ids", b.ID)).OK(t, nil)
		if got := bucketQty(t, h, bm.ID, a.position); got != "10.000000/6.000000,10.000000/0.000000" && got != "10.000000/0.000000,10.000000/6.000000" {
			t.Errorf("locked at start: %s", got)
		}
		msg = c.Post(borrowPath+"/submitInStock", apptest.Q("ids", b.ID)).Fail(t, 400)
		if !strings.Contains(msg, "是借用单") {
			t.Errorf("a borrow returned to stock: %q", msg)
		}
		c.Post(borrowPath+"/outboundSubmitted", apptest.Q("ids", b.ID)).OK(t, nil)
		c.Get(borrowPath+"/detail", apptest.Q("id", b.ID)).OK(t, &b)
		if b.BorrowStatus != 2 || b.StockStatus != 2 || *b.Details[0].UnitCost != "3.000000" || *b.Details[0].OutstandingQty != "6.000000" {
			t.Fatalf("lent borrow %+v", b)
		}
		// refusals: more than is out, another batch
		msg = c.PostJSON(borrowPath+"/submit", repay("6.5", "")).Fail(t, 400)
		if msg != "物料 BB1 归还 6.500000, 超过未归还数量 6.000000" {
			t.Errorf("over-return: %q", msg)
		}
		msg = c.PostJSON(borrowPath+"/submit", repay("1", "B2")).Fail(t, 400)
		if msg != "第1行: 批次号必须与借出的批次「B1」相同" {
			t.Errorf("wrong batch: %q", msg)
		}
		// two partial returns
		var r1, r2 borrowDoc
		c.PostJSON(borrowPath+"/submit", repay("2", "")).OK(t, &r1)
		if !strings.HasPrefix(r1.DocNo, "MRY") || r1.Details[0].BatchNo != "B1" || *r1.Details[0].UnitCost != "3.000000" {
			t.Fatalf("saved return %+v", r1)
		}
		c.Post(borrowPath+"/startProcess", apptest.Q("ids", r1.ID)).OK(t, nil)
		msg = c.Post(borrowPath+"/outboundSubmitted", apptest.Q("ids", r1.ID)).Fail(t, 400)
		if !strings.Contains(msg, "是归还单") {
			t.Errorf("a return lent out: %q", msg)
		}
		c.Post(borrowPath+"/submitInStock", apptest.Q("ids", r1.ID)).OK(t, nil)
		c.Get(borrowPath+"/detail", apptest.Q("id", b.ID)).OK(t, &b)
		if b.BorrowStatus != 3 || *b.Details[0].RepaidQty != "2.000000" || *b.Details[0].OutstandingQty != "4.000000" {
			t.Errorf("after one return %+v", b)
		}
		// two returns of 3 each fit alone, not together: the second is refused at posting
		var big1, big2 borrowDoc
		c.PostJSON(borrowPath+"/submit", repay("3", "B1")).OK(t, &big1)
		c.PostJSON(borrowPath+"/submit", repay("3", "")).OK(t, &big2)
		c.Post(borrowPath+"/startProcess", apptest.Q("ids", big1.ID)).OK(t, nil)
		c.Post(borrowPath+"/startProcess", apptest.Q("ids", big2.ID)).OK(t, nil)
		c.Post(borrowPath+"/submitInStock", apptest.Q("ids", big1.ID)).OK(t, nil)
		msg = c.Post(borrowPath+"/submitInStock", apptest.Q("ids", big2.ID)).Fail(t, 400)
		if msg != "物料 BB1 归还 3.000000, 超过未归还数量 1.000000" {
			t.Errorf("over-return at posting: %q", msg)
		}
		c.Post(borrowPath+"/cancellation", apptest.Q("ids", big2.ID)).OK(t, nil)
		c.PostJSON(borrowPath+"/submit", repay("1", "")).OK(t, &r2)
		c.Post(borrowPath+"/startProcess", apptest.Q("ids", r2.ID)).OK(t, nil)
		c.Post(borrowPath+"/submitInStock", apptest.Q("ids", r2.ID)).OK(t, nil)
		c.Get(borrowPath+"/detail", apptest.Q("id", b.ID)).OK(t, &b)
		if b.BorrowStatus != 4 || *b.Details[0].RepaidQty != "6.000000" {
			t.Errorf("after all returns %+v", b)
		}
		if got := avgCost(t, h, bm.ID); got != cost {
			t.Errorf("returns at the borrowed cost moved the average: %s", got)
		}
		// the borrow cannot be voided while it has returns
		msg = c.Post(borrowPath+"/cancellation", apptest.Q("ids", b.ID)).Fail(t, 400)
		if !strings.HasPrefix(msg, "借用单 "+b.DocNo+" 已有归还单") {
			t.Errorf("void of a borrow with returns: %q", msg)
		}
		// a voided return is out again
		c.Post(borrowPath+"/cancellation", apptest.Q("ids", r2.ID)).OK(t, nil)
		c.Get(borrowPath+"/detail", apptest.Q("id", b.ID)).OK(t, &b)
		if b.BorrowStatus != 3 || *b.Details[0].RepaidQty != "5.000000" {
			t.Errorf("after voiding a return %+v", b)
		}
		// closing writes the rest off
		c.Post(borrowPath+"/closeBorrow", apptest.Q("ids", b.ID)).Fail(t, 400)
		c.Post(borrowPath+"/closeBorrow", apptest.Q("ids", b.ID, "reason", "丢失")).OK(t, nil)
		c.Get(borrowPath+"/detail", apptest.Q("id", b.ID)).OK(t, &b)
		if b.BorrowStatus != 5 {
			t.Errorf("closed borrow %+v", b)
		}
		msg = c.PostJSON(borrowPath+"/submit", repay("1", "")).Fail(t, 400)
		if !strings.Contains(msg, "不在借出状态") {
			t.Errorf("return of a closed borrow: %q", msg)
		}
		// state refusals: a lent borrow is not edited, its lines neither
		msg = c.Edit(borrowPath+"/submit", map[string]any{"id": b.ID, "purpose": "x"}).Fail(t, 400)
		if !strings.Contains(msg, "已审批") {
			t.Errorf("editing a lent borrow: %q", msg)
		}
		msg = c.PostJSON(borrowLinePath+"/submit", map[string]any{"id": b.Details[0].ID, "version": b.Details[0].Version, "qty": "1"}).Fail(t, 400)
		if !strings.Contains(msg, "已审批") {
			t.Errorf("editing a lent borrow's line: %q", msg)
		}
		// a posted borrow without returns can be voided: its stock comes back
		var b2 borrowDoc
		c.PostJSON(borrowPath+"/submit", map[string]any{"borrowRepayType": 1, "borrowerType": 3, "borrowerName": "客户", "warehouseId": a.warehouse,
			"expectedReturnDate": "2030-01-01 00:00:00", "details": []map[string]any{{"materialId": bm.ID, "qty": "1", "positionId": a.position, "batchNo": "B2"}}}).OK(t, &b2)
		c.Post(borrowPath+"/startProcess", apptest.Q("ids", b2.ID)).OK(t, nil)
		c.Post(borrowPath+"/outboundSubmitted", apptest.Q("ids", b2.ID)).OK(t, nil)
		c.Post(borrowPath+"/cancellation", apptest.Q("ids", b2.ID)).OK(t, nil)
		if got := bucketQty(t, h, bm.ID, a.position); got != "9.000000/0.000000,10.000000/0.000000" && got != "10.000000/0.000000,9.000000/0.000000" {
			t.Errorf("stock after everything: %s", got)
		}
		// another tenant sees and touches none of it
		_, other := h.NewTenant("Other Borrow Co")
		other.Get(borrowPath+"/detail", apptest.Q("id", b.ID)).Fail(t, 404)
		other.Post(borrowPath+"/closeBorrow", apptest.Q("ids", b.ID, "reason", "x")).Fail(t, 404)
		other.Get(borrowLinePath+"/detail", apptest.Q("id", b.Details[0].ID)).Fail(t, 404)
		other.PostJSON(borrowLinePath+"/submit", map[string]any{"id": b.Details[0].ID, "version": 1, "qty": "1"}).Fail(t, 404)
		msg = other.PostJSON(borrowPath+"/submit", map[string]any{"borrowRepayType": 2, "borrowId": b.ID, "warehouseId": a.warehouse,
			"details": []map[string]any{{"borrowDetailId": b.Details[0].ID, "materialId": bm.ID, "qty": "1", "positionId": a.position}}}).Fail(t, 400)
		if msg == "" {
			t.Error("another tenant returned to our borrow")
		}
		var lines page[struct{ ID string }]
		other.Get(borrowLinePath+"/selectMaterialBorrowRepayDetailVOListPage", nil).OK(t, &lines)
		if lines.Total != 0 {
			t.Errorf("another tenant lists %d lines", lines.Total)
		}
	})
}
