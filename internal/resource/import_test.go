package resource

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"
	"github.com/xuri/excelize/v2"

	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// Excel import, declared on a materials-like resource: items keyed by their
// code, with a brand referenced by its code (the brand declares a Lookup),
// a kind from a dictionary, a price with two decimals and a free note.

type impItem struct {
	Base
	ItemCode string       `bun:"item_code" json:"itemCode" f:"label=物料编号|Item code;req;max=32"`
	ItemName string       `bun:"item_name" json:"itemName" f:"label=物料名称|Item name;req;max=64"`
	BrandID  wire.ID      `bun:"brand_id" json:"brandId" f:"label=品牌|Brand;ref=blade-test/brand"`
	Kind     int          `bun:"kind" json:"kind" f:"label=类型|Kind;dict=item_kind"`
	Price    wire.Decimal `bun:"price" json:"price" f:"label=单价|Price;scale=2;precision=12;min=0"`
	Note     string       `bun:"note" json:"note" f:"label=备注|Note;max=20"`
}

var impDDL = map[string]string{
	"biz_brand": bizDDL["biz_brand"],
	// indexed as a migration indexes a business table's unique columns
	"imp_item": `CREATE TABLE %[1]s (` + bizBase + `, item_code VARCHAR(32), item_name VARCHAR(64), brand_id BIGINT NOT NULL DEFAULT 0,
		kind INT NOT NULL DEFAULT 0, price {{decimal 12 2}}, note VARCHAR(20));
		CREATE INDEX %[1]s_code ON %[1]s (tenant_id, item_code); CREATE INDEX %[1]s_name ON %[1]s (tenant_id, item_name)`,
}

func impResources(tables map[string]string) []Registered {
	brand := New(Spec{Service: "blade-test", Name: "brand", Table: tables["biz_brand"], Label: i18n.T("品牌", "Brand"),
		MenuCode: "brand", Unique: [][]string{{"brandCode"}},
		Lookup: &Lookup{URL: "/api/blade-test/brand/list", CodeField: "brandCode", LabelField: "brandName"}}, Hooks[bizBrand]{})
	item := New(Spec{Service: "blade-test", Name: "item", Table: tables["imp_item"], Label: i18n.T("物料", "Item"),
		MenuCode: "item", DataScope: true, Unique: [][]string{{"itemCode"}, {"itemName"}}, DefaultOrder: "item_code ASC",
		Import: &Import{Key: "itemCode"}}, Hooks[impItem]{})
	return []Registered{brand, item}
}

// testDicts is the item_kind dictionary: 1 原料 / Raw material, 2 成品 /
// Finished good. It embeds DictLabeler only to be one (Env.Dicts): an
// import asks for the choices alone.
type testDicts struct{ DictLabeler }

func (testDicts) DictChoices(_ context.Context, _ bun.IDB, code string, _ bool) ([]DictChoice, error) {
	if code != "item_kind" {
		return nil, nil
	}
	return []DictChoice{{Key: "1", Label: i18n.T("原料", "Raw material")}, {Key: "2", Label: i18n.T("成品", "Finished good")}}, nil
}

func impEnv(t *testing.T, fn func(t *testing.T, e *apiEnv)) {
	eachDB(t, impDDL, impResources, func(env *Env) {
		env.Scope = createdRows{}
		env.Dicts = testDicts{}
	}, fn)
}

