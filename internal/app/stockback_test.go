package app_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/stock"
	"github.com/bluebird/console/internal/stockdoc"
)

const (
	backPath     = "/api/bluebird-basic/materialbackstock"
	backLinePath = "/api/bluebird-basic/materialbackstockdetail"
)

func init() {
	sampleOverrides["bluebird-basic/materialbackstock"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		pl, planID, line := issuedPicking(h.T, c, "10")
		return map[string]any{"backType": 1, "producePlanId": planID, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"sourceOutDetailId": line, "materialId": pl.material, "qty": "1", "positionId": pl.position}}}
	}
	// a line saved on its own goes into a draft return of the caller
	sampleOverrides["bluebird-basic/materialbackstockdetail"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		pl, planID, line := issuedPicking(h.T, c, "10")
		var b backStock
		c.PostJSON(backPath+"/submit", map[string]any{"backType": 1, "producePlanId": planID, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"sourceOutDetailId": line, "materialId": pl.material, "qty": "1", "positionId": pl.position}}}).OK(h.T, &b)
		return map[string]any{"mainId": b.ID, "sourceOutDetailId": line, "materialId": pl.material, "qty": "2", "positionId": pl.position}
	}
	boundReferences["bluebird-basic/materialoutrecordmain.producePlanId"] = "a picking's plan is approved and requires the lines' materials"
	boundReferences["bluebird-basic/materialbackstock.producePlanId"] = "a production return's lines are picking lines of its plan"
	boundReferences["bluebird-basic/materialbackstock.warehouseId"] = "the lines' locations lie in the return's warehouse"
	for _, f := range []string{"sourceOutDetailId", "materialId", "positionId"} {
		boundReferences["bluebird-basic/materialbackstockdetail."+f] = "a returned line is a posted picking line of its return's plan, its material, in the return's warehouse"
	}
}

// pickingPlan is an approved plan of the caller's tenant requiring qty of
// each material (for the whole plan).
func pickingPlan(t testing.TB, c *apptest.Client, qty string, materials ...string) string {
	t.Helper()
	var mats []map[string]any
	for _, m := range materials {
		mats = append(mats, map[string]any{"materialId": m, "requiredQty": qty})
	}
	var p plan
	c.PostJSON(planPath+"/submit", map[string]any{"workShopId": newWorkshop(t, c), "projectName": "领料项目", "deliveryTime": "2026-12-01 08:00:00",
		"details": []map[string]any{{"productCode": "P1", "productName": "开关柜", "count": "1"}}, "materials": mats}).OK(t, &p)
	c.Post(planPath+"/startProcess", apptest.Q("ids", p.ID)).OK(t, nil)
	return p.ID
}

// issuedPicking puts qty of a new material into stock at 2 and issues all
// of it to a new plan; it answers the place, the plan and the issue line.
func issuedPicking(t testing.TB, c *apptest.Client, qty string) (stockPlace, string, string) {
	t.Helper()
	pl := newStockPlace(t, c)
	var in receipt
	c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier,
		"details": []map[string]any{{"materialId": pl.material, "qty": qty, "positionId": pl.position, "unitPrice": "2"}}}).OK(t, &in)
	c.Post(inPath+"/startProcess", apptest.Q("ids", in.ID)).OK(t, nil)
	c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", in.ID)).OK(t, nil)
	planID := pickingPlan(t, c, qty, pl.material)
	var out issue
	c.PostJSON(outPath+"/submit", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse,
		"details": []map[string]any{{"materialId": pl.material, "qty": qty, "positionId": pl.position}}}).OK(t, &out)
	c.Post(outPath+"/startProcess", apptest.Q("ids", out.ID)).OK(t, nil)
	c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", out.ID)).OK(t, nil)
	return pl, planID, out.Details[0].ID
}

type backStock struct {
	ID            string `json:"id"`
	Version       int    `json:"version"`
	DocNo         string `json:"docNo"`
	Status        int    `json:"status"`
	StockStatus   int    `json:"stockStatus"`
	BackStatus    int    `json:"backStatus"`
	InRecordID    string `json:"inRecordId"`
	TotalQty      string `json:"totalQty"`
	ProducePlanID string `json:"producePlanId"`
	DocDate       string `json:"docDate"`
	Details       []backLine
}

type backLine struct {
	ID                string  `json:"id"`
	MaterialID        string  `json:"materialId"`
	BatchNo           string  `json:"batchNo"`
	BaseQty           string  `json:"baseQty"`
	UnitCost          *string `json:"unitCost"`
	SourceOutRecordID string  `json:"sourceOutRecordId"`
	SourceOutDetailID string  `json:"sourceOutDetailId"`
	ProducePlanID     string  `json:"producePlanId"`
	ReturnableQty     *string `json:"returnableQty"`
	SourceDocNo       string  `json:"sourceDocNo"`
}

