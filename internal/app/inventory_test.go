package app_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/inventory"
	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/wire"
	"github.com/bluebird/console/internal/stock"
)

const basic = "/api/bluebird-basic/"

func init() {
	// positions of one tenant's samples share a warehouse, so that one may
	// be another's parent
	var mu sync.Mutex
	warehouses := map[*apptest.Client]any{}
	sampleOverrides["bluebird-basic/warehouseposition"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		mu.Lock()
		defer mu.Unlock()
		if warehouses[c] == nil {
			var w map[string]any
			c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseCode": randomWord(8), "warehouseName": "sample", "warehouseType": 1}).OK(h.T, &w)
			warehouses[c] = w["id"]
		}
		return map[string]any{"warehouseId": warehouses[c], "parentId": 0}
	}
	// materials count in pieces, the unit their conversions convert into (each
	// sample conversion has a material of its own, so "box" never collides)
	sampleOverrides["bluebird-basic/material"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		return map[string]any{"unit": "pcs"}
	}
	sampleOverrides["bluebird-basic/unitcomparison"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		var m map[string]any
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": randomWord(8), "materialName": "sample", "unit": "pcs"}).OK(h.T, &m)
		return map[string]any{"itemKind": 1, "itemId": m["id"], "fromUnit": "box", "toUnit": "pcs", "ratio": "12"}
	}
}

type page[T any] struct {
	Records []T `json:"records"`
	Total   int `json:"total"`
}

type positionRow struct {
	ID                string `json:"id"`
	ParentID          string `json:"parentId"`
	WarehouseKey      string `json:"warehouseKey"`
	WarehouseName     string `json:"warehouseName"`
	ParentName        string `json:"parentName"`
	WarehouseCode     string `json:"warehouseCode"`
	WarehouseMainName string `json:"warehouseMainName"`
	IsEffective       int    `json:"isEffective"`
	Version           int    `json:"version"`
}

type treeNode struct {
	ID       string     `json:"id"`
	Title    string     `json:"title"`
	Children []treeNode `json:"children"`
}

