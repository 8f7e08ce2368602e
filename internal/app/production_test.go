package app_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/production"
)

const planPath = "/api/bluebird-basic/produceplanmain"

// planCode is the PP rule's number: PP, the date, a 4-digit serial.
var planCode = regexp.MustCompile(`^PP20[0-9]{6}[0-9]{4}$`)

func init() {
	sampleOverrides["bluebird-basic/produceplanmain"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		return samplePlan(h.T, c)
	}
	// plan lines arise with their plan
	readOnlyCreators["bluebird-basic/produceplandetail"] = func(t *testing.T, c *apptest.Client) string {
		var p plan
		c.PostJSON(planPath+"/submit", samplePlan(t, c)).OK(t, &p)
		return p.Details[0].ID
	}
	// the frozen requirement arises when its plan is approved
	readOnlyCreators["bluebird-basic/produceplanmaterial"] = func(t *testing.T, c *apptest.Client) string {
		var p plan
		c.PostJSON(planPath+"/submit", samplePlan(t, c)).OK(t, &p)
		c.Post(planPath+"/startProcess", apptest.Q("ids", p.ID)).OK(t, nil)
		var mats page[planMaterial]
		c.Get(basic+"produceplanmaterial/list", apptest.Q("planId", p.ID)).OK(t, &mats)
		if len(mats.Records) == 0 {
			t.Fatal("no frozen requirement")
		}
		return mats.Records[0].ID
	}
}

// newWorkshop is a department of the caller's tenant.
func newWorkshop(t testing.TB, c *apptest.Client) string {
	t.Helper()
	var d struct {
		ID string `json:"id"`
	}
	c.PostJSON("/api/blade-system/dept/submit", map[string]any{"deptName": "车间" + randomWord(4), "fullName": "一车间", "deptCategory": 1, "sort": 1}).OK(t, &d)
	return d.ID
}

func newMaterial(t testing.TB, c *apptest.Client, code string) string {
	t.Helper()
	var m struct {
		ID string `json:"id"`
	}
	c.PostJSON(basic+"material/submit", map[string]any{"materialCode": code, "materialName": "料" + code, "unit": "kg"}).OK(t, &m)
	return m.ID
}

func samplePlan(t testing.TB, c *apptest.Client) map[string]any {
	return map[string]any{"workShopId": newWorkshop(t, c), "projectName": "样例项目", "deliveryTime": "2026-12-01 08:00:00",
		"details":   []map[string]any{{"productCode": "P1", "productName": "开关柜", "count": "2"}},
		"materials": []map[string]any{{"materialId": newMaterial(t, c, "M"+randomWord(6)), "requiredQty": "3"}}}
}

type plan struct {
	ID                string `json:"id"`
	Version           int    `json:"version"`
	ProducePlanCode   string `json:"producePlanCode"`
	Status            int    `json:"status"`
	ProducePlanStatus int    `json:"producePlanStatus"`
	CustomerName      string `json:"customerName"`
	CreateUserName    string `json:"createUserName"`
	WorkShopName      string `json:"workShopName"`
	Details           []struct {
		ID                  string `json:"id"`
		ProductCode         string `json:"productCode"`
		Count               string `json:"count"`
		ProduceCount        string `json:"produceCount"`
		InStockCount        string `json:"inStockCount"`
		ProduceDetailStatus int    `json:"produceDetailStatus"`
		TestType            int    `json:"testType"`
		IsBatch             int    `json:"isBatch"`
	} `json:"details"`
	Materials []struct {
		ID           string `json:"id"`
		DetailNo     int    `json:"detailNo"`
		MaterialID   string `json:"materialId"`
		MaterialCode string `json:"materialCode"`
		RequiredQty  string `json:"requiredQty"`
	} `json:"materials"`
}

type planMaterial struct {
	ID           string `json:"id"`
	PlanDetailID string `json:"planDetailId"`
	MaterialID   string `json:"materialId"`
	MaterialCode string `json:"materialCode"`
	Unit         string `json:"unit"`
	RequiredQty  string `json:"requiredQty"`
	PickedQty    string `json:"pickedQty"`
	ReturnedQty  string `json:"returnedQty"`
}