type returnable struct {
	SourceOutDetailID string `json:"sourceOutDetailId"`
	SourceOutRecordID string `json:"sourceOutRecordId"`
	DocNo             string `json:"docNo"`
	SourceDocNo       string `json:"sourceDocNo"`
	BaseUnit          string `json:"baseUnit"`
	MaterialID        string `json:"materialId"`
	UnitCost          string `json:"unitCost"`
	ReturnableQty     string `json:"returnableQty"`
}

// planMaterialQty is the plan's picked and returned quantity of a material, "picked/returned".
func planMaterialQty(t *testing.T, c *apptest.Client, planID, material string) string {
	t.Helper()
	var mats page[planMaterial]
	c.Get(basic+"produceplanmaterial/list", apptest.Q("planId", planID, "materialId", material)).OK(t, &mats)
	if len(mats.Records) != 1 {
		t.Fatalf("plan %s has %d rows of material %s", planID, len(mats.Records), material)
	}
	return mats.Records[0].PickedQty + "/" + mats.Records[0].ReturnedQty
}

func issueLineOf(t *testing.T, c *apptest.Client, issueID string) issueLine {
	t.Helper()
	var d issue
	c.Get(outPath+"/detail", apptest.Q("id", issueID)).OK(t, &d)
	return d.Details[0]
}