// TestWarehousesAndPositions: a warehouse comes with its root position, the
// positions form a tree within their warehouse, both are made effective by
// doEffective, and the views join the warehouse.
func TestWarehousesAndPositions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Warehouse Co")
		msg := c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseType": 1}).Fail(t, 400)
		if msg != "请输入仓库编号" {
			t.Errorf("missing code: %q", msg)
		}
		msg = c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseCode": "W1", "warehouseType": 1}).Fail(t, 400)
		if msg != "请输入字典名称" { // spec.md §5, as worded
			t.Errorf("missing name: %q", msg)
		}
		var w struct {
			ID          string `json:"id"`
			IsEffective int    `json:"isEffective"`
			Status      int    `json:"status"`
		}
		c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseCode": "W1", "warehouseName": "原料仓", "warehouseType": 1}).OK(t, &w)
		if w.IsEffective != inventory.NotEffective || w.Status != 1 {
			t.Errorf("a new warehouse: %+v", w)
		}
		var positions page[positionRow]
		c.Get(basic+"warehouseposition/selectWarehousePositionVOPage", apptest.Q("warehouseId", w.ID)).OK(t, &positions)
		if len(positions.Records) != 1 || positions.Records[0].WarehouseKey != "DEFAULT" || positions.Records[0].WarehouseCode != "W1" ||
			positions.Records[0].WarehouseMainName != "原料仓" || positions.Records[0].IsEffective != inventory.Effective {
			t.Fatalf("root position %+v", positions.Records)
		}
		root := positions.Records[0]
		msg = c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": w.ID, "parentId": root.ID}).Fail(t, 400)
		if msg != "请输入库位键值" {
			t.Errorf("missing key: %q", msg)
		}
		msg = c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": w.ID, "parentId": root.ID, "warehouseKey": "A"}).Fail(t, 400)
		if msg != "请输入库位名称" {
			t.Errorf("missing name: %q", msg)
		}
		var a, a1 positionRow
		c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": w.ID, "parentId": root.ID, "warehouseKey": "A", "warehouseName": "A区"}).OK(t, &a)
		c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": w.ID, "parentId": a.ID, "warehouseKey": "A-01", "warehouseName": "A区1号架"}).OK(t, &a1)
		c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": w.ID, "parentId": a.ID, "warehouseKey": "A", "warehouseName": "dup"}).Fail(t, 400)
		var tree []treeNode
		c.Get(basic+"warehouseposition/tree", apptest.Q("warehouseId", w.ID)).OK(t, &tree)
		if len(tree) != 1 || tree[0].Title != "原料仓" || len(tree[0].Children) != 1 || tree[0].Children[0].Children[0].Title != "A区1号架" {
			t.Fatalf("position tree %+v", tree)
		}
		c.Get(basic+"warehouseposition/tree", apptest.Q("warehouseId", "abc")).Fail(t, 400)
		var detail positionRow
		c.Get(basic+"warehouseposition/detail", apptest.Q("id", a1.ID)).OK(t, &detail)
		if detail.ParentName != "A区" {
			t.Errorf("parent name %q", detail.ParentName)
		}
		// a position stays in its warehouse, and not under itself
		var w2 struct{ ID string }
		c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseCode": "W2", "warehouseName": "成品仓", "warehouseType": 2}).OK(t, &w2)
		c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": w2.ID, "parentId": a.ID, "warehouseKey": "X", "warehouseName": "x"}).Fail(t, 400)
		c.Edit(basic+"warehouseposition/submit", map[string]any{"id": a.ID, "parentId": a1.ID}).Fail(t, 400)
		// without warehouseId the tree holds every warehouse, each root named
		// after its warehouse and renamed with it
		c.Edit(basic+"warehouse/submit", map[string]any{"id": w2.ID, "warehouseName": "成品库"}).OK(t, nil)
		tree = nil
		c.Get(basic+"warehouseposition/tree", nil).OK(t, &tree)
		titles := []string{}
		for _, n := range tree {
			titles = append(titles, n.Title)
		}
		slices.Sort(titles)
		if !slices.Equal(titles, []string{"原料仓", "成品库"}) || len(tree[0].Children)+len(tree[1].Children) != 1 {
			t.Errorf("the tree of every warehouse: %+v", tree)
		}
		c.Post(basic+fmt.Sprintf("warehouseposition/remove?ids=%s", a.ID), nil).Fail(t, 400) // its child first
		// effective and not effective
		c.Post(basic+"warehouse/doEffective", apptest.Q("ids", w.ID, "effectiveStatus", "2")).OK(t, nil)
		c.Get(basic+"warehouse/detail", apptest.Q("id", w.ID)).OK(t, &w)
		if w.IsEffective != inventory.Effective {
			t.Errorf("made effective: %+v", w)
		}
		c.Post(basic+"warehouse/doEffective", apptest.Q("ids", w.ID, "effectiveStatus", "9")).Fail(t, 400)
		c.Post(basic+"warehouseposition/doEffective", apptest.Q("ids", a1.ID, "effectiveStatus", "1")).OK(t, nil)
		tree = nil
		c.Get(basic+"warehouseposition/tree", apptest.Q("warehouseId", w.ID, "onlyEffective", "true")).OK(t, &tree)
		if len(tree[0].Children[0].Children) != 0 {
			t.Errorf("an ineffective position in the effective tree: %+v", tree)
		}
		// another tenant sees and changes none of it
		_, other := h.NewTenant("Other Co")
		other.Get(basic+"warehouse/detail", apptest.Q("id", w.ID)).Fail(t, 404)
		other.Post(basic+"warehouse/doEffective", apptest.Q("ids", w.ID, "effectiveStatus", "1")).Fail(t, 404)
		other.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": w.ID, "warehouseKey": "Z", "warehouseName": "z"}).Fail(t, 400)
		positions = page[positionRow]{}
		other.Get(basic+"warehouseposition/selectWarehousePositionVOPage", nil).OK(t, &positions)
		if positions.Total != 0 {
			t.Errorf("another tenant sees %d positions", positions.Total)
		}
		// removing a warehouse takes its positions
		c.Post(basic+"warehouse/remove", apptest.Q("ids", w2.ID)).OK(t, nil)
		positions = page[positionRow]{}
		c.Get(basic+"warehouseposition/list", apptest.Q("warehouseId", w2.ID)).OK(t, &positions)
		if positions.Total != 0 {
			t.Errorf("positions outlived their warehouse: %+v", positions.Records)
		}
	})
}

type materialRow struct {
	ID           string  `json:"id"`
	MaterialCode string  `json:"materialCode"`
	MaterialName string  `json:"materialName"`
	SafetyStock  *string `json:"safetyStock"`
	BrandName    string  `json:"brandName"`
	Status       int     `json:"status"`
	Version      int     `json:"version"`
}

