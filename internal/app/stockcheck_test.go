package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/platform/wire"
)

const (
	checkPath       = "/api/bluebird-basic/checkmaterial"
	checkLinePath   = "/api/bluebird-basic/checkmaterialdetail"
	checkResultPath = "/api/bluebird-basic/materialstock/saveCheckResult"
)

func init() {
	boundReferences["bluebird-basic/checkmaterial.positionIds"] = "the positions to count lie in the check's warehouse"
	sampleOverrides["bluebird-basic/checkmaterial"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		return map[string]any{"warehouseId": newStockPlace(h.T, c).warehouse}
	}
	// a line's own submit without an id counts something found on a counting check
	sampleOverrides["bluebird-basic/checkmaterialdetail"] = func(h *apptest.H, c *apptest.Client) map[string]any {
		pl := newStockPlace(h.T, c)
		var chk stockCheck
		c.PostJSON(checkPath+"/submit", map[string]any{"warehouseId": pl.warehouse}).OK(h.T, &chk)
		c.Post(checkPath+"/startCount", apptest.Q("ids", chk.ID)).OK(h.T, nil)
		return map[string]any{"mainId": chk.ID, "materialId": pl.material, "positionId": pl.position, "actualQty": "1"}
	}
}

type stockCheck struct {
	ID          string          `json:"id"`
	Version     int             `json:"version"`
	DocNo       string          `json:"docNo"`
	Status      int             `json:"status"`
	CheckStatus int             `json:"checkStatus"`
	StartTime   *string         `json:"startTime"`
	FinishTime  *string         `json:"finishTime"`
	GainQty     *string         `json:"gainQty"`
	LossQty     *string         `json:"lossQty"`
	GainAmount  *string         `json:"gainAmount"`
	LossAmount  *string         `json:"lossAmount"`
	Details     []stockCheckRow `json:"details"`
}

type stockCheckRow struct {
	ID         string  `json:"id"`
	Version    int     `json:"version"`
	MaterialID string  `json:"materialId"`
	PositionID string  `json:"positionId"`
	BookQty    *string `json:"bookQty"`
	ActualQty  *string `json:"actualQty"`
	DiffQty    *string `json:"diffQty"`
	UnitCost   *string `json:"unitCost"`
	DiffAmount *string `json:"diffAmount"`
	IsAdded    int     `json:"isAdded"`
	Reason     string  `json:"reason"`
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// checkLine finds the check's line of a material.
func checkLine(t *testing.T, chk stockCheck, material string) stockCheckRow {
	t.Helper()
	for _, d := range chk.Details {
		if d.MaterialID == material {
			return d
		}
	}
	t.Fatalf("no line of %s in %+v", material, chk.Details)
	return stockCheckRow{}
}

// checkReceive posts a receipt of qty at price into the place; it answers
// the refusal when the posting is refused (status 400), "" when posted.
func checkReceive(t *testing.T, c *apptest.Client, pl stockPlace, material, qty, price string) string {
	t.Helper()
	var in receipt
	c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": pl.warehouse, "supplierId": pl.supplier,
		"details": []map[string]any{{"materialId": material, "qty": qty, "positionId": pl.position, "unitPrice": price}}}).OK(t, &in)
	c.Post(inPath+"/startProcess", apptest.Q("ids", in.ID)).OK(t, nil)
	r := c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", in.ID))
	if r.Status == 200 {
		return ""
	}
	return r.Fail(t, 400)
}

func checkMaterial(t *testing.T, c *apptest.Client, code string) string {
	t.Helper()
	var m struct {
		ID string `json:"id"`
	}
	c.PostJSON(basic+"material/submit", map[string]any{"materialCode": code + randomWord(4), "materialName": "料" + code, "unit": "pcs"}).OK(t, &m)
	return m.ID
}