// TestProductionPicking: a production picking names an approved, open plan
// requiring its materials; what is locked or issued per plan material stays
// within the requirement and the tenant's over-picking allowance; posting
// adds to the plan's picked quantity and a void takes it off again.
func TestProductionPicking(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenant, c := h.NewTenant("Picking Co")
		pl := newStockPlace(t, c)
		receive(t, c, pl, "20", "2")
		planID := pickingPlan(t, c, "8", pl.material)
		picking := func(plan string, material, qty string) map[string]any {
			return map[string]any{"outType": 1, "producePlanId": plan, "warehouseId": pl.warehouse,
				"details": []map[string]any{{"materialId": material, "qty": qty, "positionId": pl.position}}}
		}

		// refusals at save: no plan, a plan not approved, a closed one, a material it does not need, another tenant's plan
		if msg := c.PostJSON(outPath+"/submit", picking("", pl.material, "1")).Fail(t, 400); msg != "生产领料请选择生产计划" {
			t.Errorf("a picking without plan: %q", msg)
		}
		var draft plan
		c.PostJSON(planPath+"/submit", samplePlan(t, c)).OK(t, &draft)
		if msg := c.PostJSON(outPath+"/submit", picking(draft.ID, pl.material, "1")).Fail(t, 400); msg != "生产计划 "+draft.ProducePlanCode+" 尚未审批通过, 不能领料或入库" {
			t.Errorf("a picking for a draft plan: %q", msg)
		}
		closed := pickingPlan(t, c, "5", pl.material)
		c.Post(planPath+"/closePlan", apptest.Q("ids", closed, "closeReason", "取消")).OK(t, nil)
		if msg := c.PostJSON(outPath+"/submit", picking(closed, pl.material, "1")).Fail(t, 400); !strings.Contains(msg, "已关闭, 不能再领料") {
			t.Errorf("a picking for a closed plan: %q", msg)
		}
		other := newStockPlace(t, c)
		if msg := c.PostJSON(outPath+"/submit", picking(planID, other.material, "1")).Fail(t, 400); !strings.Contains(msg, "不在生产计划") {
			t.Errorf("a material the plan does not need: %q", msg)
		}
		_, x := h.NewTenant("Other Picking Co")
		xPlace := newStockPlace(t, x)
		theirs := pickingPlan(t, x, "5", xPlace.material)
		r := c.PostJSON(outPath+"/submit", picking(theirs, pl.material, "1"))
		r.Fail(t, 400)
		if !strings.Contains(string(r.Env.Data), "producePlanId") {
			t.Errorf("another tenant's plan: the refusal does not name producePlanId: %s", r.Body)
		}
		// an other issue keeps no plan
		var o issue
		body := picking(planID, pl.material, "1")
		body["outType"], body["otherReason"] = 3, 1
		c.PostJSON(outPath+"/submit", body).OK(t, &o)
		var oRow struct {
			ProducePlanID string `json:"producePlanId"`
		}
		c.Get(outPath+"/detail", apptest.Q("id", o.ID)).OK(t, &oRow)
		if oRow.ProducePlanID != "0" && oRow.ProducePlanID != "" {
			t.Errorf("an other issue kept the plan %q", oRow.ProducePlanID)
		}

		// A: 6 of the 8 required, tied to the plan material with its requirement
		var a issue
		c.PostJSON(outPath+"/submit", picking(planID, pl.material, "6")).OK(t, &a)
		var aLines struct {
			Details []struct {
				ProducePlanMaterialID string `json:"producePlanMaterialId"`
				RequiredQty           string `json:"requiredQty"`
			} `json:"details"`
		}
		c.Get(outPath+"/detail", apptest.Q("id", a.ID)).OK(t, &aLines)
		var mats page[planMaterial]
		c.Get(basic+"produceplanmaterial/list", apptest.Q("planId", planID)).OK(t, &mats)
		if len(aLines.Details) != 1 || aLines.Details[0].ProducePlanMaterialID != mats.Records[0].ID || aLines.Details[0].RequiredQty != "8.000000" {
			t.Errorf("picking line %+v, plan material %+v", aLines.Details, mats.Records)
		}
		c.Post(outPath+"/startProcess", apptest.Q("ids", a.ID)).OK(t, nil)
		// B: 3 more make 9 > 8
		var b issue
		c.PostJSON(outPath+"/submit", picking(planID, pl.material, "3")).OK(t, &b)
		code := a.Details[0].MaterialCode
		msg := c.Post(outPath+"/startProcess", apptest.Q("ids", b.ID)).Fail(t, 400)
		if msg != "物料 "+code+" 的领料数量 9.000000 超过生产计划的可领数量 8.000000 (需求 8.000000, 超领比例 0)" {
			t.Errorf("over-picking: %q", msg)
		}
		if got := balance(t, h, pl.material); got != "20.000000/6.000000" {
			t.Errorf("the refused picking locked something: %s", got)
		}
		// a 25 % allowance lets 10 be picked
		ctx := context.Background()
		if err := stock.SetTenantSetting(ctx, h.App.DB, tenant, stockdoc.SettingOverPickPct, "0.25"); err != nil {
			t.Fatal(err)
		}
		c.Post(outPath+"/startProcess", apptest.Q("ids", b.ID)).OK(t, nil)
		var c2 issue
		c.PostJSON(outPath+"/submit", picking(planID, pl.material, "1.5")).OK(t, &c2)
		if msg := c.Post(outPath+"/startProcess", apptest.Q("ids", c2.ID)).Fail(t, 400); !strings.Contains(msg, "10.500000 超过生产计划的可领数量 10.000000") {
			t.Errorf("over the allowance: %q", msg)
		}
		// a voided picking no longer counts
		c.Post(outPath+"/cancellation", apptest.Q("ids", b.ID)).OK(t, nil)
		c.Post(outPath+"/startProcess", apptest.Q("ids", c2.ID)).OK(t, nil)

		// posting adds to the plan's picked quantity, a void after posting takes it off
		if got := planMaterialQty(t, c, planID, pl.material); got != "0.000000/0.000000" {
			t.Errorf("picked before posting: %s", got)
		}
		c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", a.ID)).OK(t, nil)
		c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", c2.ID)).OK(t, nil)
		var p plan
		c.Get(planPath+"/detail", apptest.Q("id", planID)).OK(t, &p)
		if got := planMaterialQty(t, c, planID, pl.material); got != "7.500000/0.000000" || p.ProducePlanStatus != 2 {
			t.Errorf("after posting 6 + 1.5: %s, plan status %d", got, p.ProducePlanStatus)
		}
		var ledger []struct {
			ProducePlanID string `bun:"produce_plan_id"`
		}
		if err := h.App.DB.NewSelect().Table("bb_stock_ledger").Column("produce_plan_id").Where("biz_no = ?", a.DocNo).Scan(ctx, &ledger); err != nil {
			t.Fatal(err)
		}
		if len(ledger) != 1 || ledger[0].ProducePlanID != planID {
			t.Errorf("the picking's ledger rows name the plan: %+v", ledger)
		}
		c.Post(outPath+"/cancellation", apptest.Q("ids", c2.ID)).OK(t, nil)
		if got := planMaterialQty(t, c, planID, pl.material); got != "6.000000/0.000000" {
			t.Errorf("after voiding the posted 1.5: %s", got)
		}
		// a closed plan takes no more picking at startProcess either
		var d issue
		c.PostJSON(outPath+"/submit", picking(planID, pl.material, "1")).OK(t, &d)
		c.Post(planPath+"/closePlan", apptest.Q("ids", planID, "closeReason", "结束")).OK(t, nil)
		if msg := c.Post(outPath+"/startProcess", apptest.Q("ids", d.ID)).Fail(t, 400); !strings.Contains(msg, "已关闭") {
			t.Errorf("startProcess for a closed plan: %q", msg)
		}
	})
}