// TestMaterials: exact decimals, the brand joined in the view, keyword
// search, the approval lifecycle and its record, and numbering by a MAT rule.
func TestMaterials(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Material Co")
		var brand struct{ ID string }
		c.PostJSON(basic+"brand/submit", map[string]any{"brandCode": "ACME", "brandName": "极致"}).OK(t, &brand)
		var tiny, huge materialRow
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "M-1", "materialName": "螺栓", "unit": "pcs", "brandId": brand.ID, "safetyStock": "0.000001"}).OK(t, &tiny)
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "M-2", "materialName": "钢板", "unit": "kg", "safetyStock": "99999999999999.999999"}).OK(t, &huge)
		if *tiny.SafetyStock != "0.000001" || *huge.SafetyStock != "99999999999999.999999" {
			t.Fatalf("decimals %v %v", *tiny.SafetyStock, *huge.SafetyStock)
		}
		msg := c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "M-3", "materialName": "x", "unit": "pcs", "safetyStock": "1.0000001"}).Fail(t, 400)
		if !strings.Contains(msg, "安全库存") {
			t.Errorf("too many decimals: %q", msg)
		}
		var vo page[materialRow]
		c.Get(basic+"material/selectMaterialVOListPage", apptest.Q("safetyStock_gt", "1", "descs", "safetyStock")).OK(t, &vo)
		if vo.Total != 1 || vo.Records[0].MaterialCode != "M-2" {
			t.Errorf("decimal filter: %+v", vo.Records)
		}
		vo = page[materialRow]{}
		c.Get(basic+"material/selectMaterialVOListPage", apptest.Q("keyword", "螺")).OK(t, &vo)
		if vo.Total != 1 || vo.Records[0].BrandName != "极致" {
			t.Errorf("keyword search with the joined brand: %+v", vo.Records)
		}
		// the lifecycle: approve, no more removal, void, then removal
		var out []struct {
			AuditStatus int    `json:"auditStatus"`
			ProcessID   string `json:"processId"`
		}
		c.Post(basic+"material/startProcess", apptest.Q("ids", tiny.ID)).OK(t, &out)
		if len(out) != 1 || out[0].AuditStatus != 3 || out[0].ProcessID == "" {
			t.Fatalf("startProcess answered %+v", out)
		}
		var proc struct {
			BizNo   string `json:"bizNo"`
			Details []struct {
				Action int `json:"action"`
			} `json:"details"`
		}
		c.Get(basic+"tgprocess/detail", apptest.Q("id", out[0].ProcessID)).OK(t, &proc)
		if proc.BizNo != "M-1" || len(proc.Details) != 2 || proc.Details[0].Action != 1 || proc.Details[1].Action != 2 {
			t.Errorf("approval record %+v", proc)
		}
		msg = c.Post(basic+"material/startProcess", apptest.Q("ids", tiny.ID)).Fail(t, 400)
		if msg != "M-1 当前状态为「已审批」,不能提交审批" {
			t.Errorf("a second submission: %q", msg)
		}
		msg = c.Post(basic+"material/remove", apptest.Q("ids", tiny.ID)).Fail(t, 400)
		if msg != "M-1 当前状态为「已审批」,不能删除" {
			t.Errorf("removing an approved material: %q", msg)
		}
		c.Edit(basic+"material/submit", map[string]any{"id": tiny.ID, "materialName": "六角螺栓"}).OK(t, nil)
		c.Post(basic+"material/cancellation", apptest.Q("ids", tiny.ID)).OK(t, nil)
		c.Edit(basic+"material/submit", map[string]any{"id": tiny.ID, "materialName": "again"}).Fail(t, 400)
		c.Post(basic+"material/remove", apptest.Q("ids", tiny.ID)).OK(t, nil)
		// a MAT code rule numbers materials left without a code
		var rule struct{ ID string }
		c.PostJSON(basic+"coderulenew/submit", map[string]any{"ruleCode": "MAT", "ruleName": "物料编码", "bizType": "MAT", "isEffective": 1, "allowManual": 2}).OK(t, &rule)
		c.PostJSON(basic+"coderuledetail/submit", map[string]any{"ruleId": rule.ID, "seq": 1, "segmentType": 1, "fixedValue": "WL"}).OK(t, nil)
		c.PostJSON(basic+"coderuledetail/submit", map[string]any{"ruleId": rule.ID, "seq": 2, "segmentType": 3, "serialLength": 5}).OK(t, nil)
		c.Edit(basic+"coderulenew/submit", map[string]any{"id": rule.ID, "isEffective": 2}).OK(t, nil)
		var preview struct{ Number string }
		c.Get(basic+"coderulenew/preview", apptest.Q("bizType", "MAT")).OK(t, &preview)
		var numbered materialRow
		c.PostJSON(basic+"material/submit", map[string]any{"materialName": "垫片", "unit": "pcs"}).OK(t, &numbered)
		if preview.Number != "WL00001" || numbered.MaterialCode != preview.Number {
			t.Errorf("preview %q, number given %q", preview.Number, numbered.MaterialCode)
		}
		// another tenant cannot see, approve or reference them
		_, other := h.NewTenant("Other Co")
		other.Get(basic+"material/detail", apptest.Q("id", huge.ID)).Fail(t, 404)
		other.Post(basic+"material/startProcess", apptest.Q("ids", huge.ID)).Fail(t, 404)
		other.PostJSON(basic+"unitcomparison/submit", map[string]any{"itemKind": 1, "itemId": huge.ID, "fromUnit": "t", "toUnit": "kg", "ratio": "1000"}).Fail(t, 400)
	})
}