// TestProducePlan: a plan is saved with its product lines and required
// materials, numbered from the PP rule, edited only as a draft; approval
// freezes its material requirement; picking, returns and receipts move its
// quantities and statuses through the Go API; closing and voiding refuse
// what they must; another tenant sees none of it.
func TestProducePlan(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenant, c := h.NewTenant("Plan Co")
		shop := newWorkshop(t, c)
		steel, copper := newMaterial(t, c, "STEEL"), newMaterial(t, c, "CU")
		var cust struct {
			ID string `json:"id"`
		}
		c.PostJSON(basic+"customermain/submit", map[string]any{"customerCode": "C1", "customerName": "南方电网"}).OK(t, &cust)

		// malformed and incomplete bodies are 4xx
		c.Do("POST", planPath+"/submit", strings.NewReader("{"), map[string]string{"Content-Type": "application/json"}).Fail(t, 400)
		c.PostJSON(planPath+"/submit", map[string]any{}).Fail(t, 400)
		c.PostJSON(planPath+"/submit", map[string]any{"details": "x"}).Fail(t, 400)
		c.Post(planPath+"/startProcess", nil).Fail(t, 400)
		c.Post(planPath+"/cancellation", apptest.Q("ids", "abc")).Fail(t, 400)
		c.Post(planPath+"/closePlan", nil).Fail(t, 400)
		c.Get(planPath+"/detail", nil).Fail(t, 400)
		c.Get(basic+"produceplanmaterial/detail", apptest.Q("id", "x")).Fail(t, 400)
		c.Get(basic+"produceplandetail/detail", nil).Fail(t, 400)
		c.Get(basic+"produceplanmaterial/list", apptest.Q("planId", "abc")).Fail(t, 400)
		c.Get(basic+"produceplandetail/selectProducePlanDetailVOPage", apptest.Q("planId", "abc")).Fail(t, 400)
		c.Get(planPath+"/selectProducePlanVOPage", apptest.Q("workShopId", "abc")).Fail(t, 400)
		c.PostJSON(planPath+"/saveProducePlan", map[string]any{}).Fail(t, 400)
		c.PostJSON(planPath+"/submit", map[string]any{"workShopId": shop, "projectName": "x", "deliveryTime": "2026-12-01 08:00:00",
			"details": []map[string]any{{"productCode": "P", "productName": "N", "count": "1"}}, "materials": "x"}).Fail(t, 400)
		c.Post(planPath+"/remove", nil).Fail(t, 400)
		body := func() map[string]any {
			return map[string]any{"workShopId": shop, "projectName": "变电站二期", "produceOrderCode": "SO-1", "batchCode": "B7",
				"customerId": cust.ID, "deliveryTime": "2026-12-01 08:00:00",
				"details": []map[string]any{
					{"productCode": "KYN28", "productName": "开关柜", "productModel": "KYN28-12", "count": "2", "testType": 1, "isBatch": 2},
					{"productCode": "XGN", "productName": "环网柜", "count": "1", "produceCount": "9", "inStockCount": "9"},
				},
				"materials": []map[string]any{
					{"materialId": steel, "requiredQty": "10", "detailNo": 1},
					{"materialId": steel, "requiredQty": "2.5", "detailNo": 1},
					{"materialId": steel, "requiredQty": "4", "detailNo": 2},
					{"materialId": copper, "requiredQty": "1.25"},
				}}
		}
		msg := c.PostJSON(planPath+"/submit", map[string]any{"workShopId": shop, "projectName": "x", "deliveryTime": "2026-12-01 08:00:00"}).Fail(t, 400)
		if msg != "生产计划没有产品明细" {
			t.Errorf("no lines: %q", msg)
		}
		bad := body()
		bad["materials"] = []map[string]any{{"materialId": steel, "requiredQty": "0"}}
		if msg := c.PostJSON(planPath+"/submit", bad).Fail(t, 400); msg != "物料需求第1行: 需求数量必须大于0" {
			t.Errorf("zero requirement: %q", msg)
		}
		bad["materials"] = []map[string]any{{"materialId": steel, "requiredQty": "1"}, {"materialId": steel, "requiredQty": "1", "detailNo": 3}}
		if msg := c.PostJSON(planPath+"/submit", bad).Fail(t, 400); msg != "物料需求第2行: 产品行号 3 不存在(计划共2行产品)" {
			t.Errorf("requirement of a missing line: %q", msg)
		}
		bad["details"] = []map[string]any{{"productCode": "P", "productName": "N", "count": "-1"}}
		c.PostJSON(planPath+"/submit", bad).Fail(t, 400)

		var p plan
		c.PostJSON(planPath+"/saveProducePlan", body()).OK(t, &p)
		if !planCode.MatchString(p.ProducePlanCode) || p.Status != 1 || p.ProducePlanStatus != 1 || p.CustomerName != "南方电网" ||
			p.CreateUserName == "" || len(p.Details) != 2 || len(p.Materials) != 4 {
			t.Fatalf("saved plan %+v", p)
		}
		if d := p.Details[1]; d.ProduceCount != "0.000000" || d.InStockCount != "0.000000" || d.ProduceDetailStatus != 1 || p.Details[0].IsBatch != 2 || p.Details[1].IsBatch != 1 {
			t.Errorf("a new line's counts come from the server: %+v", p.Details)
		}
		if p.Materials[0].MaterialCode != "STEEL" || p.Materials[3].DetailNo != 0 || p.Materials[1].RequiredQty != "2.500000" {
			t.Errorf("required materials %+v", p.Materials)
		}
		var second plan
		c.PostJSON(planPath+"/submit", body()).OK(t, &second)
		// numbers may have gaps (a refused save may have taken one), never repeats
		if n1, _ := strconv.Atoi(p.ProducePlanCode[10:]); second.ProducePlanCode != fmt.Sprintf("%s%04d", p.ProducePlanCode[:10], n1+1) {
			t.Errorf("second number %q", second.ProducePlanCode)
		}
		// the list answers each plan with its lines and its workshop's name
		var list page[plan]
		c.Get(planPath+"/selectProducePlanVOPage", apptest.Q("producePlanCode", p.ProducePlanCode)).OK(t, &list)
		if list.Total != 1 || len(list.Records[0].Details) != 2 || !strings.HasPrefix(list.Records[0].WorkShopName, "车间") {
			t.Errorf("plan page %+v", list)
		}
		// an edit replaces the lines whole; leaving a material's line out is refused
		msg = c.Edit(planPath+"/submit", map[string]any{"id": p.ID, "details": []map[string]any{{"productCode": "KYN28", "productName": "开关柜", "count": "3"}}}).Fail(t, 400)
		if msg != "物料需求: 产品行号 2 不存在(计划共1行产品)" {
			t.Errorf("dropping a line materials point at: %q", msg)
		}
		c.Edit(planPath+"/submit", map[string]any{"id": p.ID, "remark": "加急",
			"materials": []map[string]any{
				{"materialId": steel, "requiredQty": "10", "detailNo": 1},
				{"materialId": steel, "requiredQty": "2.5", "detailNo": 1},
				{"materialId": steel, "requiredQty": "4", "detailNo": 2},
				{"materialId": copper, "requiredQty": "1.5"},
			}}).OK(t, nil)
		c.Get(planPath+"/detail", apptest.Q("id", p.ID)).OK(t, &p)
		if len(p.Materials) != 4 || p.Materials[3].RequiredQty != "1.500000" || len(p.Details) != 2 {
			t.Fatalf("after the edit %+v", p)
		}
		// nothing is frozen before approval; picking is refused
		var mats page[planMaterial]
		c.Get(basic+"produceplanmaterial/list", apptest.Q("planId", p.ID)).OK(t, &mats)
		if mats.Total != 0 {
			t.Errorf("requirement before approval: %+v", mats)
		}
		ctx := authz.With(context.Background(), &authz.Principal{TenantID: tenant, UserID: 1})
		planID, _ := wire.ParseID(p.ID)
		steelID, _ := wire.ParseID(steel)
		copperID, _ := wire.ParseID(copper)
		if err := production.PickAllowed(ctx, h.App.DB, planID, steelID); err == nil || !strings.Contains(err.Error(), "尚未审批通过") {
			t.Errorf("picking for a draft: %v", err)
		}
		c.Post(planPath+"/closePlan", apptest.Q("ids", p.ID, "closeReason", "x")).Fail(t, 400)

		// approval freezes the requirement: one row per (line, material)
		c.Post(planPath+"/startProcess", apptest.Q("ids", p.ID)).OK(t, nil)
		c.Get(planPath+"/detail", apptest.Q("id", p.ID)).OK(t, &p)
		if p.Status != 3 || p.ProducePlanStatus != 1 {
			t.Fatalf("approved plan %+v", p)
		}
		c.Get(basic+"produceplanmaterial/list", apptest.Q("planId", p.ID)).OK(t, &mats)
		got := map[string]string{}
		for _, m := range mats.Records {
			got[m.PlanDetailID+"/"+m.MaterialCode] = m.RequiredQty + "|" + m.PickedQty + "|" + m.ReturnedQty + "|" + m.Unit
		}
		want := map[string]string{
			p.Details[0].ID + "/STEEL": "12.500000|0.000000|0.000000|kg",
			p.Details[1].ID + "/STEEL": "4.000000|0.000000|0.000000|kg",
			"0/CU":                     "1.500000|0.000000|0.000000|kg",
		}
		if len(got) != 3 || got[p.Details[0].ID+"/STEEL"] != want[p.Details[0].ID+"/STEEL"] || got[p.Details[1].ID+"/STEEL"] != want[p.Details[1].ID+"/STEEL"] || got["0/CU"] != want["0/CU"] {
			t.Errorf("frozen requirement %v, want %v", got, want)
		}
		// approved: no edit, no removal, no second approval
		if msg := c.Edit(planPath+"/submit", map[string]any{"id": p.ID, "remark": "late"}).Fail(t, 400); !strings.Contains(msg, "已审批") {
			t.Errorf("editing an approved plan: %q", msg)
		}
		c.Post(planPath+"/remove", apptest.Q("ids", p.ID)).Fail(t, 400)
		c.Post(planPath+"/startProcess", apptest.Q("ids", p.ID)).Fail(t, 400)

		// picking through the Go API
		other := newMaterial(t, c, "OTHER")
		otherID, _ := wire.ParseID(other)
		if err := production.PickAllowed(ctx, h.App.DB, planID, otherID); err == nil || !strings.Contains(err.Error(), "OTHER") {
			t.Errorf("picking a material the plan does not need: %v", err)
		}
		if err := production.PickAllowed(ctx, h.App.DB, planID, steelID); err != nil {
			t.Errorf("picking steel: %v", err)
		}
		tx := func(fn func(ctx context.Context, tx bun.Tx) error) error {
			return h.App.DB.Tx(ctx, func(tx bun.Tx) error { return fn(ctx, tx) })
		}
		if err := tx(func(ctx context.Context, tx bun.Tx) error {
			return production.AddPicked(ctx, tx, planID, steelID, wire.MustParseDecimal("14"))
		}); err != nil {
			t.Fatal(err)
		}
		c.Get(planPath+"/detail", apptest.Q("id", p.ID)).OK(t, &p)
		c.Get(basic+"produceplanmaterial/list", apptest.Q("planId", p.ID, "materialId", steel)).OK(t, &mats)
		if p.ProducePlanStatus != 2 || len(mats.Records) != 2 || mats.Records[0].PickedQty != "12.500000" || mats.Records[1].PickedQty != "1.500000" {
			t.Errorf("after picking 14 steel: plan %d, %+v", p.ProducePlanStatus, mats.Records)
		}
		// more than picked cannot be returned or reversed
		if err := tx(func(ctx context.Context, tx bun.Tx) error {
			return production.AddReturned(ctx, tx, planID, steelID, wire.MustParseDecimal("15"))
		}); err == nil || !strings.Contains(err.Error(), "退料数量超过") {
			t.Errorf("returning 15 of 14: %v", err)
		}
		if err := tx(func(ctx context.Context, tx bun.Tx) error {
			if err := production.AddReturned(ctx, tx, planID, steelID, wire.MustParseDecimal("2")); err != nil {
				return err
			}
			return production.AddPicked(ctx, tx, planID, steelID, wire.MustParseDecimal("-13"))
		}); err == nil || !strings.Contains(err.Error(), "不足") {
			t.Errorf("reversing 13 when 12 are out: %v", err)
		}
		// (that transaction rolled back whole: 14 picked, nothing returned)
		if err := tx(func(ctx context.Context, tx bun.Tx) error {
			return production.AddReturned(ctx, tx, planID, steelID, wire.MustParseDecimal("1"))
		}); err != nil {
			t.Fatal(err)
		}
		c.Get(basic+"produceplanmaterial/list", apptest.Q("planId", p.ID, "materialId", steel)).OK(t, &mats)
		if mats.Records[0].PickedQty != "12.500000" || mats.Records[1].PickedQty != "1.500000" || mats.Records[1].ReturnedQty != "1.000000" || mats.Records[0].ReturnedQty != "0.000000" {
			t.Errorf("after returning 1: %+v", mats.Records)
		}
		// picked material: no void
		if msg := c.Post(planPath+"/cancellation", apptest.Q("ids", p.ID)).Fail(t, 400); !strings.Contains(msg, "不能作废") {
			t.Errorf("voiding a picked plan: %q", msg)
		}
		// production reported on a line of the plan
		rp := planPath + "/reportProduction"
		c.Post(rp, apptest.Q("ids", p.ID, "qty", "1")).Fail(t, 400)
		c.Post(rp, apptest.Q("ids", p.ID, "planDetailId", p.Details[1].ID, "qty", "0")).Fail(t, 400)
		c.Post(rp, apptest.Q("ids", p.ID, "planDetailId", p.Details[1].ID, "qty", "0.0000001")).Fail(t, 400)
		if msg := c.Post(rp, apptest.Q("ids", p.ID, "planDetailId", second.Details[0].ID, "qty", "1")).Fail(t, 400); msg != "生产计划明细不存在" {
			t.Errorf("reporting on another plan's line: %q", msg)
		}
		c.Post(rp, apptest.Q("ids", second.ID, "planDetailId", second.Details[0].ID, "qty", "1")).Fail(t, 400)
		c.Post(rp, apptest.Q("ids", p.ID, "planDetailId", p.Details[1].ID, "qty", "0.5")).OK(t, nil)
		c.Get(planPath+"/detail", apptest.Q("id", p.ID)).OK(t, &p)
		if p.Details[1].ProduceCount != "0.500000" || p.Details[1].ProduceDetailStatus != 2 {
			t.Errorf("after reporting 0.5: %+v", p.Details[1])
		}
		// receipts complete the plan
		d0, _ := wire.ParseID(p.Details[0].ID)
		d1, _ := wire.ParseID(p.Details[1].ID)
		if err := tx(func(ctx context.Context, tx bun.Tx) error {
			if err := production.AddProduced(ctx, tx, d0, wire.MustParseDecimal("2")); err != nil {
				return err
			}
			if err := production.AddInStock(ctx, tx, d0, wire.MustParseDecimal("2")); err != nil {
				return err
			}
			return production.AddProduced(ctx, tx, d1, wire.MustParseDecimal("1"))
		}); err != nil {
			t.Fatal(err)
		}
		c.Get(planPath+"/detail", apptest.Q("id", p.ID)).OK(t, &p)
		if p.ProducePlanStatus != 2 || p.Details[0].ProduceDetailStatus != 4 || p.Details[1].ProduceDetailStatus != 3 || p.Details[0].InStockCount != "2.000000" {
			t.Errorf("one line stocked, one finished: %+v", p)
		}
		if err := tx(func(ctx context.Context, tx bun.Tx) error {
			return production.AddInStock(ctx, tx, d1, wire.MustParseDecimal("1"))
		}); err != nil {
			t.Fatal(err)
		}
		c.Get(planPath+"/detail", apptest.Q("id", p.ID)).OK(t, &p)
		if p.ProducePlanStatus != 3 || p.Details[1].ProduceDetailStatus != 4 {
			t.Errorf("every line stocked: %+v", p)
		}
		// closing: a reason is required; the answer lists what is still out
		c.Post(planPath+"/closePlan", apptest.Q("ids", p.ID)).Fail(t, 400)
		var open []struct {
			MaterialCode string `json:"materialCode"`
			OpenQty      string `json:"openQty"`
		}
		c.Post(planPath+"/closePlan", apptest.Q("ids", p.ID, "closeReason", "项目结束")).OK(t, &open)
		if len(open) != 2 || open[0].MaterialCode != "STEEL" || open[0].OpenQty != "12.500000" || open[1].OpenQty != "0.500000" {
			t.Errorf("open material at closing: %+v", open)
		}
		c.Get(planPath+"/detail", apptest.Q("id", p.ID)).OK(t, &p)
		if p.ProducePlanStatus != 4 {
			t.Errorf("closed plan %+v", p)
		}
		if err := production.PickAllowed(ctx, h.App.DB, planID, copperID); err == nil || !strings.Contains(err.Error(), "已关闭") {
			t.Errorf("picking for a closed plan: %v", err)
		}
		c.Post(planPath+"/closePlan", apptest.Q("ids", p.ID, "closeReason", "again")).Fail(t, 400)

		// a draft is voided; then it is neither edited nor approved
		c.Post(planPath+"/cancellation", apptest.Q("ids", second.ID)).OK(t, nil)
		c.Post(planPath+"/startProcess", apptest.Q("ids", second.ID)).Fail(t, 400)
		c.Edit(planPath+"/submit", map[string]any{"id": second.ID, "remark": "x"}).Fail(t, 400)

		// another tenant sees none of it and cannot act on it
		otherTenant, o := h.NewTenant("Other Plan Co")
		o.Get(planPath+"/detail", apptest.Q("id", p.ID)).Fail(t, 404)
		o.Post(planPath+"/closePlan", apptest.Q("ids", p.ID, "closeReason", "x")).Fail(t, 404)
		o.Post(planPath+"/startProcess", apptest.Q("ids", second.ID)).Fail(t, 404)
		var theirs page[planMaterial]
		o.Get(basic+"produceplanmaterial/list", nil).OK(t, &theirs)
		if theirs.Total != 0 {
			t.Errorf("another tenant lists %d requirement rows", theirs.Total)
		}
		o.Get(basic+"produceplanmaterial/detail", apptest.Q("id", mats.Records[0].ID)).Fail(t, 404)
		o.Get(basic+"produceplandetail/detail", apptest.Q("id", p.Details[0].ID)).Fail(t, 404)
		// nor through the Go API in its own tenant's context
		octx := authz.With(context.Background(), &authz.Principal{TenantID: otherTenant, UserID: 1})
		if err := production.PickAllowed(octx, h.App.DB, planID, steelID); err == nil || !strings.Contains(err.Error(), "生产计划不存在") {
			t.Errorf("another tenant picking for the plan: %v", err)
		}
		// another tenant's material cannot be required
		otherMat := newMaterial(t, o, "THEIRS")
		bad = body()
		bad["materials"] = []map[string]any{{"materialId": otherMat, "requiredQty": "1"}}
		if msg := c.PostJSON(planPath+"/submit", bad).Fail(t, 400); msg != "物料需求第1行: 物料不存在或未生效" {
			t.Errorf("another tenant's material: %q", msg)
		}
		bad = body()
		bad["customerId"] = "123"
		c.PostJSON(planPath+"/submit", bad).Fail(t, 400)
		// a removed draft takes its lines and materials along
		var third plan
		c.PostJSON(planPath+"/submit", body()).OK(t, &third)
		c.Post(planPath+"/remove", apptest.Q("ids", third.ID)).OK(t, nil)
		n, err := h.App.DB.NewSelect().Table("bb_produce_plan_required").Where("plan_id = ? AND is_deleted = 0", third.ID).Count(context.Background())
		if err != nil || n != 0 {
			t.Errorf("required materials of a removed plan: %d %v", n, err)
		}
	})
}
