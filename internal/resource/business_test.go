package resource

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Views, commands and lines, declared on three small resources the way a
// business area declares them: brands, items that reference a brand (with a
// view joining the brand's name, an approve command and effective /
// ineffective commands), and orders whose lines reference items.

type bizBrand struct {
	Base
	BrandCode string `bun:"brand_code" json:"brandCode" f:"label=品牌编号|Brand code;req;max=32"`
	BrandName string `bun:"brand_name" json:"brandName" f:"label=品牌名称|Brand name;req;max=64"`
}

type bizItem struct {
	Base
	ItemCode    string  `bun:"item_code" json:"itemCode" f:"label=物料编号|Item code;req;max=32;sort"`
	ItemName    string  `bun:"item_name" json:"itemName" f:"label=物料名称|Item name;req;max=64"`
	BrandID     wire.ID `bun:"brand_id" json:"brandId" f:"label=品牌|Brand;ref=blade-test/brand"`
	IsEffective int     `bun:"is_effective" json:"isEffective" f:"label=生效状态|Effective;noform"`
	BrandName   string  `bun:"j_brand_name,scanonly" json:"brandName,omitempty"`
	BrandCode   string  `bun:"j_brand_code,scanonly" json:"brandCode,omitempty"`
}

type bizOrder struct {
	Base
	OrderNo string         `bun:"order_no" json:"orderNo" f:"label=单号|Order no.;req;max=32"`
	Details []bizOrderLine `bun:"-" json:"details"`
}

type bizOrderLine struct {
	Base
	OrderID wire.ID `bun:"order_id" json:"orderId" f:"label=单据|Order;ro;hide"`
	ItemID  wire.ID `bun:"item_id" json:"itemId" f:"label=物料|Item;req;ref=blade-test/item"`
	Qty     int     `bun:"qty" json:"qty" f:"label=数量|Quantity;req;min=1;max=1000"`
	Note    string  `bun:"note" json:"note" f:"label=备注|Note;max=20"`
}

const bizBase = `id BIGINT PRIMARY KEY, tenant_id VARCHAR(12), create_user BIGINT, create_dept BIGINT, create_time TIMESTAMP,
	update_user BIGINT, update_time TIMESTAMP, status INT, is_deleted INT, version INT`

var bizDDL = map[string]string{
	"biz_brand": `CREATE TABLE %s (` + bizBase + `, brand_code VARCHAR(32), brand_name VARCHAR(64))`,
	"biz_item":  `CREATE TABLE %s (` + bizBase + `, item_code VARCHAR(32), item_name VARCHAR(64), brand_id BIGINT NOT NULL DEFAULT 0, is_effective INT NOT NULL DEFAULT 1)`,
	"biz_order": `CREATE TABLE %s (` + bizBase + `, order_no VARCHAR(32))`,
	"biz_line":  `CREATE TABLE %s (` + bizBase + `, order_id BIGINT, item_id BIGINT, qty INT, note VARCHAR(20))`,
}