// xlsxOf is a workbook whose first sheet holds rows (nil cells stay empty).
func xlsxOf(t testing.TB, rows ...[]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// upload posts file as the multipart field "file" (who as in call).
func (e *apiEnv) upload(who, path string, file []byte) apiAnswer {
	e.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("file", "items.xlsx")
	w.Write(file)
	mw.Close()
	req := httptest.NewRequest("POST", path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return e.serve(req, who)
}

// serve runs a request as who ("en:who" asks for English) and decodes the envelope.
func (e *apiEnv) serve(req *http.Request, who string) apiAnswer {
	if lang, name, ok := strings.Cut(who, ":"); ok {
		req.Header.Set("Accept-Language", lang)
		who = name
	}
	req.Header.Set("X-Test-Caller", who)
	w := httptest.NewRecorder()
	e.handler.ServeHTTP(w, req)
	a := apiAnswer{Status: w.Code}
	if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
		a.Msg = w.Body.String()
	}
	return a
}

// imported uploads a file that must be accepted and returns the counts.
func (e *apiEnv) imported(who string, file []byte) (ImportResult, string) {
	e.t.Helper()
	a := e.upload(who, "/blade-test/item/import", file)
	if a.Status != 200 {
		e.t.Fatalf("import as %s: %d %s %s", who, a.Status, a.Msg, a.Data)
	}
	var res ImportResult
	if err := json.Unmarshal(a.Data, &res); err != nil {
		e.t.Fatal(err)
	}
	return res, a.Msg
}

// importRefused uploads a file that must be refused with a 400 and returns the message and errors.
func (e *apiEnv) importRefused(who string, file []byte) (string, []ImportError) {
	e.t.Helper()
	a := e.upload(who, "/blade-test/item/import", file)
	if a.Status != 400 {
		e.t.Fatalf("import as %s: %d %s, want 400", who, a.Status, a.Msg)
	}
	var errs []ImportError
	_ = json.Unmarshal(a.Data, &errs)
	return a.Msg, errs
}

func (e *apiEnv) items(who string) map[string]impItem {
	e.t.Helper()
	var page struct{ Records []impItem }
	e.ok(who, "GET", "/blade-test/item/list?size=1000", nil, &page)
	out := map[string]impItem{}
	for _, it := range page.Records {
		out[it.ItemCode] = it
	}
	return out
}

func errorsText(errs []ImportError) string {
	var s []string
	for _, e := range errs {
		s = append(s, fmt.Sprintf("%d %s %s", e.Row, e.Field, e.Message))
	}
	return strings.Join(s, "; ")
}

var impHeader = []any{"物料编号", "物料名称", "品牌", "类型", "单价", "备注"}

// TestImportInsertsAndUpdatesByKey: a row whose code is stored updates that
// row (only its non-empty cells, the version bumped), the others are
// inserted; references by code, dictionary labels and decimals are read.
func TestImportInsertsAndUpdatesByKey(t *testing.T) {
	impEnv(t, func(t *testing.T, e *apiEnv) {
		var brand bizBrand
		e.ok("a", "POST", "/blade-test/brand/submit", map[string]any{"brandCode": "B1", "brandName": "品牌1"}, &brand)
		var stored impItem
		e.ok("a", "POST", "/blade-test/item/submit", map[string]any{"itemCode": "I001", "itemName": "旧名称", "price": "1.00", "note": "keep", "kind": 1}, &stored)
		res, msg := e.imported("a", xlsxOf(t, impHeader,
			[]any{"I001", "新名称", "B1", nil, 12.5, nil},
			[]any{"I002", "螺丝", "B1", "成品", "0.35", "n2"},
			[]any{"I003", "螺母", nil, "1", 7, nil},
		))
		if res != (ImportResult{Inserted: 2, Updated: 1}) || msg != "导入成功: 新增2条, 更新1条" {
			t.Fatalf("import: %+v %q", res, msg)
		}
		items := e.items("a")
		i1, i2, i3 := items["I001"], items["I002"], items["I003"]
		if i1.ID != stored.ID || i1.ItemName != "新名称" || i1.Price.String() != "12.50" || i1.BrandID != brand.ID || i1.Version != 2 {
			t.Errorf("updated row %+v", i1)
		}
		if i1.Note != "keep" || i1.Kind != 1 {
			t.Errorf("empty cells changed the stored row: %+v", i1)
		}
		if i2.Kind != 2 || i2.Price.String() != "0.35" || i2.BrandID != brand.ID || i2.Note != "n2" || i2.TenantID != "100001" || i2.Version != 1 {
			t.Errorf("inserted row %+v", i2)
		}
		if i3.Kind != 1 || i3.BrandID != 0 || i3.Price.String() != "7.00" {
			t.Errorf("inserted row %+v", i3)
		}
		// the same file again updates the three rows
		res, _ = e.imported("a", xlsxOf(t, impHeader, []any{"I001", "新名称", "B1"}, []any{"I002", "螺丝"}, []any{"I003", "螺母"}))
		if res != (ImportResult{Updated: 3}) {
			t.Errorf("second import: %+v", res)
		}
	})
}

// TestImportReportsEveryBadRow: errors of rows far apart come back
// together, by Excel row number (a blank row still counts), and nothing is
// written.
func TestImportReportsEveryBadRow(t *testing.T) {
	impEnv(t, func(t *testing.T, e *apiEnv) {
		e.ok("a", "POST", "/blade-test/item/submit", map[string]any{"itemCode": "I001", "itemName": "旧名称"}, nil)
		msg, errs := e.importRefused("a", xlsxOf(t, impHeader,
			[]any{"I001", "改名"},                    // 2: an update, fine
			[]any{"I002", nil, nil, nil, 3},        // 3: no name
			[]any{"I003", "好的"},                    // 4
			[]any{},                                // 5: blank, skipped
			[]any{"I004", "价格", nil, nil, "1.005"}, // 6: three decimals
			[]any{"I005", "品牌", "B9", "半成品", "-1"}, // 7: no such brand, no such kind, below min
			[]any{"I006", "好的"},                    // 8: repeats row 4's name
		))
		want := "3 itemName 请输入物料名称; 6 price 单价最多2位小数; 7 brandId 品牌「B9」不存在或无权引用; 7 kind 类型的值「半成品」不是可选项; " +
			"7 price 单价不能小于0.00; 8 itemName 物料名称与第4行重复"
		if got := errorsText(errs); got != want {
			t.Errorf("errors:\n got %s\nwant %s", got, want)
		}
		if msg != "第3行: 请输入物料名称 (共6处错误)" {
			t.Errorf("message %q", msg)
		}
		if n := e.count("imp_item", "is_deleted = 0"); n != 1 {
			t.Errorf("%d rows after a refused import, want 1", n)
		}
		if items := e.items("a"); items["I001"].ItemName != "旧名称" || items["I001"].Version != 1 {
			t.Errorf("a refused import changed a row: %+v", items["I001"])
		}
		// a name another stored row holds is found before the transaction
		_, errs = e.importRefused("a", xlsxOf(t, impHeader, []any{"I009", "旧名称"}))
		if got := errorsText(errs); got != "2 itemName 物料名称已存在" {
			t.Errorf("taken name: %s", got)
		}
	})
}

// TestImportHeadersAndLanguage: columns are found by English label or JSON
// name in any order, an export's extra columns are skipped, an unknown
// column is refused, and messages follow Accept-Language.
func TestImportHeadersAndLanguage(t *testing.T) {
	impEnv(t, func(t *testing.T, e *apiEnv) {
		res, msg := e.imported("en:a", xlsxOf(t, []any{"Item name", "itemCode", "Kind", "Created at"},
			[]any{"Bolt", "E1", "Finished good", "2024-01-01 00:00:00"}))
		if res.Inserted != 1 || msg != "Imported: 1 added, 0 updated" {
			t.Fatalf("English header: %+v %q", res, msg)
		}
		if it := e.items("a")["E1"]; it.ItemName != "Bolt" || it.Kind != 2 {
			t.Errorf("imported %+v", it)
		}
		msg, errs := e.importRefused("en:a", xlsxOf(t, []any{"Item code", "Item name", "Colour", "物料名称"}, []any{"E2", "x"}))
		if got := errorsText(errs); got != `1  Unknown column "Colour"; 1 itemName Column "物料名称" appears twice` {
			t.Errorf("header errors: %s", got)
		}
		if msg != `Row 1: Unknown column "Colour" (2 errors in all)` {
			t.Errorf("message %q", msg)
		}
		_, errs = e.importRefused("en:a", xlsxOf(t, []any{"Item code", "Price"}, []any{"E3", "1.234"}))
		if got := errorsText(errs); got != "2 itemName Please enter item name; 2 price Price allows at most 2 decimal places" {
			t.Errorf("English row errors: %s", got)
		}
	})
}

// TestImportStaysInTenant: another tenant's row with the same code is
// neither updated nor seen; the row is inserted in the caller's tenant. A
// row the caller's data scope hides is not updated either: its code is taken.
func TestImportStaysInTenant(t *testing.T) {
	impEnv(t, func(t *testing.T, e *apiEnv) {
		var theirs impItem
		e.ok("b", "POST", "/blade-test/item/submit", map[string]any{"itemCode": "I001", "itemName": "他们的"}, &theirs)
		e.ok("b", "POST", "/blade-test/brand/submit", map[string]any{"brandCode": "BB", "brandName": "他们的品牌"}, nil)
		res, _ := e.imported("a", xlsxOf(t, impHeader, []any{"I001", "我们的"}))
		if res != (ImportResult{Inserted: 1}) {
			t.Fatalf("import: %+v", res)
		}
		if n := e.count("imp_item", "item_code = 'I001' AND tenant_id = '100002' AND item_name = '他们的' AND version = 1"); n != 1 {
			t.Errorf("the other tenant's row changed")
		}
		if it := e.items("a")["I001"]; it.TenantID != "100001" || it.ItemName != "我们的" {
			t.Errorf("own row %+v", it)
		}
		// another tenant's brand code is no code here
		_, errs := e.importRefused("a", xlsxOf(t, impHeader, []any{"I002", "x", "BB"}))
		if got := errorsText(errs); got != "2 brandId 品牌「BB」不存在或无权引用" {
			t.Errorf("another tenant's brand: %s", got)
		}
		// the clerk sees only its own rows: the admin's I001 is not its to update
		msg, _ := e.importRefused("clerk", xlsxOf(t, impHeader, []any{"I001", "店员改的"}))
		if msg != "第2行: 物料编号已存在" {
			t.Errorf("a row hidden by the data scope: %q", msg)
		}
		if it := e.items("a")["I001"]; it.ItemName != "我们的" {
			t.Errorf("the clerk changed a row it cannot see: %+v", it)
		}
		a := e.upload("nobody", "/blade-test/item/import", xlsxOf(t, impHeader, []any{"I003", "x"}))
		if a.Status != 401 {
			t.Errorf("anonymous import: %d", a.Status)
		}
	})
}

// TestImportRefusesBadFiles: no file, an empty one, one that is not an
// xlsx, one too large, too many rows, or no data rows.
func TestImportRefusesBadFiles(t *testing.T) {
	impEnv(t, func(t *testing.T, e *apiEnv) {
		req := httptest.NewRequest("POST", "/blade-test/item/import", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		if a := e.serve(req, "a"); a.Status != 400 || a.Msg != "请选择要导入的Excel文件" {
			t.Errorf("no file: %d %q", a.Status, a.Msg)
		}
		for name, tc := range map[string]struct {
			file []byte
			msg  string
		}{
			"empty":      {nil, "文件是空的"},
			"csv":        {[]byte("物料编号,物料名称\nI1,x\n"), "只能导入xlsx格式的Excel文件"},
			"broken zip": {[]byte("PK\x03\x04 not really"), "只能导入xlsx格式的Excel文件"},
			"too big":    {append([]byte("PK\x03\x04"), make([]byte, ImportMaxBytes)...), "文件大小不能超过10MB"},
			"no rows":    {xlsxOf(t, impHeader), "文件中没有数据行"},
			"blank":      {xlsxOf(t), "文件是空的"},
		} {
			if msg, _ := e.importRefused("a", tc.file); msg != tc.msg {
				t.Errorf("%s: %q, want %q", name, msg, tc.msg)
			}
		}
		rows := [][]any{{"物料编号", "物料名称"}}
		for i := range ImportMaxRows + 1 {
			rows = append(rows, []any{fmt.Sprintf("I%d", i), "x"})
		}
		if msg, _ := e.importRefused("a", xlsxOf(t, rows...)); msg != "一次最多导入50000行" {
			t.Errorf("too many rows: %q", msg)
		}
		if n := e.count("imp_item", "1 = 1"); n != 0 {
			t.Errorf("%d rows written by refused files", n)
		}
	})
}

// TestImportTemplateRoundTrip: the template's header is the columns'
// labels in the caller's language with notes, the dictionary choices are
// on a second sheet, and a filled template imports.
func TestImportTemplateRoundTrip(t *testing.T) {
	impEnv(t, func(t *testing.T, e *apiEnv) {
		e.ok("a", "POST", "/blade-test/brand/submit", map[string]any{"brandCode": "B1", "brandName": "品牌1"}, nil)
		for _, lang := range []string{"zh", "en"} {
			req := httptest.NewRequest("GET", "/blade-test/item/import-template", nil)
			req.Header.Set("Accept-Language", lang)
			req.Header.Set("X-Test-Caller", "a")
			w := httptest.NewRecorder()
			e.handler.ServeHTTP(w, req)
			if w.Code != 200 || !strings.Contains(w.Header().Get("Content-Disposition"), ".xlsx") {
				t.Fatalf("template %s: %d %s", lang, w.Code, w.Body.String())
			}
			f, err := excelize.OpenReader(w.Body)
			if err != nil {
				t.Fatal(err)
			}
			sheets := f.GetSheetList()
			header, err := f.GetRows(sheets[0])
			if err != nil {
				t.Fatal(err)
			}
			wantHeader := "物料编号,物料名称,品牌,类型,单价,备注"
			wantSheets := "物料,选项"
			if lang == "en" {
				wantHeader, wantSheets = "Item code,Item name,Brand,Kind,Price,Note", "Item,Choices"
			}
			if got := strings.Join(header[0], ","); got != wantHeader || strings.Join(sheets, ",") != wantSheets {
				t.Errorf("%s: header %q, sheets %v", lang, got, sheets)
			}
			choices, _ := f.GetRows(sheets[1])
			if lang == "zh" && fmt.Sprint(choices) != "[[类型] [原料] [成品]]" {
				t.Errorf("choices %v", choices)
			}
			comments, _ := f.GetComments(sheets[0])
			notes := map[string]string{}
			for _, c := range comments {
				notes[c.Cell] = c.Text
				for _, p := range c.Paragraph {
					notes[c.Cell] += p.Text
				}
			}
			if lang == "zh" && (!strings.Contains(notes["A1"], "必填") || !strings.Contains(notes["A1"], "相同则更新") ||
				!strings.Contains(notes["C1"], "填写品牌的品牌编号") || !strings.Contains(notes["E1"], "最多2位小数") || !strings.Contains(notes["D1"], "原料, 成品")) {
				t.Errorf("notes %v", notes)
			}
			// fill it in, as a user would, under the template's own header
			sheet := sheets[0]
			rows := [][]any{{"T1-" + lang, "模板" + lang, "B1", "成品", 3.25, "n"}, {"T2-" + lang, "模板二" + lang}}
			for i, row := range rows {
				cell, _ := excelize.CoordinatesToCellName(1, i+2)
				if err := f.SetSheetRow(sheet, cell, &row); err != nil {
					t.Fatal(err)
				}
			}
			var buf bytes.Buffer
			if err := f.Write(&buf); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if res, _ := e.imported(lang+":a", buf.Bytes()); res.Inserted != 2 {
				t.Errorf("%s template: %+v", lang, res)
			}
			if it := e.items("a")["T1-"+lang]; it.Kind != 2 || it.Price.String() != "3.25" || it.BrandID == 0 {
				t.Errorf("%s template row %+v", lang, it)
			}
		}
	})
}

// TestImportMeta: the action, its permission code, and a bad declaration.
func TestImportMeta(t *testing.T) {
	res := impResources(map[string]string{"biz_brand": "b", "imp_item": "i"})
	m := res[1].Meta()
	if !slices.Contains(m.Actions, "import") || m.Permissions["import"] != "item_import" {
		t.Errorf("actions %v, permissions %v", m.Actions, m.Permissions)
	}
	if slices.Contains(res[0].Meta().Actions, "import") {
		t.Errorf("brand declares no import: %v", res[0].Meta().Actions)
	}
	for name, imp := range map[string]*Import{
		"key not unique":    {Key: "note"},
		"unknown field":     {Key: "itemCode", Fields: []string{"itemCode", "itemName", "nope"}},
		"key not a column":  {Key: "itemCode", Fields: []string{"itemName"}},
		"required left out": {Key: "itemCode", Fields: []string{"itemCode"}},
		"read-only field":   {Key: "itemCode", Fields: []string{"itemCode", "itemName", "createTime"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: the declaration was accepted", name)
				}
			}()
			New(Spec{Service: "blade-test", Name: "item", Table: "i", Label: i18n.T("物料", "Item"),
				Unique: [][]string{{"itemCode"}}, Import: imp}, Hooks[impItem]{})
		}()
	}
}

// TestImportAccessAndHooks: an import is a write (a resource written by
// administrators refuses a plain user), and it runs the save hooks of each
// row, Changed once and AfterCommit for each row.
func TestImportAccessAndHooks(t *testing.T) {
	var changed, committed int
	declare := func(tables map[string]string) []Registered {
		return []Registered{New(Spec{Service: "blade-test", Name: "item", Table: tables["imp_item"], Label: i18n.T("物料", "Item"),
			Write: Admin, Unique: [][]string{{"itemCode"}}, Import: &Import{Key: "itemCode", Fields: []string{"itemCode", "itemName"}}},
			Hooks[impItem]{
				BeforeSave: func(_ context.Context, _ bun.Tx, it *impItem, isNew bool) error {
					if it.ItemName == "refuse" {
						return httpx.BadRequest(i18n.T("不接受", "Refused"))
					}
					it.Note = fmt.Sprint("new=", isNew)
					return nil
				},
				Changed:     func(context.Context) { changed++ },
				AfterCommit: func(context.Context, *impItem, bool) error { committed++; return nil },
			})}
	}
	eachDB(t, map[string]string{"imp_item": impDDL["imp_item"]}, declare, nil, func(t *testing.T, e *apiEnv) {
		changed, committed = 0, 0
		file := xlsxOf(t, []any{"物料编号", "物料名称"}, []any{"I1", "x"}, []any{"I2", "y"})
		if a := e.upload("clerk", "/blade-test/item/import", file); a.Status != 403 {
			t.Errorf("plain user: %d %s", a.Status, a.Msg)
		}
		if a := e.call("clerk", "GET", "/blade-test/item/import-template", nil); a.Status != 403 {
			t.Errorf("plain user's template: %d", a.Status)
		}
		if res, _ := e.imported("a", file); res.Inserted != 2 || changed != 1 || committed != 2 {
			t.Errorf("admin: %+v, Changed %d times, AfterCommit %d times", res, changed, committed)
		}
		if n := e.count("imp_item", "note = 'new=true'"); n != 2 {
			t.Errorf("BeforeSave ran on %d rows", n)
		}
		// a hook's refusal is reported on its row, with the others', and nothing is kept
		msg, errs := e.importRefused("a", xlsxOf(t, []any{"物料编号", "物料名称"}, []any{"I1", "refuse"}, []any{"I3", "z"}, []any{"I4", "refuse"}))
		if got := errorsText(errs); got != "2  不接受; 4  不接受" || msg != "第2行: 不接受 (共2处错误)" {
			t.Errorf("hook refusals: %q %s", msg, got)
		}
		if n := e.count("imp_item", "item_code = 'I3' OR item_name = 'refuse'"); n != 0 || changed != 1 {
			t.Errorf("a refused import kept %d rows (Changed %d times)", n, changed)
		}
	})
}

// BenchmarkImport10k imports 10,000 new materials-like rows on SQLite (the
// rows are removed between rounds).
func BenchmarkImport10k(b *testing.B) {
	d, err := db.OpenSQLite(filepath.Join(b.TempDir(), "import.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	e := mountAPI(b, d, impDDL, impResources, func(env *Env) { env.Dicts = testDicts{} })
	for i := range 20 {
		e.ok("a", "POST", "/blade-test/brand/submit", map[string]any{"brandCode": fmt.Sprintf("B%d", i), "brandName": fmt.Sprintf("品牌%d", i)}, nil)
	}
	rows := [][]any{impHeader}
	for i := range 10000 {
		rows = append(rows, []any{fmt.Sprintf("M%05d", i), fmt.Sprintf("物料%05d", i), fmt.Sprintf("B%d", i%20),
			[]string{"原料", "成品"}[i%2], fmt.Sprintf("%d.%02d", i, i%100), "note"})
	}
	file := xlsxOf(b, rows...)
	b.SetBytes(int64(len(file)))
	b.ResetTimer()
	for b.Loop() {
		res, _ := e.imported("a", file)
		if res.Inserted != 10000 {
			b.Fatalf("%+v", res)
		}
		b.StopTimer()
		if _, err := d.ExecContext(context.Background(), "DELETE FROM "+e.tables["imp_item"]); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