// TestDictionaryValuesRefused: a dictionary field takes only its
// dictionary's keys, on a master row (text and integer keys) and on a
// document line; an optional 0 stays "none"; the message names the field
// and the value in the caller's language.
func TestDictionaryValuesRefused(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Dict Co")
		r := c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "D-1", "materialName": "x", "unit": "1"})
		if msg := r.Fail(t, 400); msg != "单位的值「1」不在可选项中" || !strings.Contains(string(r.Env.Data), `"unit"`) {
			t.Errorf("unit 1: %q %s", msg, r.Env.Data)
		}
		c.Lang = "en"
		if msg := c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "D-1", "materialName": "x", "unit": "pcs", "batchManaged": 7}).Fail(t, 400); msg != `Batch managed: "7" is not one of its choices` {
			t.Errorf("batchManaged 7: %q", msg)
		}
		c.Lang = ""
		var m materialRow
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "D-1", "materialName": "x", "unit": "pcs", "purchaseUnit": ""}).OK(t, &m)
		c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseCode": "W-D", "warehouseName": "w", "warehouseType": 9}).Fail(t, 400)
		var w struct{ ID string }
		c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseCode": "W-D", "warehouseName": "w", "warehouseType": 1}).OK(t, &w)
		var pos []struct{ ID string }
		c.Get(basic+"warehouseposition/list", apptest.Q("warehouseId", w.ID)).OK(t, &struct{ Records *[]struct{ ID string } }{&pos})
		if len(pos) == 0 {
			t.Fatal("no root position")
		}
		msg := c.PostJSON(basic+"materialinrecordmain/submit", map[string]any{"inType": 3, "otherReason": 1, "warehouseId": w.ID,
			"details": []map[string]any{{"materialId": m.ID, "qty": "1", "unit": "pcs", "positionId": pos[0].ID}, {"materialId": m.ID, "qty": "1", "unit": "bogus", "positionId": pos[0].ID}}}).Fail(t, 400)
		if !strings.Contains(msg, "第2行") || !strings.Contains(msg, "bogus") {
			t.Errorf("a line's unit outside the dictionary: %q", msg)
		}
	})
}