// bizResources declares the four resources on this run's tables.
func bizResources(tables map[string]string) []Registered {
	brand := New(Spec{Service: "blade-test", Name: "brand", Table: tables["biz_brand"], Label: i18n.T("品牌", "Brand"),
		MenuCode: "brand", DataScope: true, Unique: [][]string{{"brandCode"}}}, Hooks[bizBrand]{})
	setEffective := func(ctx context.Context, tx bun.Tx, item *Resource[bizItem], rows []*bizItem, req *CommandRequest) (any, error) {
		status, err := req.Int("effectiveStatus", 1, 2)
		if err != nil {
			return nil, err
		}
		return nil, item.SetFields(ctx, tx, rows, map[string]any{"isEffective": status})
	}
	item := New(Spec{Service: "blade-test", Name: "item", Table: tables["biz_item"], Label: i18n.T("物料", "Item"),
		MenuCode: "item", Unique: [][]string{{"itemCode"}}, DefaultOrder: "item_code ASC, id DESC",
		States: &StateRules{Field: "status", Initial: 1, Edit: []int{1, 4}, Remove: []int{1, 4, 5}},
		Views: []View{{Name: "selectItemVOPage", Paged: true, Joins: []Join{{Field: "brandId", Columns: []JoinColumn{
			{Name: "brandName", Column: "brand_name", Label: i18n.T("品牌名称", "Brand name"), Filter: "like", Sort: true},
			{Name: "brandCode", Column: "brand_code", Label: i18n.T("品牌编号", "Brand code"), Filter: "equal"},
		}}}}, {Name: "selectItemVOList", Joins: []Join{{Field: "brandId", Columns: []JoinColumn{
			{Name: "brandName", Column: "brand_name", Label: i18n.T("品牌名称", "Brand name")},
		}}}}},
		ListView: "selectItemVOPage",
		// effective items are a screen of their own, with its own buttons
		Screens: []Screen{{MenuCode: "live_item", Label: i18n.T("生效物料", "Live items"), ListView: "selectItemVOList", Fixed: map[string]string{"isEffective": "2"}}},
	}, Hooks[bizItem]{Commands: []Command[bizItem]{
		{Name: "approve", Label: i18n.T("审批", "Approve"), Button: "approve", From: &States{Field: "status", Values: []int{1, 4}},
			Run: func(ctx context.Context, tx bun.Tx, item *Resource[bizItem], rows []*bizItem, _ *CommandRequest) (any, error) {
				return nil, item.SetFields(ctx, tx, rows, map[string]any{"status": 3})
			}},
		{Name: "doEffective", Key: "effective", Label: i18n.T("生效", "Set effective"), Button: "effective", Params: map[string]string{"effectiveStatus": "2"},
			Run: setEffective},
		{Name: "doEffective", Key: "ineffective", Label: i18n.T("失效", "Set ineffective"), Button: "effective", Params: map[string]string{"effectiveStatus": "1"},
			Run: setEffective},
	}})
	line := New(Spec{Service: "blade-test", Name: "orderline", Table: tables["biz_line"], Label: i18n.T("明细", "Line"),
		Routes: []string{"list"}, DefaultOrder: "id ASC"}, Hooks[bizOrderLine]{})
	order := New(Spec{Service: "blade-test", Name: "order", Table: tables["biz_order"], Label: i18n.T("订单", "Order"),
		MenuCode: "order", Unique: [][]string{{"orderNo"}},
		Lines: &Lines{Field: "details", Child: line, Parent: "orderId", Max: 5}}, Hooks[bizOrder]{})
	return []Registered{brand, item, line, order}
}

func bizEnv(t *testing.T, fn func(t *testing.T, e *apiEnv)) {
	eachDB(t, bizDDL, bizResources, func(env *Env) {
		env.Scope = createdRows{}
		env.Buttons = testButtons{"clerk": {"item_approve": true},
			"a": {"item_approve": true, "item_effective": true, "live_item_approve": true, "live_item_effective": true}}
	}, fn)
}

// seedBiz makes, as admin a, two brands and three items; one brand is
// the clerk's own (its data scope shows the clerk only that one).
func seedBiz(e *apiEnv) (brands []bizBrand, items []bizItem) {
	for i, who := range []string{"a", "clerk"} {
		var b bizBrand
		e.ok(who, "POST", "/blade-test/brand/submit", map[string]any{"brandCode": fmt.Sprintf("B%d", i+1), "brandName": fmt.Sprintf("品牌%d", i+1)}, &b)
		brands = append(brands, b)
	}
	for i, code := range []string{"I003", "I001", "I002"} {
		var it bizItem
		e.ok("a", "POST", "/blade-test/item/submit", map[string]any{"itemCode": code, "itemName": "物料" + code, "brandId": brands[i%2].ID}, &it)
		items = append(items, it)
	}
	return brands, items
}

type bizPage struct {
	Records []bizItem `json:"records"`
	Total   int       `json:"total"`
}

func codes(items []bizItem) string {
	var out []string
	for _, it := range items {
		out = append(out, it.ItemCode+"/"+it.BrandName)
	}
	return strings.Join(out, ",")
}