// TestMaterialBackStock: the whole flow plan → picking → return → receipt,
// with exact quantities, costs and states, the refusals of over-returns and
// of voids while downstream documents live, exact reversal, and tenant
// isolation.
func TestMaterialBackStock(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		ctx := context.Background()
		_, c := h.NewTenant("Return Co")
		pl := newStockPlace(t, c)
		// 3 at 2 and 6 at 2.5: an average of 2.333333, finer than a price's 4 places
		receive(t, c, pl, "3", "2")
		receive(t, c, pl, "6", "2.5")
		planID := pickingPlan(t, c, "8", pl.material)
		var a issue
		c.PostJSON(outPath+"/submit", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "6", "positionId": pl.position}}}).OK(t, &a)
		c.Post(outPath+"/startProcess", apptest.Q("ids", a.ID)).OK(t, nil)
		// nothing issued yet: nothing to return
		var rows []returnable
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("producePlanId", planID)).OK(t, &rows)
		if len(rows) != 0 {
			t.Errorf("returnable before posting: %+v", rows)
		}
		c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", a.ID)).OK(t, nil)
		aLine := issueLineOf(t, c, a.ID)
		// the average moves with 10 more at 4: a return still comes back at the issue's 2.333333
		receive(t, c, pl, "10", "4")
		if got := balance(t, h, pl.material); got != "13.000000/0.000000" {
			t.Fatalf("stock before the return: %s", got)
		}

		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("producePlanId", planID)).OK(t, &rows)
		if len(rows) != 1 || rows[0].SourceOutDetailID != aLine.ID || rows[0].SourceOutRecordID != a.ID || rows[0].DocNo != a.DocNo ||
			rows[0].SourceDocNo != a.DocNo || rows[0].BaseUnit == "" || rows[0].ReturnableQty != "6.000000" || rows[0].UnitCost != "2.333333" || rows[0].MaterialID != pl.material {
			t.Fatalf("returnable lines %+v", rows)
		}
		// another return lists the lines of every issue but a purchase return, with or without a plan; a
		// production return needs its plan, and there is no third type
		var other issue
		c.PostJSON(outPath+"/submit", map[string]any{"outType": 3, "otherReason": 1, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}).OK(t, &other)
		c.Post(outPath+"/startProcess", apptest.Q("ids", other.ID)).OK(t, nil)
		c.Post(outPath+"/outboundSubmitted", apptest.Q("ids", other.ID)).OK(t, nil)
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("backType", "2")).OK(t, &rows)
		if len(rows) != 2 || rows[0].SourceOutRecordID != other.ID || rows[1].SourceOutRecordID != a.ID {
			t.Errorf("another return's returnable lines, newest issue first: %+v", rows)
		}
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("backType", "2", "keyword", other.DocNo)).OK(t, &rows)
		if len(rows) != 1 || rows[0].SourceOutRecordID != other.ID {
			t.Errorf("another return's returnable lines by the issue's number: %+v", rows)
		}
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("backType", "1")).Fail(t, 400)
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("backType", "3", "producePlanId", planID)).Fail(t, 400)
		c.Post(outPath+"/cancellation", apptest.Q("ids", other.ID)).OK(t, nil)
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("backType", "2")).OK(t, &rows)
		if len(rows) != 1 || rows[0].SourceOutRecordID != a.ID {
			t.Errorf("a voided issue gives nothing back: %+v", rows)
		}
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("producePlanId", planID, "keyword", "no-such-thing")).OK(t, &rows)
		if len(rows) != 0 {
			t.Errorf("keyword matching nothing: %+v", rows)
		}
		line := func(qty string) map[string]any {
			return map[string]any{"sourceOutDetailId": aLine.ID, "materialId": pl.material, "qty": qty, "positionId": pl.position}
		}
		back := func(lines ...map[string]any) map[string]any {
			return map[string]any{"backType": 1, "producePlanId": planID, "warehouseId": pl.warehouse, "details": lines}
		}

		// X returns 4: material, batch and cost come from the issue line, whatever the body says
		withCost := line("4")
		withCost["unitCost"], withCost["producePlanId"], withCost["sourceOutRecordId"] = "99", "1", "1"
		xBody := back(withCost)
		xBody["backStatus"], xBody["inRecordId"], xBody["stockStatus"] = 2, "5", 2
		var x backStock
		c.PostJSON(backPath+"/submitDetail", xBody).OK(t, &x)
		// sent without a date, the return is dated the day it is made
		if !strings.HasPrefix(x.DocDate, time.Now().Format("2006-01-02")) {
			t.Errorf("a return made without a date is dated %q", x.DocDate)
		}
		if !strings.HasPrefix(x.DocNo, "MBK") || x.Status != 1 || x.BackStatus != 1 || x.StockStatus != 1 || x.InRecordID != "0" || x.TotalQty != "4.000000" || len(x.Details) != 1 {
			t.Fatalf("saved return %+v", x)
		}
		if d := x.Details[0]; d.UnitCost == nil || *d.UnitCost != "2.333333" || d.SourceOutRecordID != a.ID || d.ProducePlanID != planID || d.BaseQty != "4.000000" {
			t.Errorf("saved return line %+v", d)
		}
		// Y competes for what is left: 3 of 2 is refused, 2 fit
		if msg := c.PostJSON(backPath+"/submit", back(line("3"))).Fail(t, 400); msg != "物料 "+aLine.MaterialCode+" 退库 3.000000, 超过可退数量 2.000000" {
			t.Errorf("an over-return: %q", msg)
		}
		if msg := c.PostJSON(backPath+"/submit", back(line("1.5"), line("1"))).Fail(t, 400); !strings.Contains(msg, "退库 2.500000, 超过可退数量 2.000000") {
			t.Errorf("two lines of one return over the issue line: %q", msg)
		}
		var y backStock
		c.PostJSON(backPath+"/submit", back(line("2"))).OK(t, &y)
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("producePlanId", planID)).OK(t, &rows)
		if len(rows) != 0 {
			t.Errorf("returnable once X and Y hold all 6: %+v", rows)
		}
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("producePlanId", planID, "mainId", x.ID)).OK(t, &rows)
		if len(rows) != 1 || rows[0].ReturnableQty != "4.000000" {
			t.Errorf("returnable for editing X: %+v", rows)
		}
		if msg := c.Edit(backPath+"/submit", map[string]any{"id": x.ID, "details": []map[string]any{line("5")}}).Fail(t, 400); !strings.Contains(msg, "超过可退数量 4.000000") {
			t.Errorf("X edited over what Y leaves: %q", msg)
		}
		var byMain []backLine
		c.Get(backLinePath+"/selectMaterialBackStockByMainId", apptest.Q("mainId", y.ID)).OK(t, &byMain)
		if len(byMain) != 1 || byMain[0].ReturnableQty == nil || *byMain[0].ReturnableQty != "2.000000" || byMain[0].SourceDocNo != a.DocNo {
			t.Errorf("Y's lines %+v", byMain)
		}
		// wrong material, batch, place, source
		bad := line("1")
		bad["materialId"] = newStockPlace(t, c).material
		if msg := c.PostJSON(backPath+"/submit", back(bad)).Fail(t, 400); msg != "第1行: 物料与出库的不一致" {
			t.Errorf("another material: %q", msg)
		}
		bad = line("1")
		bad["batchNo"] = "B-OTHER"
		if msg := c.PostJSON(backPath+"/submit", back(bad)).Fail(t, 400); !strings.Contains(msg, "批次号必须与出库的批次") {
			t.Errorf("another batch: %q", msg)
		}
		bad = line("1")
		bad["positionId"] = newStockPlace(t, c).position
		if msg := c.PostJSON(backPath+"/submit", back(bad)).Fail(t, 400); !strings.Contains(msg, "库位不属于") {
			t.Errorf("a position of another warehouse: %q", msg)
		}
		otherPlan := pickingPlan(t, c, "1", pl.material)
		wrongPlan := back(line("1"))
		wrongPlan["producePlanId"] = otherPlan
		if msg := c.PostJSON(backPath+"/submit", wrongPlan).Fail(t, 400); msg != "第1行: 不是该生产计划的领料明细" {
			t.Errorf("a line of another plan: %q", msg)
		}
		noPlan := back(line("1"))
		delete(noPlan, "producePlanId")
		if msg := c.PostJSON(backPath+"/submit", noPlan).Fail(t, 400); msg != "生产退料请选择生产计划" {
			t.Errorf("a production return without plan: %q", msg)
		}
		// an issue not yet posted gives nothing back
		var unposted issue
		c.PostJSON(outPath+"/submit", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}).OK(t, &unposted)
		notIssued := line("1")
		notIssued["sourceOutDetailId"] = unposted.Details[0].ID
		if msg := c.PostJSON(backPath+"/submit", back(notIssued)).Fail(t, 400); !strings.Contains(msg, "未出库或已作废") {
			t.Errorf("a line of an issue not posted: %q", msg)
		}

		// approved, X makes its receipt once; Y, a draft, makes none
		if msg := c.Post(backPath+"/saveMaterialInRecord", apptest.Q("id", y.ID)).Fail(t, 400); !strings.Contains(msg, "待提交") {
			t.Errorf("a receipt of a draft return: %q", msg)
		}
		c.Post(backPath+"/startProcess", apptest.Q("ids", x.ID)).OK(t, nil)
		var made []struct {
			InRecordID string `json:"inRecordId"`
			InRecordNo string `json:"inRecordNo"`
		}
		c.Post(backPath+"/saveMaterialInRecord", apptest.Q("id", x.ID)).OK(t, &made)
		if len(made) != 1 || !strings.HasPrefix(made[0].InRecordNo, "MIN") {
			t.Fatalf("made receipt %+v", made)
		}
		if msg := c.Post(backPath+"/saveMaterialInRecord", apptest.Q("ids", x.ID)).Fail(t, 400); msg != "退库单 "+x.DocNo+" 已生成入库单 "+made[0].InRecordNo {
			t.Errorf("a second receipt: %q", msg)
		}
		var in struct {
			receipt
			InType      int    `json:"inType"`
			BackStockID string `json:"backStockId"`
			Details     []struct {
				BackStockDetailID string  `json:"backStockDetailId"`
				BaseQty           string  `json:"baseQty"`
				PositionID        string  `json:"positionId"`
				UnitPrice         *string `json:"unitPrice"`
			} `json:"details"`
		}
		c.Get(inPath+"/detail", apptest.Q("id", made[0].InRecordID)).OK(t, &in)
		if in.InType != 2 || in.Status != 3 || in.StockStatus != 1 || in.BackStockID != x.ID || len(in.Details) != 1 ||
			in.Details[0].BackStockDetailID != x.Details[0].ID || in.Details[0].BaseQty != "4.000000" || in.Details[0].PositionID != pl.position {
			t.Fatalf("the return's receipt %+v", in)
		}
		// downstream documents live: no void of the return, nor of the issue
		if msg := c.Post(backPath+"/cancellation", apptest.Q("ids", x.ID)).Fail(t, 400); msg != "退库单 "+x.DocNo+" 的入库单 "+made[0].InRecordNo+" 未作废, 不能作废" {
			t.Errorf("voiding a return with its receipt: %q", msg)
		}
		if msg := c.Post(outPath+"/cancellation", apptest.Q("ids", a.ID)).Fail(t, 400); msg != "出库单 "+a.DocNo+" 的物料已退库, 不能作废" {
			t.Errorf("voiding an issue with returns: %q", msg)
		}
		// nobody types a BACK_STOCK receipt
		if msg := c.PostJSON(inPath+"/submit", map[string]any{"inType": 2, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "qty": "1", "positionId": pl.position}}}).Fail(t, 400); msg != "退库入库单只能由退库单生成" {
			t.Errorf("a hand-made back-stock receipt: %q", msg)
		}

		// under lock at posting: what is left of the issue line is checked again
		if _, err := h.App.DB.NewUpdate().Table("bb_material_out_detail").Set("returned_qty = ?", "3.000000").Where("id = ?", aLine.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if msg := c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", made[0].InRecordID)).Fail(t, 400); msg != "物料 "+aLine.MaterialCode+" 退库 4.000000, 超过可退数量 3.000000" {
			t.Errorf("posting over what is left: %q", msg)
		}
		if _, err := h.App.DB.NewUpdate().Table("bb_material_out_detail").Set("returned_qty = NULL").Where("id = ?", aLine.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}

		// posting the receipt: 4 in at 2.333333, the issue line and the plan returned, the return stored
		c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", made[0].InRecordID)).OK(t, nil)
		if got := balance(t, h, pl.material); got != "17.000000/0.000000" {
			t.Errorf("stock after the return: %s", got)
		}
		var ledger []struct {
			TxType   int    `bun:"tx_type"`
			Qty      string `bun:"qty"`
			UnitCost string `bun:"unit_cost"`
			PlanID   string `bun:"produce_plan_id"`
		}
		if err := h.App.DB.NewSelect().Table("bb_stock_ledger").Column("tx_type", "qty", "unit_cost", "produce_plan_id").
			Where("biz_no = ?", made[0].InRecordNo).Scan(ctx, &ledger); err != nil {
			t.Fatal(err)
		}
		if len(ledger) != 1 || ledger[0].TxType != int(stock.MaterialInBackStock) || ledger[0].Qty != "4.000000" || ledger[0].UnitCost != "2.333333" || ledger[0].PlanID != planID {
			t.Errorf("ledger of the return's receipt %+v", ledger)
		}
		if l := issueLineOf(t, c, a.ID); l.ReturnedQty == nil || *l.ReturnedQty != "4.000000" {
			t.Errorf("issue line after the return %+v", l)
		}
		if got := planMaterialQty(t, c, planID, pl.material); got != "6.000000/4.000000" {
			t.Errorf("plan after the return: %s", got)
		}
		c.Get(backPath+"/detail", apptest.Q("id", x.ID)).OK(t, &x)
		if x.BackStatus != 2 || x.StockStatus != 2 || x.InRecordID != made[0].InRecordID {
			t.Errorf("stored return %+v", x)
		}
		var list page[backStock]
		c.Get(backPath+"/selectMaterialBackStockOfPage", apptest.Q("backStatus", "2")).OK(t, &list)
		if list.Total != 1 || list.Records[0].ID != x.ID {
			t.Errorf("stored returns %+v", list)
		}
		// Y still holds 2 of the 2 left; voided, they are returnable again
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("producePlanId", planID)).OK(t, &rows)
		if len(rows) != 0 {
			t.Errorf("returnable with Y pending: %+v", rows)
		}
		c.Post(backPath+"/cancellation", apptest.Q("ids", y.ID)).OK(t, nil)
		c.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("producePlanId", planID)).OK(t, &rows)
		if len(rows) != 1 || rows[0].ReturnableQty != "2.000000" {
			t.Errorf("returnable after voiding Y: %+v", rows)
		}

		// another tenant: neither the plan, the issue line, the return nor its receipt
		_, o := h.NewTenant("Other Return Co")
		oPlace := newStockPlace(t, o)
		o.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("producePlanId", planID)).Fail(t, 400)
		r := o.PostJSON(backPath+"/submit", map[string]any{"backType": 2, "warehouseId": oPlace.warehouse,
			"details": []map[string]any{{"sourceOutDetailId": aLine.ID, "materialId": oPlace.material, "qty": "1", "positionId": oPlace.position}}})
		r.Fail(t, 400)
		if !strings.Contains(string(r.Env.Data), "sourceOutDetailId") {
			t.Errorf("another tenant's issue line: the refusal does not name it: %s", r.Body)
		}
		o.Get(backPath+"/detail", apptest.Q("id", x.ID)).Fail(t, 404)
		o.Post(backPath+"/saveMaterialInRecord", apptest.Q("id", x.ID)).Fail(t, 404)
		o.Post(backPath+"/cancellation", apptest.Q("ids", x.ID)).Fail(t, 404)
		o.Get(backLinePath+"/detail", apptest.Q("id", x.Details[0].ID)).Fail(t, 404)
		o.Get(backLinePath+"/selectMaterialBackStockByMainId", apptest.Q("mainId", x.ID)).OK(t, &byMain)
		if len(byMain) != 0 {
			t.Errorf("another tenant reads the return's lines: %+v", byMain)
		}
		var none page[backStock]
		o.Get(backPath+"/selectMaterialBackStockOfPage", nil).OK(t, &none)
		if none.Total != 0 {
			t.Errorf("another tenant lists %d returns", none.Total)
		}

		// voiding the receipt reverses all of it exactly; then the return and the issue may go
		c.Post(inPath+"/cancellation", apptest.Q("ids", made[0].InRecordID)).OK(t, nil)
		if got := balance(t, h, pl.material); got != "13.000000/0.000000" {
			t.Errorf("stock after voiding the receipt: %s", got)
		}
		var qtys []string
		if err := h.App.DB.NewSelect().Table("bb_stock_ledger").Column("qty").Where("biz_no = ?", made[0].InRecordNo).OrderExpr("id").Scan(ctx, &qtys); err != nil {
			t.Fatal(err)
		}
		if strings.Join(qtys, ",") != "4.000000,-4.000000" {
			t.Errorf("ledger of the voided receipt %v", qtys)
		}
		if l := issueLineOf(t, c, a.ID); l.ReturnedQty == nil || *l.ReturnedQty != "0.000000" {
			t.Errorf("issue line after the void %+v", l)
		}
		if got := planMaterialQty(t, c, planID, pl.material); got != "6.000000/0.000000" {
			t.Errorf("plan after the void: %s", got)
		}
		c.Get(backPath+"/detail", apptest.Q("id", x.ID)).OK(t, &x)
		if x.BackStatus != 1 || x.StockStatus != 1 {
			t.Errorf("return after its receipt's void %+v", x)
		}
		if msg := c.Post(outPath+"/cancellation", apptest.Q("ids", a.ID)).Fail(t, 400); !strings.Contains(msg, "已退库, 不能作废") {
			t.Errorf("voiding the issue while X lives: %q", msg)
		}
		c.Post(backPath+"/cancellation", apptest.Q("ids", x.ID)).OK(t, nil)
		c.Post(outPath+"/cancellation", apptest.Q("ids", a.ID)).OK(t, nil)
		if got := balance(t, h, pl.material); got != "19.000000/0.000000" {
			t.Errorf("stock after voiding the issue: %s", got)
		}
		if got := planMaterialQty(t, c, planID, pl.material); got != "0.000000/0.000000" {
			t.Errorf("plan after voiding the issue: %s", got)
		}
	})
}