// TestUnitConversion: an item's rule converts into its base unit and wins
// over the rule for every item; only approved, effective rules count;
// rounding and whole numbers as declared.
func TestUnitConversion(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenant, c := h.NewTenant("Units Co")
		var m materialRow
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "BOLT", "materialName": "螺栓", "unit": "pcs"}).OK(t, &m)
		msg := c.PostJSON(basic+"unitcomparison/submit", map[string]any{"itemKind": 1, "itemId": m.ID, "fromUnit": "box", "toUnit": "kg", "ratio": "12"}).Fail(t, 400)
		if msg != "物料的换算须换算为其基本单位pcs" {
			t.Errorf("an item rule into another unit: %q", msg)
		}
		c.PostJSON(basic+"unitcomparison/submit", map[string]any{"itemKind": 1, "itemId": m.ID, "fromUnit": "box", "toUnit": "box", "ratio": "1"}).Fail(t, 400)
		c.PostJSON(basic+"unitcomparison/submit", map[string]any{"fromUnit": "box", "toUnit": "pcs", "ratio": "0"}).Fail(t, 400)
		var item, all struct{ ID string }
		c.PostJSON(basic+"unitcomparison/submit", map[string]any{"itemKind": 1, "itemId": m.ID, "fromUnit": "box", "toUnit": "pcs", "ratio": "12.000000001", "wholeNumber": 2, "roundingMode": 4}).OK(t, &item)
		c.PostJSON(basic+"unitcomparison/submit", map[string]any{"fromUnit": "box", "toUnit": "pcs", "ratio": "10"}).OK(t, &all)
		ctx := context.Background()
		id, _ := wire.ParseID(m.ID)
		convert := func(qty string) (string, error) {
			out, err := inventory.Convert(ctx, h.App.DB, tenant, inventory.KindMaterial, id, "box", "pcs", wire.MustParseDecimal(qty))
			return out.String(), err
		}
		if _, err := convert("1"); err == nil {
			t.Error("a draft rule converted")
		}
		c.Post(basic+"unitcomparison/startProcess", apptest.Q("ids", all.ID)).OK(t, nil)
		if got, err := convert("1.5"); err != nil || got != "15.000000" {
			t.Errorf("the rule for every item: %s %v", got, err)
		}
		c.Post(basic+"unitcomparison/startProcess", apptest.Q("ids", item.ID)).OK(t, nil)
		if got, err := convert("3"); err != nil || got != "36.000000" {
			t.Errorf("the item's rule, rounded half up to a whole number: %s %v", got, err)
		}
	})
}

// TestPlacesHoldingStockStayEffective: a warehouse, or a position whose
// subtree holds stock (on hand or locked), cannot be set not effective;
// once the stock has gone, it can.
func TestPlacesHoldingStockStayEffective(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenantID, c := h.NewTenant("Held Co")
		var w, root, shelf, bin, m struct{ ID wire.ID }
		c.PostJSON(basic+"warehouse/submit", map[string]any{"warehouseCode": "W1", "warehouseName": "仓", "warehouseType": 1}).OK(t, &w)
		c.Post(basic+"warehouse/doEffective", apptest.Q("ids", w.ID.String(), "effectiveStatus", "2")).OK(t, nil)
		var roots page[positionRow]
		c.Get(basic+"warehouseposition/list", apptest.Q("warehouseId", w.ID.String())).OK(t, &roots)
		root.ID, _ = wire.ParseID(roots.Records[0].ID)
		c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": w.ID, "parentId": root.ID, "warehouseKey": "S", "warehouseName": "架"}).OK(t, &shelf)
		c.PostJSON(basic+"warehouseposition/submit", map[string]any{"warehouseId": w.ID, "parentId": shelf.ID, "warehouseKey": "S1", "warehouseName": "格"}).OK(t, &bin)
		c.PostJSON(basic+"material/submit", map[string]any{"materialCode": "M1", "materialName": "料", "unit": "pcs"}).OK(t, &m)

		ctx := authz.With(context.Background(), &authz.Principal{TenantID: tenantID, UserID: 1})
		post := func(qty string) {
			t.Helper()
			err := h.App.DB.Tx(ctx, func(tx bun.Tx) error {
				_, err := h.App.Stock.Post(ctx, tx, stock.Posting{BizType: "TEST", BizID: db.NewID(), BizNo: "T", Lines: []stock.Line{{
					Bucket:   stock.Bucket{Kind: stock.Material, ItemID: m.ID, WarehouseID: w.ID, PositionID: bin.ID},
					DetailID: db.NewID(), TxType: stock.MaterialInOther, Qty: wire.MustParseDecimal(qty), UnitCost: wire.MustParseDecimal("1")}}})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		post("2")
		for _, target := range []string{"warehouse", "warehouseposition"} {
			ids := map[string]wire.ID{"warehouse": w.ID, "warehouseposition": shelf.ID}[target]
			msg := c.Post(basic+target+"/doEffective", apptest.Q("ids", ids.String(), "effectiveStatus", "1")).Fail(t, 400)
			if !strings.Contains(msg, "仍有库存") {
				t.Errorf("%s with stock below set not effective: %q", target, msg)
			}
		}
		post("-2")
		c.Post(basic+"warehouseposition/doEffective", apptest.Q("ids", shelf.ID.String(), "effectiveStatus", "1")).OK(t, nil)
		c.Post(basic+"warehouse/doEffective", apptest.Q("ids", w.ID.String(), "effectiveStatus", "1")).OK(t, nil)
	})
}