// TestViewJoinsScopedColumns: the view answers each item with its brand's
// name, filters and sorts on it, and applies the joined table's own scope:
// a removed brand and, for the clerk, a brand outside its data scope read
// as empty; another tenant sees none of the rows.
func TestViewJoinsScopedColumns(t *testing.T) {
	bizEnv(t, func(t *testing.T, e *apiEnv) {
		brands, _ := seedBiz(e)
		var page bizPage
		page = bizPage{}
		e.ok("a", "GET", "/blade-test/item/selectItemVOPage?current=1&size=10", nil, &page)
		if got := codes(page.Records); got != "I001/品牌2,I002/品牌1,I003/品牌1" || page.Total != 3 {
			t.Fatalf("view rows %q (total %d)", got, page.Total)
		}
		if page.Records[0].BrandCode != "B2" {
			t.Errorf("second joined column: %+v", page.Records[0])
		}
		page = bizPage{}
		e.ok("a", "GET", "/blade-test/item/selectItemVOPage?brandName=2", nil, &page)
		if got := codes(page.Records); got != "I001/品牌2" || page.Total != 1 {
			t.Errorf("filter on a joined column: %q", got)
		}
		page = bizPage{}
		e.ok("a", "GET", "/blade-test/item/selectItemVOPage?descs=brandName&ascs=itemCode", nil, &page)
		if got := codes(page.Records); got != "I001/品牌2,I002/品牌1,I003/品牌1" {
			t.Errorf("sort on a joined column: %q", got)
		}
		// status is a column of both tables: the base row's is meant
		page = bizPage{}
		e.ok("a", "GET", "/blade-test/item/selectItemVOPage?status=1&brandCode=B1", nil, &page)
		if got := codes(page.Records); got != "I002/品牌1,I003/品牌1" {
			t.Errorf("filters on both tables: %q", got)
		}
		var list []bizItem
		e.ok("a", "GET", "/blade-test/item/selectItemVOList", nil, &list)
		if len(list) != 3 || list[0].BrandName == "" || list[0].BrandCode != "" {
			t.Errorf("list view: %+v", list)
		}
		// the clerk's data scope on brands shows only its own brand (品牌2)
		page = bizPage{}
		e.ok("clerk", "GET", "/blade-test/item/selectItemVOPage", nil, &page)
		if got := codes(page.Records); got != "I001/品牌2,I002/,I003/" {
			t.Errorf("joined columns outside the caller's data scope: %q", got)
		}
		e.ok("a", "POST", fmt.Sprintf("/blade-test/brand/remove?ids=%d", brands[0].ID), nil, nil)
		page = bizPage{}
		e.ok("a", "GET", "/blade-test/item/selectItemVOPage", nil, &page)
		if got := codes(page.Records); got != "I001/品牌2,I002/,I003/" {
			t.Errorf("a removed brand's name: %q", got)
		}
		page = bizPage{}
		e.ok("b", "GET", "/blade-test/item/selectItemVOPage", nil, &page)
		if page.Total != 0 || len(page.Records) != 0 {
			t.Errorf("another tenant sees %+v", page.Records)
		}
		e.refused(400, "a", "GET", "/blade-test/item/selectItemVOPage?descs=brandCode", nil)
	})
}

// TestViewMeta: views, their joined fields and the list view are in the metadata.
func TestViewMeta(t *testing.T) {
	res := bizResources(map[string]string{"biz_brand": "b", "biz_item": "i", "biz_order": "o", "biz_line": "l"})
	m := res[1].Meta()
	if m.ListView != "selectItemVOPage" || len(m.Views) != 2 || m.Views[0].Path != "/api/blade-test/item/selectItemVOPage" || !m.Views[0].Paged {
		t.Fatalf("views %+v", m.Views)
	}
	f := m.Views[0].Fields[0]
	if f.Name != "brandName" || !f.Joined || f.Filter != "like" || !f.Sortable || !f.Readonly {
		t.Errorf("joined field %+v", f)
	}
}