// TestBackStockEndpoints: every back-stock endpoint of endpoints.txt is
// routed and answers an empty or malformed request with a 4xx, and the
// return's screen metadata lists its commands with the menu's buttons.
func TestBackStockEndpoints(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		eps := endpointsOf(t, "/materialbackstock")
		if len(eps) != 15 {
			t.Fatalf("%d back-stock endpoints in endpoints.txt, want 15", len(eps))
		}
		checkEndpointsRefuse(t, admin, eps, map[string]bool{"list": true, "selectMaterialBackStockOfPage": true}, "&mainId=%27&producePlanId=zz")
		// malformed bodies of the saves
		for _, p := range []string{backPath + "/submit", backPath + "/submitDetail", backLinePath + "/submit"} {
			admin.PostJSON(p, map[string]any{}).Fail(t, 400)
			admin.PostJSON(p, map[string]any{"details": "x", "qty": "abc"}).Fail(t, 400)
		}
		admin.Post(backPath+"/saveMaterialInRecord", apptest.Q("id", "1,2")).Fail(t, 400)
		admin.Get(backLinePath+"/selectMaterialFromProducePlan", apptest.Q("producePlanId", "123")).Fail(t, 400)
		var meta struct {
			Commands []struct{ Name, Permission string } `json:"commands"`
		}
		admin.Get("/api/meta/resource", apptest.Q("name", "bluebird-basic/materialbackstock")).OK(t, &meta)
		var commands []string
		for _, c := range meta.Commands {
			commands = append(commands, c.Name+"="+c.Permission)
		}
		if strings.Join(commands, " ") != "startProcess=back_stock_start_process cancellation=back_stock_cancellation saveMaterialInRecord=back_stock_in_stock" {
			t.Errorf("return commands %v", commands)
		}
	})
}

