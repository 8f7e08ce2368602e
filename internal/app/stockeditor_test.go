package app_test

import (
	"net/url"
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

// docMeta is what the document editor reads of a document's metadata
// besides its fields (resource document.go).
type docMeta struct {
	Name     string                  `json:"name"`
	MenuCode string                  `json:"menuCode"`
	Fields   []struct{ Name string } `json:"fields"`
	Lines    *struct {
		Field string `json:"field"`
		Meta  struct {
			Fields []struct{ Name string } `json:"fields"`
		} `json:"meta"`
		Picker *struct {
			Kind      string                          `json:"kind"`
			URL       string                          `json:"url"`
			Header    map[string]string               `json:"header"`
			Optional  map[string]string               `json:"optional"`
			Key       string                          `json:"key"`
			Shown     map[string]string               `json:"shown"`
			Columns   []struct{ Fields []string }     `json:"columns"`
			Match     []struct{ Param, Field string } `json:"match"`
			Fill      map[string]string               `json:"fill"`
			Qty       string                          `json:"qtyField"`
			Available string                          `json:"availableField"`
			When      *struct {
				Field  string `json:"field"`
				Values []int  `json:"values"`
			} `json:"when"`
		} `json:"picker"`
	} `json:"lines"`
	Related []struct {
		Label    struct{ Zh, En string } `json:"label"`
		Resource string                  `json:"resource"`
		Path     string                  `json:"path"`
		Params   map[string]string       `json:"params"`
		Key      string                  `json:"key"`
		When     *struct {
			Field  string `json:"field"`
			Values []int  `json:"values"`
		} `json:"when"`
	} `json:"related"`
	Print *struct {
		Signatures []struct{ Zh, En string } `json:"signatures"`
	} `json:"print"`
	ExtraLines []struct {
		Field string                  `json:"field"`
		Label struct{ Zh, En string } `json:"label"`
		Meta  struct {
			Fields []struct{ Name string } `json:"fields"`
		} `json:"meta"`
		Totals []string `json:"totals"`
	} `json:"extraLines"`
}

func hasField(fields []struct{ Name string }, name string) bool {
	for _, f := range fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// TestStockDocumentEditorMeta: the stock documents tell the editor which
// line grids take stock out (issues and their screens, transfers, borrows:
// the FEFO picker over allDetail, filling the line's position and batch),
// that receipts and counts do not; every stock document lists its ledger
// rows once posted and prints with four signature boxes; the production
// plan declares its required materials as a second line set. The URLs
// named answer what the editor reads: a posted receipt's ledger rows by
// bizType and bizId, and the picker's available buckets of a warehouse.
func TestStockDocumentEditorMeta(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		admin := h.Admin()
		var all []docMeta
		admin.Get("/api/meta/resources", nil).OK(t, &all)
		byMenu := map[string]docMeta{}
		for _, m := range all {
			if m.MenuCode != "" {
				byMenu[m.MenuCode] = m
			}
		}
		outbound := map[string]string{"material_out": "positionId", "material_out_other": "positionId", "production_picking": "positionId",
			"material_transfer": "fromPositionId", "borrow_repay": "positionId"}
		for _, menu := range []string{"material_in", "material_out", "material_out_other", "production_picking", "material_transfer", "borrow_repay", "material_check"} {
			m, ok := byMenu[menu]
			if !ok || m.Lines == nil {
				t.Fatalf("%s: no document with lines in the metadata", menu)
			}
			p := m.Lines.Picker
			if position, out := outbound[menu]; !out {
				if p != nil {
					t.Errorf("%s: an inbound document's lines have a stock picker: %+v", menu, p)
				}
			} else {
				switch {
				case p == nil:
					t.Errorf("%s: an outbound document's lines have no stock picker", menu)
				case p.Kind != "stock" || p.URL != stockPath+"/allDetail" || p.Qty != "qty" || p.Available != "availableQty":
					t.Errorf("%s: picker %+v", menu, p)
				case !hasField(m.Fields, p.Header["warehouseId"]):
					t.Errorf("%s: the picker's warehouse %q is not a header field", menu, p.Header["warehouseId"])
				case p.Fill[position] != "positionId" || p.Fill["batchNo"] != "batchNo":
					t.Errorf("%s: the picker fills %v, want %s and batchNo", menu, p.Fill, position)
				}
				if p != nil {
					for f := range p.Fill {
						if !hasField(m.Lines.Meta.Fields, f) {
							t.Errorf("%s: the picker fills %q, not a line field", menu, f)
						}
					}
					if len(p.Match) == 0 || p.Match[0].Param != "materialId" {
						t.Errorf("%s: the picker's first match is %+v, want the material", menu, p.Match)
					}
				}
			}
			if menu == "borrow_repay" && (p == nil || p.When == nil || p.When.Field != "borrowRepayType" || len(p.When.Values) != 1 || p.When.Values[0] != 1) {
				t.Errorf("borrow_repay: the picker applies to returns too: %+v", p)
			}
			if m.Print == nil || len(m.Print.Signatures) != 4 {
				t.Errorf("%s: print %+v, want four signature boxes", menu, m.Print)
			} else {
				for _, s := range m.Print.Signatures {
					if s.Zh == "" || s.En == "" {
						t.Errorf("%s: signature %+v lacks a language", menu, s)
					}
				}
			}
			if len(m.Related) != 1 || m.Related[0].Resource != "bluebird-basic/stockledger" || m.Related[0].Key != "bizId" ||
				m.Related[0].Params["bizType"] == "" || m.Related[0].When == nil || !hasField(m.Fields, m.Related[0].When.Field) {
				t.Errorf("%s: related %+v, want the ledger by bizType and bizId once posted", menu, m.Related)
			}
		}
		// a return's lines are picked among the returnable issue lines of its plan (or of any issue), each
		// shown by its issue's number and bounded by what it may still give back
		back := byMenu["back_stock"]
		if p := back.Lines.Picker; p == nil || p.Kind != "lines" || p.URL != "/api/bluebird-basic/materialbackstockdetail/selectMaterialFromProducePlan" ||
			p.Header["backType"] != "backType" || p.Optional["producePlanId"] != "producePlanId" || p.Key != "sourceOutDetailId" ||
			p.Fill["sourceOutDetailId"] != "sourceOutDetailId" || p.Fill["materialId"] != "materialId" || p.Shown["sourceOutDetailId"] != "sourceDocNo" ||
			p.Qty != "qty" || p.Available != "returnableQty" || len(p.Columns) == 0 {
			t.Errorf("back_stock: picker %+v", p)
		}
		for menu, m := range byMenu {
			if p := m.Lines; p != nil && p.Picker != nil && len(p.Picker.Columns) == 0 {
				t.Errorf("%s: the picker declares no columns", menu)
			}
		}
		if got := byMenu["material_out"].Lines.Picker; got != nil && got.When != nil {
			t.Errorf("material_out: every issue takes stock out, the picker has a condition %+v", got.When)
		}
		plan := byMenu["produce_plan"]
		if len(plan.ExtraLines) != 1 || plan.ExtraLines[0].Field != "materials" || plan.ExtraLines[0].Label.En == "" ||
			!hasField(plan.ExtraLines[0].Meta.Fields, "materialId") || !hasField(plan.ExtraLines[0].Meta.Fields, "requiredQty") {
			t.Errorf("produce_plan: extra lines %+v, want the required materials", plan.ExtraLines)
		}

		// what the URLs answer for a posted receipt
		pl := newStockPlace(t, admin)
		no := receiveLines(t, admin, pl, []map[string]any{{"materialId": pl.material, "qty": "5", "positionId": pl.position, "unitPrice": "1", "batchNo": "B1"}})
		var ins page[receipt]
		admin.Get(inPath+"/list", apptest.Q("docNo", no)).OK(t, &ins)
		if len(ins.Records) != 1 {
			t.Fatalf("receipt %s: %+v", no, ins)
		}
		rel := byMenu["material_in"].Related[0]
		q := url.Values{rel.Key: {ins.Records[0].ID}}
		for k, v := range rel.Params {
			q.Set(k, v)
		}
		var rows page[ledgerRow]
		admin.Get(rel.Path, q).OK(t, &rows)
		if len(rows.Records) != 1 || rows.Records[0].BizNo != no || rows.Records[0].Qty != "5.000000" || rows.Records[0].ItemName == "" {
			t.Errorf("ledger rows of receipt %s: %+v", no, rows)
		}
		// another document's id lists none of them
		q.Set(rel.Key, pl.material)
		admin.Get(rel.Path, q).OK(t, &rows)
		if len(rows.Records) != 0 {
			t.Errorf("ledger rows of a document without any: %+v", rows)
		}
		p := byMenu["material_out"].Lines.Picker
		var buckets page[map[string]any]
		admin.Get(p.URL, apptest.Q("warehouseId", pl.warehouse, "materialId", pl.material, "onlyAvailable", "true")).OK(t, &buckets)
		if len(buckets.Records) != 1 {
			t.Fatalf("available buckets: %+v", buckets)
		}
		for _, from := range p.Fill {
			if buckets.Records[0][from] == nil || buckets.Records[0][from] == "" {
				t.Errorf("a bucket has no %q to fill a line with: %v", from, buckets.Records[0])
			}
		}
		if buckets.Records[0][p.Available] != "5.000000" {
			t.Errorf("a bucket's %s: %v", p.Available, buckets.Records[0])
		}
		// another tenant's picker lists none of it
		_, other := h.NewTenant("docux")
		other.Get(p.URL, apptest.Q("warehouseId", pl.warehouse, "materialId", pl.material)).OK(t, &buckets)
		if len(buckets.Records) != 0 {
			t.Errorf("another tenant sees the buckets: %+v", buckets)
		}
	})
}

// TestWorkflowTableInMeta: a resource whose rows go through approval
// (startProcess) names its table in the metadata, the workflow's business
// key <table>:<id> the web app asks a row's approval progress by; others
// do not.
func TestWorkflowTableInMeta(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		var all []struct {
			Name     string `json:"name"`
			Table    string `json:"table"`
			Commands []struct {
				Name string `json:"name"`
			} `json:"commands"`
		}
		h.Admin().Get("/api/meta/resources", nil).OK(t, &all)
		withFlow := 0
		for _, m := range all {
			flow := false
			for _, c := range m.Commands {
				flow = flow || c.Name == "startProcess"
			}
			switch {
			case flow && m.Table == "":
				t.Errorf("%s: approved through startProcess but names no table", m.Name)
			case !flow && m.Table != "":
				t.Errorf("%s: no workflow, yet its table %q is sent", m.Name, m.Table)
			case flow:
				withFlow++
			}
		}
		if withFlow == 0 {
			t.Fatal("no resource with startProcess in the metadata")
		}
	})
}