// TestStatesMeta: the metadata carries the state rules the server
// enforces, so the UI offers edit and remove only where they would pass;
// a resource without states sends none.
func TestStatesMeta(t *testing.T) {
	res := bizResources(map[string]string{"biz_brand": "b", "biz_item": "i", "biz_order": "o", "biz_line": "l"})
	item, err := json.Marshal(res[1].Meta())
	if err != nil {
		t.Fatal(err)
	}
	if want := `"states":{"field":"status","initial":1,"edit":[1,4],"remove":[1,4,5]}`; !strings.Contains(string(item), want) {
		t.Errorf("item metadata lacks %s: %s", want, item)
	}
	brand, _ := json.Marshal(res[0].Meta())
	if strings.Contains(string(brand), `"states"`) {
		t.Errorf("a resource without states sends state rules: %s", brand)
	}
}

// TestCommands: a command runs on the caller's visible rows only, checks
// its button on the server, refuses rows in the wrong state by name, and
// picks the declaration by its fixed params.
func TestCommands(t *testing.T) {
	bizEnv(t, func(t *testing.T, e *apiEnv) {
		_, items := seedBiz(e)
		approve := func(ids ...wire.ID) string {
			var s []string
			for _, id := range ids {
				s = append(s, id.String())
			}
			return "/blade-test/item/approve?ids=" + strings.Join(s, ",")
		}
		// another tenant's admin holds no button; the super user holds every one but sees tenant rows only in its tenant
		e.refused(403, "b", "POST", approve(items[0].ID), nil)
		e.refused(404, "super", "POST", approve(items[0].ID), nil)
		// one id that is not the caller's refuses the whole request
		var other bizBrand
		e.ok("b", "POST", "/blade-test/brand/submit", map[string]any{"brandCode": "X", "brandName": "X"}, &other)
		e.refused(404, "a", "POST", approve(items[0].ID, other.ID), nil)
		// the clerk holds approve but not effective
		e.refused(403, "clerk", "POST", fmt.Sprintf("/blade-test/item/doEffective?ids=%d&effectiveStatus=2", items[0].ID), nil)
		if n := e.count("biz_item", "status = 3 OR is_effective = 2"); n != 0 {
			t.Fatalf("%d rows changed by refused requests", n)
		}
		var msg string
		a := e.call("clerk", "POST", approve(items[0].ID), nil)
		if a.Status != 200 || !strings.Contains(a.Msg, "操作成功") {
			t.Fatalf("approve: %d %s", a.Status, a.Msg)
		}
		e.ok("a", "POST", approve(items[1].ID), nil, nil)
		if n := e.count("biz_item", "status = 3 AND version = 2 AND update_user IN (1, 3)"); n != 2 {
			t.Errorf("%d rows approved and stamped, want 2", n)
		}
		msg, _ = e.refused(400, "a", "POST", approve(items[2].ID, items[0].ID), nil)
		if msg != items[0].ItemCode+" 当前状态为「3」,不能审批" {
			t.Errorf("state refusal: %q", msg)
		}
		msg, _ = e.refused(400, "en:a", "POST", approve(items[0].ID), nil)
		if msg != items[0].ItemCode+" is 3: Approve is not allowed" {
			t.Errorf("state refusal in English: %q", msg)
		}
		if n := e.count("biz_item", "status = 3"); n != 2 {
			t.Errorf("a refused request changed rows: %d approved", n)
		}
		// the same name, two declarations told apart by their params
		e.ok("a", "POST", fmt.Sprintf("/blade-test/item/doEffective?ids=%d&effectiveStatus=2", items[2].ID), nil, nil)
		if n := e.count("biz_item", "is_effective = 2"); n != 1 {
			t.Errorf("effective: %d rows", n)
		}
		e.ok("a", "POST", fmt.Sprintf("/blade-test/item/doEffective?ids=%d&effectiveStatus=1", items[2].ID), nil, nil)
		e.refused(400, "a", "POST", fmt.Sprintf("/blade-test/item/doEffective?ids=%d&effectiveStatus=7", items[2].ID), nil)
		e.refused(400, "a", "POST", "/blade-test/item/approve", nil)
		e.refused(400, "a", "POST", "/blade-test/item/approve?ids=x", nil)
		e.refused(401, "nobody", "POST", approve(items[0].ID), nil)
	})
}