// TestPickingRaceForOnePlanMaterial: two pickings of one plan material
// submitted at once, each within what the plan allows but not together
// (4 + 4 of 6 required): exactly one is locked, and the other is refused
// with the plan's limit, whichever comes second. On PostgreSQL the
// requirement rows are locked FOR UPDATE; on SQLite the writes serialise.
func TestPickingRaceForOnePlanMaterial(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Picking Race Co")
		pl := newStockPlace(t, c)
		receive(t, c, pl, "20", "1")
		for round := range 3 {
			planID := pickingPlan(t, c, "6", pl.material)
			ids := make([]string, 2)
			for i := range ids {
				var d issue
				c.PostJSON(outPath+"/submit", map[string]any{"outType": 1, "producePlanId": planID, "warehouseId": pl.warehouse,
					"details": []map[string]any{{"materialId": pl.material, "qty": "4", "positionId": pl.position}}}).OK(t, &d)
				ids[i] = d.ID
			}
			start := make(chan struct{})
			var wg sync.WaitGroup
			answers := make([]*apptest.Resp, len(ids))
			for i, id := range ids {
				wg.Go(func() {
					<-start
					answers[i] = c.Post(outPath+"/startProcess", apptest.Q("ids", id))
				})
			}
			close(start)
			wg.Wait()
			won := 0
			for i, a := range answers {
				switch {
				case a.Status == 200:
					won++
				case a.Status == 400 && strings.Contains(a.Env.Msg, "领料数量 8.000000 超过生产计划的可领数量 6.000000"):
				default:
					t.Fatalf("round %d: picking %s: HTTP %d %s", round, ids[i], a.Status, a.Body)
				}
			}
			if won != 1 {
				t.Fatalf("round %d: %d of two pickings of 4 locked against a plan requiring 6", round, won)
			}
		}
	})
}
