package app_test

import (
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// TestMaterialStockKeptTotal: the stock page's total, answered from the
// stock core's bucket count when only a warehouse narrows it, is the exact
// count: the sum of the per-material totals (which are counted), with an
// emptied bucket hidden and another tenant's stock apart.
func TestMaterialStockKeptTotal(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		_, c := h.NewTenant("Kept Total Co")
		_, other := h.NewTenant("Kept Total Other Co")
		const stockPage = "/api/bluebird-basic/materialstock/selectMaterialStockVOListPage"
		first, second := newStockPlace(t, c), newStockPlace(t, c)
		materials := []string{first.material, second.material, checkMaterial(t, c, "KT")}
		for _, pl := range []stockPlace{first, second} {
			for _, m := range materials {
				if msg := checkReceive(t, c, pl, m, "3", "1"); msg != "" {
					t.Fatal(msg)
				}
			}
		}
		// emptied: received and voided, its bucket is zero and hidden
		var in receipt
		c.PostJSON(inPath+"/submit", map[string]any{"inType": 1, "warehouseId": first.warehouse, "supplierId": first.supplier,
			"details": []map[string]any{{"materialId": checkMaterial(t, c, "KTV"), "qty": "2", "positionId": first.position, "unitPrice": "1"}}}).OK(t, &in)
		c.Post(inPath+"/startProcess", apptest.Q("ids", in.ID)).OK(t, nil)
		c.Post(inPath+"/submitInStockMaterial", apptest.Q("ids", in.ID)).OK(t, nil)
		c.Post(inPath+"/cancellation", apptest.Q("ids", in.ID)).OK(t, nil)
		// another tenant's stock counts only for that tenant
		elsewhere := newStockPlace(t, other)
		if msg := checkReceive(t, other, elsewhere, elsewhere.material, "1", "1"); msg != "" {
			t.Fatal(msg)
		}

		total := func(cl *apptest.Client, args ...string) int {
			t.Helper()
			var p page[struct{}]
			// a page of one row leaves the total to the count (a short page tells it)
			cl.Get(stockPage, apptest.Q(append([]string{"size", "1"}, args...)...)).OK(t, &p)
			return p.Total
		}
		for _, wh := range []string{"", first.warehouse, second.warehouse} {
			var args []string
			if wh != "" {
				args = []string{"warehouseId", wh}
			}
			counted := 0
			for _, m := range materials {
				counted += total(c, append(args, "materialId", m)...)
			}
			if kept := total(c, args...); kept != counted || counted != 3*(1+boolInt(wh == "")) {
				t.Errorf("warehouse %q: total %d, counted per material %d", wh, kept, counted)
			}
		}
		if n := total(c, "showZero", "true"); n != 7 {
			t.Errorf("with the empty bucket: %d, want 7", n)
		}
		if n := total(other); n != 1 {
			t.Errorf("the other tenant's total: %d, want 1", n)
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