// TestScreens: a screen has its own metadata, and a command on a row of the
// screen needs the screen's button.
func TestScreens(t *testing.T) {
	bizEnv(t, func(t *testing.T, e *apiEnv) {
		_, items := seedBiz(e)
		e.ok("a", "POST", fmt.Sprintf("/blade-test/item/doEffective?ids=%d&effectiveStatus=2", items[0].ID), nil, nil)
		// the clerk holds item_approve, not live_item_approve
		e.refused(403, "clerk", "POST", fmt.Sprintf("/blade-test/item/approve?ids=%d", items[0].ID), nil)
		e.refused(403, "clerk", "POST", fmt.Sprintf("/blade-test/item/approve?ids=%d,%d", items[1].ID, items[0].ID), nil)
		if n := e.count("biz_item", "status = 3"); n != 0 {
			t.Fatalf("%d rows approved by refused requests", n)
		}
		e.ok("clerk", "POST", fmt.Sprintf("/blade-test/item/approve?ids=%d", items[1].ID), nil, nil)
		e.ok("a", "POST", fmt.Sprintf("/blade-test/item/approve?ids=%d", items[0].ID), nil, nil)
		var item *Resource[bizItem]
		for _, r := range bizResources(e.tables) {
			if x, ok := r.(*Resource[bizItem]); ok {
				item = x
			}
		}
		metas := item.ScreenMetas()
		if len(metas) != 1 || metas[0].MenuCode != "live_item" || metas[0].Fixed["isEffective"] != "2" || metas[0].ListView != "selectItemVOList" ||
			metas[0].Permissions["add"] != "live_item_add" || metas[0].Commands[0].Permission != "live_item_approve" || item.Meta().Commands[0].Permission != "item_approve" {
			t.Errorf("screen metadata %+v", metas)
		}
	})
}

// TestCommandMeta: commands are listed with their permission codes.
func TestCommandMeta(t *testing.T) {
	res := bizResources(map[string]string{"biz_brand": "b", "biz_item": "i", "biz_order": "o", "biz_line": "l"})
	cs := res[1].Meta().Commands
	if len(cs) != 3 || cs[0].Permission != "item_approve" || cs[0].From == nil || cs[0].Path != "/api/blade-test/item/approve" ||
		cs[1].Key != "effective" || cs[2].Params["effectiveStatus"] != "1" || !cs[0].Row || !cs[0].Toolbar {
		t.Fatalf("commands %+v", cs)
	}
}