func checkDB(t *testing.T, h *apptest.H, query string, args ...any) []string {
	t.Helper()
	var out []string
	if err := h.App.DB.NewRaw(query, args...).Scan(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func checkBalance(t *testing.T, h *apptest.H, material string) string {
	t.Helper()
	id, _ := wire.ParseID(material)
	return strings.Join(checkDB(t, h, "SELECT qty FROM bb_stock_balance WHERE item_id = ?", id), ",")
}

// TestMaterialCheck: a count snapshots the stock, freezes the warehouse,
// records gains, losses and found stock (blind to counters), and once
// approved posts exactly its differences; voided, it reverses them.
func TestMaterialCheck(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		tenant, c := h.NewTenant("Count Co")
		pl := newStockPlace(t, c)
		m2 := checkMaterial(t, c, "B")
		m3 := checkMaterial(t, c, "C")
		if msg := checkReceive(t, c, pl, pl.material, "10", "2"); msg != "" {
			t.Fatal(msg)
		}
		if msg := checkReceive(t, c, pl, m2, "5", "4"); msg != "" {
			t.Fatal(msg)
		}

		// refusals of the draft
		if msg := c.PostJSON(checkPath+"/submit", map[string]any{"warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": pl.material, "positionId": pl.position, "bookQty": "1"}}}).Fail(t, 400); msg != "盘点明细由开始盘点和盘点结果生成, 不能直接编辑" {
			t.Errorf("lines by hand: %q", msg)
		}
		if msg := c.PostJSON(checkPath+"/submit", map[string]any{"warehouseId": pl.warehouse, "materialScope": 2}).Fail(t, 400); msg != "暂不支持按分类盘点, 请选择全部物料或指定物料" {
			t.Errorf("category scope: %q", msg)
		}
		other := newStockPlace(t, c)
		if msg := c.PostJSON(checkPath+"/submit", map[string]any{"warehouseId": pl.warehouse, "positionIds": other.position}).Fail(t, 400); msg != "盘点库位不属于所选仓库" {
			t.Errorf("a position of another warehouse: %q", msg)
		}
		var chk stockCheck
		c.PostJSON(checkPath+"/submit", map[string]any{"warehouseId": pl.warehouse, "blindCount": 2, "status": 3}).OK(t, &chk)
		if !strings.HasPrefix(chk.DocNo, "MCK") || chk.CheckStatus != 1 || chk.Status != 1 || len(chk.Details) != 0 {
			t.Fatalf("new check %+v", chk)
		}
		if msg := c.PostJSON(checkResultPath, map[string]any{"id": chk.ID, "lines": []any{}}).Fail(t, 400); !strings.Contains(msg, chk.DocNo) || !strings.Contains(msg, "草稿") {
			t.Errorf("counting a draft: %q", msg)
		}
		if msg := c.Post(checkPath+"/startProcess", apptest.Q("ids", chk.ID)).Fail(t, 400); !strings.Contains(msg, "草稿") {
			t.Errorf("approving a draft count: %q", msg)
		}

		// a lock in scope refuses the count
		var issue struct {
			ID string `json:"id"`
		}
		c.PostJSON("/api/bluebird-basic/materialoutrecordmain/addOtherOutRecord", map[string]any{"outType": 3, "otherReason": 1, "warehouseId": pl.warehouse,
			"details": []map[string]any{{"materialId": m2, "qty": "1", "positionId": pl.position}}}).OK(t, &issue)
		c.Post("/api/bluebird-basic/materialoutrecordmain/startProcess", apptest.Q("ids", issue.ID)).OK(t, nil)
		if msg := c.Post(checkPath+"/startCount", apptest.Q("ids", chk.ID)).Fail(t, 400); !strings.Contains(msg, "被单据锁定") || !strings.Contains(msg, "1.000000") {
			t.Errorf("a count over locked stock: %q", msg)
		}
		c.Post("/api/bluebird-basic/materialoutrecordmain/cancellation", apptest.Q("ids", issue.ID)).OK(t, nil)

		// the count starts: lines snapshot the book
		c.Post(checkPath+"/startCount", apptest.Q("ids", chk.ID)).OK(t, nil)
		c.Get(checkPath+"/detail", apptest.Q("id", chk.ID)).OK(t, &chk)
		if chk.CheckStatus != 2 || chk.StartTime == nil || len(chk.Details) != 2 {
			t.Fatalf("counting check %+v", chk)
		}
		l1, l2 := checkLine(t, chk, pl.material), checkLine(t, chk, m2)
		if str(l1.BookQty) != "10.000000" || str(l1.UnitCost) != "2.000000" || l1.ActualQty != nil || l1.IsAdded != 1 ||
			str(l2.BookQty) != "5.000000" || str(l2.UnitCost) != "4.000000" {
			t.Errorf("snapshot lines %+v %+v", l1, l2)
		}
		c.Post(checkPath+"/startCount", apptest.Q("ids", chk.ID)).Fail(t, 400)
		// a second count over the same warehouse is refused
		var second stockCheck
		c.PostJSON(checkPath+"/submit", map[string]any{"warehouseId": pl.warehouse}).OK(t, &second)
		if msg := c.Post(checkPath+"/startCount", apptest.Q("ids", second.ID)).Fail(t, 400); !strings.Contains(msg, chk.DocNo) {
			t.Errorf("an overlapping count: %q", msg)
		}

		// the frozen warehouse takes no receipt
		if msg := checkReceive(t, c, pl, pl.material, "1", "2"); !strings.Contains(msg, "正在盘点") {
			t.Errorf("a receipt into the counted warehouse: %q", msg)
		}
		late := checkDB(t, h, "SELECT id FROM bb_material_in WHERE tenant_id = ? AND status = 3 AND stock_status = 1", tenant)
		if len(late) != 1 {
			t.Fatalf("the refused receipt: %v", late)
		}

		// a counter: the 盘点结果 button, not the set-up
		var depts []map[string]any
		c.Get("/api/blade-system/dept/list", nil).OK(t, &depts)
		role := newRole(t, c, "盘点员", "counter")
		newUser(t, c, "counter1", castPassword, role, depts[0]["id"].(string))
		counter := h.Login(tenant, "counter1", castPassword)
		menus := soMenuIDs(t, c)
		c.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{role},
			"menuIds": []string{menus["stock"], menus["material_check"], menus["material_check_view"]}}).OK(t, nil)
		counter.PostJSON(checkResultPath, map[string]any{"id": chk.ID, "lines": []map[string]any{{"detailId": l1.ID, "actualQty": "12"}}}).Fail(t, 403)
		c.PostJSON("/api/blade-system/role/grant", map[string]any{"roleIds": []string{role},
			"menuIds": []string{menus["stock"], menus["material_check"], menus["material_check_view"], menus["material_check_check"]}}).OK(t, nil)

		// blind: the counter sees no book quantity, the supervisor does
		var blind stockCheck
		counter.Get(checkPath+"/detail", apptest.Q("id", chk.ID)).OK(t, &blind)
		if len(blind.Details) != 2 || blind.Details[0].BookQty != nil || blind.Details[1].BookQty != nil {
			t.Errorf("a counter sees the book: %+v", blind.Details)
		}
		var blindLines page[stockCheckRow]
		counter.Get(checkLinePath+"/list", apptest.Q("mainId", chk.ID)).OK(t, &blindLines)
		if len(blindLines.Records) != 2 || blindLines.Records[0].BookQty != nil {
			t.Errorf("a counter lists the book: %+v", blindLines.Records)
		}
		var oneLine stockCheckRow
		counter.Get(checkLinePath+"/detail", apptest.Q("id", l1.ID)).OK(t, &oneLine)
		if oneLine.BookQty != nil {
			t.Errorf("a counter reads the book of a line: %+v", oneLine)
		}

		// counting: refusals, then a gain and a found material
		if msg := counter.PostJSON(checkResultPath, map[string]any{"id": chk.ID, "lines": []map[string]any{{"detailId": l1.ID, "actualQty": "-1"}}}).Fail(t, 400); msg != "第1行: 实盘数量不能小于0" {
			t.Errorf("a negative count: %q", msg)
		}
		if msg := counter.PostJSON(checkResultPath, map[string]any{"id": chk.ID, "lines": []map[string]any{{"detailId": second.ID, "actualQty": "1"}}}).Fail(t, 400); msg != "第1行: 明细不属于本盘点单" {
			t.Errorf("a line of another check: %q", msg)
		}
		if msg := counter.PostJSON(checkResultPath, map[string]any{"id": chk.ID, "lines": []map[string]any{{"materialId": m3, "positionId": other.position, "actualQty": "1"}}}).Fail(t, 400); msg != "第1行: 库位不在本次盘点范围内" {
			t.Errorf("a count elsewhere: %q", msg)
		}
		counter.PostJSON(checkResultPath, map[string]any{}).Fail(t, 400)
		counter.PostJSON(checkResultPath, map[string]any{"id": "x"}).Fail(t, 400)
		var saved stockCheck
		counter.PostJSON(checkResultPath, map[string]any{"id": chk.ID, "lines": []map[string]any{
			{"detailId": l1.ID, "actualQty": "12"},
			{"materialId": m3, "positionId": pl.position, "actualQty": "2", "reason": "未入账"},
		}}).OK(t, &saved)
		if saved.CheckStatus != 2 || len(saved.Details) != 3 || checkLine(t, saved, m3).BookQty != nil || str(checkLine(t, saved, pl.material).ActualQty) != "12.000000" {
			t.Errorf("after the first count (as the counter sees it) %+v", saved)
		}
		if msg := counter.PostJSON(checkResultPath, map[string]any{"id": chk.ID, "finish": true}).Fail(t, 400); msg != "还有 1 行未盘点, 请录入实盘数量, 或选择未盘按0处理" {
			t.Errorf("finishing with a line uncounted: %q", msg)
		}
		// the loss through the line's own submit
		var counted stockCheckRow
		counter.PostJSON(checkLinePath+"/submit", map[string]any{"id": l2.ID, "version": l2.Version, "actualQty": "3.5", "reason": "破损"}).OK(t, &counted)
		if str(counted.ActualQty) != "3.500000" || counted.BookQty != nil {
			t.Errorf("a line counted on its own %+v", counted)
		}
		c.Get(checkPath+"/detail", apptest.Q("id", chk.ID)).OK(t, &chk)
		a1, a2, a3 := checkLine(t, chk, pl.material), checkLine(t, chk, m2), checkLine(t, chk, m3)
		if str(a1.DiffQty) != "2.000000" || str(a1.DiffAmount) != "4.0000" || str(a2.DiffQty) != "-1.500000" || str(a2.DiffAmount) != "-6.0000" || a2.Reason != "破损" ||
			a3.IsAdded != 2 || str(a3.BookQty) != "0.000000" || str(a3.DiffQty) != "2.000000" || a3.UnitCost != nil || a3.Reason != "未入账" {
			t.Errorf("counted lines %+v %+v %+v", a1, a2, a3)
		}
		// an added line can go again; a snapshot line cannot
		if msg := counter.Post(checkLinePath+"/remove", apptest.Q("ids", a1.ID)).Fail(t, 400); msg != "只能删除盘点中新增的明细" {
			t.Errorf("removing a snapshot line: %q", msg)
		}

		// finished: unfrozen, totalled
		counter.PostJSON(checkResultPath, map[string]any{"id": chk.ID, "finish": true}).OK(t, &chk)
		if chk.CheckStatus != 3 || chk.FinishTime == nil || str(chk.GainQty) != "4.000000" || str(chk.LossQty) != "1.500000" ||
			str(chk.GainAmount) != "4.0000" || str(chk.LossAmount) != "6.0000" || str(checkLine(t, chk, pl.material).BookQty) != "10.000000" {
			t.Errorf("finished check %+v", chk)
		}
		if n := checkDB(t, h, "SELECT id FROM bb_stock_freeze WHERE tenant_id = ?", tenant); len(n) != 0 {
			t.Errorf("freezes left: %v", n)
		}
		counter.PostJSON(checkResultPath, map[string]any{"id": chk.ID, "lines": []map[string]any{{"detailId": l1.ID, "actualQty": "1"}}}).Fail(t, 400)
		// stock moved after the count is kept: the held receipt posts now
		c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", late[0])).OK(t, nil)

		// approved: the differences are posted at once
		c.Post(checkPath+"/startProcess", apptest.Q("ids", chk.ID)).OK(t, nil)
		c.Get(checkPath+"/detail", apptest.Q("id", chk.ID)).OK(t, &chk)
		if chk.CheckStatus != 4 || chk.Status != 3 {
			t.Errorf("adjusted check %+v", chk)
		}
		ledger := checkDB(t, h, "SELECT item_code || ' ' || tx_type || ' ' || qty || ' ' || unit_cost || ' ' || amount FROM bb_stock_ledger WHERE tenant_id = ? AND biz_type = 'MATERIAL_CHECK' ORDER BY tx_type, qty", tenant)
		code := func(id string) string {
			i, _ := wire.ParseID(id)
			return checkDB(t, h, "SELECT material_code FROM bb_material WHERE id = ?", i)[0]
		}
		want := []string{code(m3) + " 9 2.000000 0.000000 0.000000", code(pl.material) + " 9 2.000000 2.000000 4.000000", code(m2) + " 10 -1.500000 4.000000 -6.000000"}
		if strings.Join(ledger, "|") != strings.Join(want, "|") && strings.Join(ledger, "|") != strings.Join([]string{want[1], want[0], want[2]}, "|") {
			t.Errorf("ledger %q, want %q", ledger, want)
		}
		if b1, b2, b3 := checkBalance(t, h, pl.material), checkBalance(t, h, m2), checkBalance(t, h, m3); b1 != "13.000000" || b2 != "3.500000" || b3 != "2.000000" {
			t.Errorf("balances after the adjustment %s %s %s", b1, b2, b3)
		}
		c.Post(checkPath+"/startProcess", apptest.Q("ids", chk.ID)).Fail(t, 400)

		// voided after the adjustment: reversed
		c.Post(checkPath+"/cancellation", apptest.Q("ids", chk.ID)).OK(t, nil)
		c.Get(checkPath+"/detail", apptest.Q("id", chk.ID)).OK(t, &chk)
		if chk.CheckStatus != 5 || chk.Status != 5 {
			t.Errorf("voided check %+v", chk)
		}
		if b1, b2, b3 := checkBalance(t, h, pl.material), checkBalance(t, h, m2), checkBalance(t, h, m3); b1 != "11.000000" || b2 != "5.000000" || b3 != "0.000000" {
			t.Errorf("balances after the void %s %s %s", b1, b2, b3)
		}
		if n := checkDB(t, h, "SELECT id FROM bb_stock_ledger WHERE tenant_id = ? AND biz_type = 'MATERIAL_CHECK' AND is_reversal = 1", tenant); len(n) != 3 {
			t.Errorf("reversal rows %v", n)
		}

		// a counting check voided lets go of the warehouse
		c.Post(checkPath+"/startCount", apptest.Q("ids", second.ID)).OK(t, nil)
		if msg := checkReceive(t, c, pl, m2, "1", "4"); !strings.Contains(msg, "正在盘点") {
			t.Errorf("a receipt during the second count: %q", msg)
		}
		c.Post(checkPath+"/cancellation", apptest.Q("ids", second.ID)).OK(t, nil)
		if msg := checkReceive(t, c, pl, m2, "1", "4"); msg != "" {
			t.Errorf("a receipt after the void of the count: %q", msg)
		}
		c.Post(checkPath+"/startCount", apptest.Q("ids", second.ID)).Fail(t, 400)

		// a scoped check counts its positions only; a list check its materials only
		var scoped stockCheck
		c.PostJSON(checkPath+"/submit", map[string]any{"warehouseId": pl.warehouse, "materialScope": 3, "materialIds": m2, "positionIds": pl.position}).OK(t, &scoped)
		c.Post(checkPath+"/startCount", apptest.Q("ids", scoped.ID)).OK(t, nil)
		c.Get(checkPath+"/detail", apptest.Q("id", scoped.ID)).OK(t, &scoped)
		if len(scoped.Details) != 1 || scoped.Details[0].MaterialID != m2 || str(scoped.Details[0].BookQty) != "6.000000" {
			t.Errorf("a list check's lines %+v", scoped.Details)
		}
		if msg := c.PostJSON(checkResultPath, map[string]any{"id": scoped.ID, "lines": []map[string]any{{"materialId": pl.material, "positionId": pl.position, "actualQty": "1"}}}).Fail(t, 400); msg != "第1行: 物料不存在或不在本次盘点范围内" {
			t.Errorf("a material outside the list: %q", msg)
		}

		// another tenant reaches none of it
		_, b := h.NewTenant("Other Count Co")
		b.Get(checkPath+"/detail", apptest.Q("id", scoped.ID)).Fail(t, 404)
		b.Post(checkPath+"/cancellation", apptest.Q("ids", scoped.ID)).Fail(t, 404)
		b.PostJSON(checkResultPath, map[string]any{"id": scoped.ID, "finish": true, "uncountedAsZero": true}).Fail(t, 404)
		b.Get(checkLinePath+"/detail", apptest.Q("id", scoped.Details[0].ID)).Fail(t, 404)
		b.PostJSON(checkLinePath+"/submit", map[string]any{"id": scoped.Details[0].ID, "version": 1, "actualQty": "0"}).Fail(t, 404)
		b.PostJSON(checkLinePath+"/submit", map[string]any{"mainId": scoped.ID, "materialId": m2, "positionId": pl.position, "actualQty": "0"}).Fail(t, 404)
		var theirs page[stockCheckRow]
		b.Get(checkLinePath+"/list", apptest.Q("mainId", scoped.ID)).OK(t, &theirs)
		if theirs.Total != 0 {
			t.Errorf("another tenant lists %d check lines", theirs.Total)
		}
		// uncounted as zero finishes the scoped check with a loss of everything
		c.PostJSON(checkResultPath, map[string]any{"id": scoped.ID, "finish": true, "uncountedAsZero": true}).OK(t, &scoped)
		if scoped.CheckStatus != 3 || str(scoped.LossQty) != "6.000000" || str(scoped.GainQty) != "0.000000" {
			t.Errorf("finished as zero %+v", scoped)
		}
	})
}