// TestLines: lines are saved with the parent by diff, validated line by
// line, loaded by detail, confined to their parent and tenant, and removed
// with it.
func TestLines(t *testing.T) {
	bizEnv(t, func(t *testing.T, e *apiEnv) {
		_, items := seedBiz(e)
		var o bizOrder
		e.ok("a", "POST", "/blade-test/order/submit", map[string]any{"orderNo": "O1", "details": []map[string]any{
			{"itemId": items[0].ID, "qty": 1}, {"itemId": items[1].ID, "qty": 2, "note": "n2"}, {"itemId": items[2].ID, "qty": 3},
		}}, &o)
		if len(o.Details) != 3 || o.Details[1].Note != "n2" || o.Details[0].OrderID != o.ID || o.Details[0].TenantID != "100001" {
			t.Fatalf("saved lines %+v", o.Details)
		}
		// keep line 1 with a new qty, drop line 2, keep line 3 untouched, add one
		e.ok("a", "POST", "/blade-test/order/submit", map[string]any{"id": o.ID, "version": o.Version, "details": []map[string]any{
			{"id": o.Details[0].ID, "qty": 10}, {"id": o.Details[2].ID}, {"itemId": items[1].ID, "qty": 4},
		}}, nil)
		var got bizOrder
		e.ok("a", "GET", fmt.Sprintf("/blade-test/order/detail?id=%d", o.ID), nil, &got)
		if len(got.Details) != 3 || got.Details[0].ID != o.Details[0].ID || got.Details[0].Qty != 10 || got.Details[0].ItemID != items[0].ID ||
			got.Details[1].ID != o.Details[2].ID || got.Details[1].Qty != 3 || got.Details[2].Qty != 4 {
			t.Fatalf("lines after the edit %+v", got.Details)
		}
		if n := e.count("biz_line", "order_id = ? AND is_deleted = 1", o.ID); n != 1 {
			t.Errorf("%d lines removed, want 1", n)
		}
		// an edit without details leaves the lines alone
		e.ok("a", "POST", "/blade-test/order/submit", map[string]any{"id": o.ID, "version": got.Version, "orderNo": "O1b"}, &got)
		if len(got.Details) != 3 {
			t.Errorf("an edit without details changed the lines: %+v", got.Details)
		}
		// validation: every message names its line
		msg, fields := e.refused(400, "a", "POST", "/blade-test/order/submit", map[string]any{"orderNo": "O2", "details": []map[string]any{
			{"itemId": items[0].ID, "qty": 1}, {"itemId": items[0].ID, "qty": 0},
		}})
		if msg != "第2行: 数量不能小于1" || fields["details[1].qty"] != "数量不能小于1" {
			t.Errorf("line validation: %q %v", msg, fields)
		}
		msg, _ = e.refused(400, "a", "POST", "/blade-test/order/submit", map[string]any{"orderNo": "O2", "details": []map[string]any{{"itemId": items[0].ID, "qty": 1001}}})
		if msg != "第1行: 数量不能大于1000" {
			t.Errorf("an integer above its max: %q", msg)
		}
		msg, _ = e.refused(400, "en:a", "POST", "/blade-test/order/submit", map[string]any{"orderNo": "O2", "details": []map[string]any{{"qty": 1}}})
		if msg != "Line 1: Please enter item" {
			t.Errorf("line validation in English: %q", msg)
		}
		// a line may not point at another tenant's item, nor take over another order's line
		var theirs bizItem
		e.ok("b", "POST", "/blade-test/item/submit", map[string]any{"itemCode": "T1", "itemName": "T1"}, &theirs)
		msg, fields = e.refused(400, "a", "POST", "/blade-test/order/submit", map[string]any{"orderNo": "O3", "details": []map[string]any{
			{"itemId": items[0].ID, "qty": 1}, {"itemId": theirs.ID, "qty": 1},
		}})
		if !strings.HasPrefix(msg, "第2行: 物料") || fields["details[1].itemId"] == "" {
			t.Errorf("a line referencing another tenant's row: %q %v", msg, fields)
		}
		var o2 bizOrder
		e.ok("a", "POST", "/blade-test/order/submit", map[string]any{"orderNo": "O4", "details": []map[string]any{{"itemId": items[0].ID, "qty": 1}}}, &o2)
		msg, _ = e.refused(400, "a", "POST", "/blade-test/order/submit", map[string]any{"id": o2.ID, "version": o2.Version, "details": []map[string]any{
			{"id": got.Details[0].ID, "qty": 99},
		}})
		if msg != "第1行: 明细不属于本单据" {
			t.Errorf("a line of another order: %q", msg)
		}
		e.refused(400, "a", "POST", "/blade-test/order/submit", map[string]any{"orderNo": "O5", "details": []map[string]any{
			{"itemId": items[0].ID, "qty": 1}, {"itemId": items[0].ID, "qty": 1}, {"itemId": items[0].ID, "qty": 1},
			{"itemId": items[0].ID, "qty": 1}, {"itemId": items[0].ID, "qty": 1}, {"itemId": items[0].ID, "qty": 1},
		}})
		e.refused(400, "a", "POST", "/blade-test/order/submit", `{"orderNo":"O6","details":{"qty":1}}`)
		if n := e.count("biz_order", "order_no IN ('O2','O3','O5','O6')"); n != 0 {
			t.Errorf("%d refused orders were saved", n)
		}
		// another tenant can neither read nor edit the order or its lines
		e.refused(404, "b", "GET", fmt.Sprintf("/blade-test/order/detail?id=%d", o.ID), nil)
		e.refused(404, "b", "POST", "/blade-test/order/submit", map[string]any{"id": o.ID, "version": got.Version, "details": []map[string]any{}})
		var lines struct{ Records []bizOrderLine }
		e.ok("b", "GET", "/blade-test/orderline/list", nil, &lines)
		if len(lines.Records) != 0 {
			t.Errorf("another tenant lists %d lines", len(lines.Records))
		}
		// removing the order removes its lines
		e.ok("a", "POST", fmt.Sprintf("/blade-test/order/remove?ids=%d", o.ID), nil, nil)
		if n := e.count("biz_line", "order_id = ? AND is_deleted = 0", o.ID); n != 0 {
			t.Errorf("%d lines outlived their order", n)
		}
		if n := e.count("biz_line", "order_id = ? AND is_deleted = 0", o2.ID); n != 1 {
			t.Errorf("another order's lines: %d", n)
		}
		// a line's own routes answer only lines of orders the caller may
		// read: an order gone by any path takes its lines out of sight
		lines.Records = nil
		e.ok("a", "GET", "/blade-test/orderline/list", nil, &lines)
		if len(lines.Records) != 1 {
			t.Fatalf("lines of the live order: %+v", lines.Records)
		}
		if _, err := e.db.NewUpdate().Table(e.tables["biz_order"]).Set("is_deleted = 1").Where("id = ?", o2.ID).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		lines.Records = nil
		e.ok("a", "GET", "/blade-test/orderline/list", nil, &lines)
		if len(lines.Records) != 0 {
			t.Errorf("lines of a removed order listed: %+v", lines.Records)
		}
	})
}

// TestLinesMeta: the parent's metadata carries the lines' own.
func TestLinesMeta(t *testing.T) {
	res := bizResources(map[string]string{"biz_brand": "b", "biz_item": "i", "biz_order": "o", "biz_line": "l"})
	l := res[3].Meta().Lines
	if l == nil || l.Field != "details" || l.Meta.Field("qty") == nil || l.Label.Zh != "明细" {
		t.Fatalf("lines meta %+v", l)
	}
}

// testNumbers issues "<bizType>-<n>" from a counter that a test may move back.
type testNumbers struct {
	next   map[string]int
	manual bool
}

func (n *testNumbers) Next(_ context.Context, _ bun.IDB, _ string, bizType string, fields func(string) string) (string, error) {
	if _, ok := n.next[bizType]; !ok {
		return "", fmt.Errorf("%w for %s", ErrNoNumberRule, bizType)
	}
	n.next[bizType]++
	return fmt.Sprintf("%s-%s-%d", bizType, fields("itemName"), n.next[bizType]), nil
}

func (n *testNumbers) ManualAllowed(context.Context, bun.IDB, string, string) (bool, error) {
	return n.manual, nil
}

// TestNumberIssued: an empty number is issued on insert, a typed one kept
// only where the rule allows, a number found taken is replaced by the next,
// and with no rule the field is simply required.
func TestNumberIssued(t *testing.T) {
	nums := &testNumbers{next: map[string]int{}}
	declare := func(tables map[string]string) []Registered {
		return []Registered{New(Spec{Service: "blade-test", Name: "item", Table: tables["biz_item"], Label: i18n.T("物料", "Item"),
			Unique: [][]string{{"itemCode"}}, Number: &Number{Field: "itemCode", BizType: "MAT", Manual: true},
			Lookup: &Lookup{URL: "/api/blade-test/item/list", CodeField: "itemCode", LabelField: "itemName"}}, Hooks[bizItem]{})}
	}
	eachDB(t, bizDDL, declare, func(env *Env) { env.Numbers = nums }, func(t *testing.T, e *apiEnv) {
		nums.next, nums.manual = map[string]int{}, false
		_, fields := e.refused(400, "a", "POST", "/blade-test/item/submit", map[string]any{"itemName": "x"})
		if fields["itemCode"] != "请输入物料编号" {
			t.Errorf("no rule, no code: %v", fields)
		}
		nums.next["MAT"] = 0
		var it bizItem
		e.ok("a", "POST", "/blade-test/item/submit", map[string]any{"itemName": "x"}, &it)
		if it.ItemCode != "MAT-x-1" {
			t.Errorf("issued %q", it.ItemCode)
		}
		msg, _ := e.refused(400, "a", "POST", "/blade-test/item/submit", map[string]any{"itemName": "y", "itemCode": "HAND-1"})
		if msg != "物料编号由编码规则生成,不能手工填写" {
			t.Errorf("typed where the rule forbids: %q", msg)
		}
		nums.manual = true
		e.ok("a", "POST", "/blade-test/item/submit", map[string]any{"itemName": "y", "itemCode": "HAND-1"}, &it)
		if it.ItemCode != "HAND-1" {
			t.Errorf("typed number %q", it.ItemCode)
		}
		e.ok("a", "POST", "/blade-test/item/submit", map[string]any{"itemName": "x"}, &it)
		nums.next["MAT"] = 0 // an administrator set the counter back
		e.ok("a", "POST", "/blade-test/item/submit", map[string]any{"itemName": "x"}, &it)
		if it.ItemCode != "MAT-x-3" {
			t.Errorf("after the counter went back: %q, want the next free number", it.ItemCode)
		}
		// the keyword search of the lookup: code or name
		var page bizPage
		e.ok("a", "GET", "/blade-test/item/list?keyword=hand", nil, &page)
		if len(page.Records) != 1 || page.Records[0].ItemCode != "HAND-1" {
			t.Errorf("keyword on the code: %+v", page.Records)
		}
		page = bizPage{}
		e.ok("a", "GET", "/blade-test/item/list?keyword=y", nil, &page)
		if len(page.Records) != 1 {
			t.Errorf("keyword on the name: %+v", page.Records)
		}
		page = bizPage{}
		e.ok("a", "GET", "/blade-test/item/list?keyword=%25", nil, &page)
		if len(page.Records) != 0 {
			t.Errorf("a LIKE wildcard in the keyword matched %d rows", len(page.Records))
		}
	})
}