// TestMaterialCheckEndpoints: every stocktaking endpoint of endpoints.txt is
// routed, answers an empty or malformed request with a 4xx, and
// saveCheckResult wants a login.
func TestMaterialCheckEndpoints(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Count Endpoints Co")
		for _, ep := range [][2]string{
			{"GET", checkPath + "/list"}, {"GET", checkPath + "/detail"}, {"POST", checkPath + "/remove"}, {"POST", checkPath + "/submit"},
			{"GET", checkLinePath + "/list"}, {"GET", checkLinePath + "/detail"}, {"POST", checkLinePath + "/remove"}, {"POST", checkLinePath + "/submit"},
			{"POST", checkResultPath},
		} {
			method, path := ep[0], ep[1]
			r, ok := routed(c, method, path)
			if !ok {
				t.Errorf("%s %s is not routed (%d)", method, path, r.Status)
				continue
			}
			if method == "POST" && (r.Status < 400 || r.Status >= 500) {
				t.Errorf("%s %s empty: %d %s", method, path, r.Status, r.Body)
			}
			if r.Status >= 500 {
				t.Errorf("%s %s empty: %d %s", method, path, r.Status, r.Body)
			}
			mal := path + "?id=x&ids=1,,zz&current=-1&size=abc&mainId=%25"
			if method == "POST" {
				r = c.Do(method, mal, strings.NewReader(`{"id": [1, 2}`), nil)
			} else {
				r = c.Do(method, mal, nil, nil)
			}
			if r.Status < 400 || r.Status >= 500 {
				t.Errorf("%s %s malformed: %d %s", method, path, r.Status, r.Body)
			}
		}
		if r := h.Anon().PostJSON(checkResultPath, map[string]any{"id": "1"}); r.Status != 401 {
			t.Errorf("saveCheckResult without a login: %d", r.Status)
		}
	})
}