// TestStates: the state moves only by commands; edits and removals are
// refused, by row and state, outside the states declared for them.
func TestStates(t *testing.T) {
	bizEnv(t, func(t *testing.T, e *apiEnv) {
		_, items := seedBiz(e)
		var it bizItem
		e.ok("a", "POST", "/blade-test/item/submit", map[string]any{"itemCode": "S1", "itemName": "s", "status": 3}, &it)
		if it.Status != 1 || e.count("biz_item", "item_code = 'S1' AND status = 1") != 1 {
			t.Fatalf("a new row sent as approved is stored in state %d", it.Status)
		}
		e.ok("a", "POST", "/blade-test/item/submit", map[string]any{"id": it.ID, "version": it.Version, "status": 3, "itemName": "s2"}, &it)
		if it.Status != 1 || it.ItemName != "s2" {
			t.Errorf("an edit moved the state: %+v", it)
		}
		e.ok("a", "POST", fmt.Sprintf("/blade-test/item/approve?ids=%d", items[0].ID), nil, nil)
		msg, _ := e.refused(400, "a", "POST", "/blade-test/item/submit", map[string]any{"id": items[0].ID, "version": 2, "itemName": "changed"})
		if msg != "I003 当前状态为「3」,不能修改" {
			t.Errorf("edit of an approved row: %q", msg)
		}
		msg, _ = e.refused(400, "a", "POST", fmt.Sprintf("/blade-test/item/remove?ids=%d,%d", items[1].ID, items[0].ID), nil)
		if msg != "I003 当前状态为「3」,不能删除" || e.count("biz_item", "is_deleted = 1") != 0 {
			t.Errorf("removal of an approved row: %q", msg)
		}
		e.ok("a", "POST", fmt.Sprintf("/blade-test/item/remove?ids=%d", items[1].ID), nil, nil)
	})
}
