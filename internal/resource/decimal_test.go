package resource

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"
	"github.com/xuri/excelize/v2"

	"github.com/bluebird/console/internal/platform/authz"
	"github.com/bluebird/console/internal/platform/db"
	"github.com/bluebird/console/internal/platform/httpx"
	"github.com/bluebird/console/internal/platform/i18n"
	"github.com/bluebird/console/internal/platform/wire"
)

// decRow exercises every decimal rule: an optional quantity at the default
// NUMERIC(20,6), a bounded price at (18,4), a positive rate at (20,9) and a
// required amount.
type decRow struct {
	Base
	Name  string       `bun:"name" json:"name" f:"label=名称|Name;max=20"`
	Qty   wire.Decimal `bun:"qty" json:"qty" f:"label=数量|Quantity;sort"`
	Price wire.Decimal `bun:"price" json:"price" f:"label=单价|Price;scale=4;precision=18;min=0;max=1000;sort"`
	Rate  wire.Decimal `bun:"rate" json:"rate" f:"label=比率|Rate;scale=9;positive"`
	Need  wire.Decimal `bun:"need" json:"need" f:"label=必填数|Required amount;req;scale=2;precision=10"`
}

// decDDL is the table of decRow on one database, the way a migration's
// {{decimal p s}} declares it.
func decDDL(table string, postgres bool) string {
	col := func(p, s int) string { return db.DecimalColumnType(postgres, p, s) }
	return fmt.Sprintf(`CREATE TABLE %s (id BIGINT PRIMARY KEY, tenant_id VARCHAR(12), create_user BIGINT, create_dept BIGINT,
		create_time TIMESTAMP, update_user BIGINT, update_time TIMESTAMP, status INT, is_deleted INT, version INT,
		name VARCHAR(20), qty %s, price %s, rate %s, need %s)`, table, col(20, 6), col(18, 4), col(20, 9), col(10, 2))
}

// decDatabases opens SQLite and, with BLUEBIRD_TEST_PG, PostgreSQL, each
// with a decRow table of its own, and runs fn with the resource mounted.
func decDatabases(t *testing.T, fn func(t *testing.T, d *db.DB, api *decAPI)) {
	kinds := []string{"sqlite"}
	if os.Getenv("BLUEBIRD_TEST_PG") != "" {
		kinds = append(kinds, "postgres")
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			var d *db.DB
			var err error
			if kind == "sqlite" {
				d, err = db.OpenSQLite(filepath.Join(t.TempDir(), "dec.db"))
			} else {
				d, err = db.OpenPostgres(os.Getenv("BLUEBIRD_TEST_PG"))
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.Close() })
			table := fmt.Sprintf("dec_row_%d_%d", os.Getpid(), db.NewID())
			if _, err := d.ExecContext(context.Background(), decDDL(table, d.Postgres)); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.ExecContext(context.Background(), "DROP TABLE "+table) })
			res := New(Spec{Service: "blade-test", Name: "dec", Table: table, Label: i18n.T("小数", "Decimal"), Routes: []string{"list", "page", "detail", "submit", "export"}},
				Hooks[decRow]{})
			r := chi.NewRouter()
			r.Use(func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
					p := &authz.Principal{UserID: 7, TenantID: "100001", RoleAliases: []string{authz.RoleAdmin}}
					next.ServeHTTP(w, req.WithContext(authz.With(req.Context(), p)))
				})
			})
			res.Mount(r, &Env{DB: d})
			// every read also goes through bun's scanner and must agree with the fast one
			was := checkScan
			checkScan = true
			t.Cleanup(func() { checkScan = was })
			fn(t, d, &decAPI{t: t, h: r, table: table})
		})
	}
}

type decAPI struct {
	t     *testing.T
	h     http.Handler
	table string
}

type decAnswer struct {
	status int
	body   []byte
	Code   int             `json:"code"`
	Msg    string          `json:"msg"`
	Data   json.RawMessage `json:"data"`
}

// do sends a request; lang "en" asks for English; a string body goes as is.
func (a *decAPI) do(lang, method, path string, body any) decAnswer {
	a.t.Helper()
	var raw []byte
	if s, ok := body.(string); ok {
		raw = []byte(s)
	} else if body != nil {
		raw, _ = json.Marshal(body)
	}
	req := httptest.NewRequest(method, path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	w := httptest.NewRecorder()
	a.h.ServeHTTP(w, req)
	ans := decAnswer{status: w.Code, body: w.Body.Bytes()}
	_ = json.Unmarshal(ans.body, &ans)
	return ans
}

// ok wants a 200 and decodes the data into v.
func (a *decAPI) ok(method, path string, body, v any) {
	a.t.Helper()
	ans := a.do("", method, path, body)
	if ans.status != 200 {
		a.t.Fatalf("%s %s: %d %s", method, path, ans.status, ans.Msg)
	}
	if v != nil {
		if err := json.Unmarshal(ans.Data, v); err != nil {
			a.t.Fatalf("%s %s: %v in %s", method, path, err, ans.Data)
		}
	}
}

// refused wants a 400 whose message contains want.
func (a *decAPI) refused(lang, method, path string, body any, want string) {
	a.t.Helper()
	ans := a.do(lang, method, path, body)
	if ans.status != 400 || !strings.Contains(ans.Msg, want) {
		a.t.Errorf("%s %s %v: %d %q, want 400 with %q", method, path, body, ans.status, ans.Msg, want)
	}
}

// decWire is a row as a client reads it: every decimal a string or null.
type decWire struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Qty   *string `json:"qty"`
	Price *string `json:"price"`
	Rate  *string `json:"rate"`
	Need  *string `json:"need"`
}

func str(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

// TestDecimalEngine: decimals travel exactly through submit, detail, list
// filters, sorts and the Excel export on both databases, and the declared
// rules refuse what does not fit with a readable 400.
func TestDecimalEngine(t *testing.T) {
	decDatabases(t, func(t *testing.T, d *db.DB, api *decAPI) {
		ids := map[string]string{}
		// Bodies as a client writes them: strings, and JSON numbers read from their text.
		for name, body := range map[string]string{
			"tiny":  `{"name":"tiny","qty":"0.000001","price":"12.5","rate":"0.000000001","need":"1"}`,
			"huge":  `{"name":"huge","qty":99999999999999.999999,"price":1000,"need":"99999999.99"}`,
			"neg":   `{"name":"neg","qty":"-5","price":"0","need":-1.5}`,
			"null":  `{"name":"null","qty":null,"price":"","need":"0"}`,
			"nine":  `{"name":"nine","qty":"9","need":"0"}`,
			"ten":   `{"name":"ten","qty":"10.0","need":"0"}`,
			"minus": `{"name":"minus","qty":"-10.5","need":"0"}`,
		} {
			var row decWire
			api.ok("POST", "/blade-test/dec/submit", body, &row)
			ids[name] = row.ID
		}
		detail := func(name string) decWire {
			var row decWire
			api.ok("GET", "/blade-test/dec/detail?id="+ids[name], nil, &row)
			return row
		}
		for name, want := range map[string][4]string{
			"tiny": {"0.000001", "12.5000", "0.000000001", "1.00"},
			"huge": {"99999999999999.999999", "1000.0000", "null", "99999999.99"},
			"neg":  {"-5.000000", "0.0000", "null", "-1.50"},
			"null": {"null", "null", "null", "0.00"},
			"ten":  {"10.000000", "null", "null", "0.00"},
		} {
			row := detail(name)
			if got := [4]string{str(row.Qty), str(row.Price), str(row.Rate), str(row.Need)}; got != want {
				t.Errorf("%s: %v, want %v", name, got, want)
			}
		}
		// the stored text itself is at the field's scale, on SQLite too
		var stored string
		if err := d.NewRaw("SELECT CAST(qty AS TEXT) FROM ? WHERE id = ?", bun.Ident(api.table), ids["neg"]).Scan(context.Background(), &stored); err != nil || stored != "-5.000000" {
			t.Errorf("stored %q %v, want -5.000000", stored, err)
		}

		list := func(query string) string {
			t.Helper()
			var page httpx.Page[decWire]
			api.ok("GET", "/blade-test/dec/page?size=100&"+query, nil, &page)
			names := make([]string, len(page.Records))
			for i, r := range page.Records {
				names[i] = r.Name
			}
			return strings.Join(names, ",")
		}
		for query, want := range map[string]string{
			"qty_gt=9&ascs=qty":                            "ten,huge",
			"qty_gt=9.5&ascs=qty":                          "ten,huge",
			"qty_ge=10&ascs=qty":                           "ten,huge",
			"qty_lt=0&ascs=qty":                            "minus,neg",
			"qty_lt=-5&ascs=qty":                           "minus",
			"qty_le=-5.000&ascs=qty":                       "minus,neg",
			"qty=-5":                                       "neg",
			"qty_equal=-5.0":                               "neg",
			"qty=0.000001":                                 "tiny",
			"qty=99999999999999.999999":                    "huge",
			"qty_lt=99999999999999.999999&ascs=qty":        "minus,neg,tiny,nine,ten",
			"qty_gt=-100&qty_lt=1e1&ascs=qty":              "minus,neg,tiny,nine",
			"qty_notequal=9&qty_notnull=&ascs=qty":         "minus,neg,tiny,ten,huge",
			"qty_null=":                                    "null",
			"qty_notnull=&ascs=qty":                        "minus,neg,tiny,nine,ten,huge",
			"qty_notnull=&descs=qty":                       "huge,ten,nine,tiny,neg,minus",
			"price_notnull=&ascs=price,qty":                "neg,tiny,huge",
			"price_gt=12.49999&price_lt=12.50001":          "tiny",
			"need_ge=-1.5&need_lt=1&qty_notnull=&ascs=qty": "minus,neg,nine,ten",
		} {
			if got := list(query); got != want {
				t.Errorf("%s: %s, want %s", query, got, want)
			}
		}
		for query, want := range map[string]string{
			"qty_gt=abc": "查询条件qty_gt不是有效的数值", "qty=1e400": "查询条件qty不是有效的数值", "qty_lt=NaN": "不是有效的数值",
			"qty_like=1": "查询条件qty_like不适用于数值字段", "qty_dategt=2024-01-01": "不适用于数值字段",
		} {
			api.refused("", "GET", "/blade-test/dec/page?"+query, nil, want)
		}
		api.refused("en", "GET", "/blade-test/dec/page?qty_gt=1,5", nil, "Filter qty_gt is not a valid number")

		// the export holds every digit in number cells
		ans := api.do("", "GET", "/blade-test/dec/export?qty_notnull=&ascs=qty", nil)
		if ans.status != 200 {
			t.Fatalf("export: %d %s", ans.status, ans.body)
		}
		checkDecimalExport(t, ans.body, []string{"-10.500000", "-5.000000", "0.000001", "9.000000", "10.000000", "99999999999999.999999"})

		// an edit stores the new value at the field's scale; "" empties it
		var version struct {
			Version int `json:"version"`
		}
		api.ok("GET", "/blade-test/dec/detail?id="+ids["tiny"], nil, &version)
		api.ok("POST", "/blade-test/dec/submit", fmt.Sprintf(`{"id":%q,"version":%d,"qty":2.5,"price":""}`, ids["tiny"], version.Version), nil)
		if row := detail("tiny"); str(row.Qty) != "2.500000" || row.Price != nil || str(row.Need) != "1.00" {
			t.Errorf("after edit: qty %s price %s need %s", str(row.Qty), str(row.Price), str(row.Need))
		}

		// refusals: each a 400 with its message, nothing stored
		for body, want := range map[string][2]string{
			`{"qty":"0.0000001","need":"1"}`:       {"数量最多6位小数", "Quantity allows at most 6 decimal places"},
			`{"qty":"1.00000001","need":"1"}`:      {"数量最多6位小数", "at most 6 decimal places"},
			`{"qty":"100000000000000","need":"1"}`: {"数量整数部分最多14位", "Quantity allows at most 14 digits before the decimal point"},
			`{"need":"123456789"}`:                 {"必填数整数部分最多8位", "at most 8 digits before the decimal point"},
			`{"price":"-0.0001","need":"1"}`:       {"单价不能小于0.0000", "Price must be at least 0.0000"},
			`{"price":"1000.0001","need":"1"}`:     {"单价不能大于1000.0000", "Price must be at most 1000.0000"},
			`{"rate":"0","need":"1"}`:              {"比率必须大于0", "Rate must be greater than 0"},
			`{"rate":"-0.000000001","need":"1"}`:   {"比率必须大于0", "greater than 0"},
			`{"qty":"1"}`:                          {"请输入必填数", "Please enter required amount"},
			`{"qty":"1","need":null}`:              {"请输入必填数", "Please enter required amount"},
			`{"qty":"1","need":""}`:                {"请输入必填数", "Please enter required amount"},
			`{"qty":"abc","need":"1"}`:             {"请求体中的值格式错误", "invalid decimal"},
			`{"qty":"NaN","need":"1"}`:             {"请求体中的值格式错误", "invalid decimal"},
			`{"qty":"Infinity","need":"1"}`:        {"请求体中的值格式错误", "invalid decimal"},
			`{"qty":1e400,"need":"1"}`:             {"请求体中的值格式错误", "out of range"},
			`{"qty":"1e400","need":"1"}`:           {"请求体中的值格式错误", "out of range"},
			`{"qty":true,"need":"1"}`:              {"请求体中的值格式错误", "invalid decimal"},
			`{"qty":"12,5","need":"1"}`:            {"请求体中的值格式错误", "invalid decimal"},
		} {
			api.refused("", "POST", "/blade-test/dec/submit", body, want[0])
			api.refused("en", "POST", "/blade-test/dec/submit", body, want[1])
		}
		if got := list("ascs=qty&qty_notnull="); got != "minus,neg,tiny,nine,ten,huge" {
			t.Errorf("refused rows were stored: %s", got)
		}
	})
}

// checkDecimalExport reads the xlsx back: the Quantity column holds number
// cells whose text is exactly want, top to bottom.
func checkDecimalExport(t *testing.T, file []byte, want []string) {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	header, err := f.GetRows("Sheet1")
	if err != nil || len(header) != len(want)+1 {
		t.Fatalf("rows: %d %v", len(header), err)
	}
	col := -1
	for i, h := range header[0] {
		if h == "数量" {
			col = i + 1
		}
	}
	if col < 0 {
		t.Fatalf("no 数量 column in %v", header[0])
	}
	for i, w := range want {
		cell, _ := excelize.CoordinatesToCellName(col, i+2)
		typ, err := f.GetCellType("Sheet1", cell)
		if err != nil || (typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset) {
			t.Errorf("%s: cell type %v %v, want a number", cell, typ, err)
		}
		got, err := f.GetCellValue("Sheet1", cell, excelize.Options{RawCellValue: true})
		if err != nil || got != w {
			t.Errorf("%s: %q %v, want %s", cell, got, err, w)
		}
	}
	// and in the sheet's XML as a number value, not a string
	zr, err := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	for _, entry := range zr.File {
		if entry.Name != "xl/worksheets/sheet1.xml" {
			continue
		}
		rc, _ := entry.Open()
		xml, _ := io.ReadAll(rc)
		rc.Close()
		if !bytes.Contains(xml, []byte("<v>99999999999999.999999</v>")) || bytes.Contains(xml, []byte("<t>99999999999999.999999</t>")) {
			t.Errorf("the sheet does not hold 99999999999999.999999 as a number: %s", xml)
		}
	}
}

// TestNumberDecimalCells: the worksheet rewrite touches exactly the cells of
// decimal styles, and copies anything else, including malformed cells.
func TestNumberDecimalCells(t *testing.T) {
	in := `<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>数量</t></is></c></row>` +
		`<row r="2"><c r="A2" s="3" t="inlineStr"><is><t>-12.500000</t></is></c><c r="B2" s="4" t="inlineStr"><is><t>7</t></is></c>` +
		`<c r="C2" s="3" t="inlineStr"><is><t>not a number</t></is></c><c r="D2" s="3" t="inlineStr"><is><t xml:space="preserve"> 1</t></is></c>` +
		`<c r="E2" s="3" t="inlineStr"><is><t>` + strings.Repeat("9", 70000) + `</t></is></c><c r="F2" s="3" t="inlineStr"><is><t>0.1</t></is></c></row></sheetData>`
	var out bytes.Buffer
	if err := numberDecimalCells(&out, strings.NewReader(in), map[string]bool{"3": true}); err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		`<c r="A2" s="3" t="inlineStr"><is><t>-12.500000</t></is></c>`, `<c r="A2" s="3"><v>-12.500000</v></c>`,
		`<c r="F2" s="3" t="inlineStr"><is><t>0.1</t></is></c>`, `<c r="F2" s="3"><v>0.1</v></c>`,
	).Replace(in)
	if out.String() != want {
		t.Errorf("rewrite:\n got %.400s\nwant %.400s", out.String(), want)
	}
}

// TestDecimalDeclarations: bad decimal tags are refused at declaration.
func TestDecimalDeclarations(t *testing.T) {
	for _, tag := range []string{
		"label=x;scale=19", "label=x;scale=-1", "label=x;precision=0", "label=x;precision=39", "label=x;scale=6;precision=5",
		"label=x;min=abc", "label=x;min=0.0000001", "label=x;max=1e20", "label=x;min=5;max=1", "label=x;filter=like", "label=x;scale=x",
	} {
		f := &Field{Name: "x", Type: TypeDecimal, ValueType: ValueDecimal, decimal: &decimalRule{scale: defaultDecimalScale, precision: defaultDecimalPrecision}}
		if err := f.applyTag(tag); err == nil {
			t.Errorf("%s accepted", tag)
		}
	}
	for _, tag := range []string{"label=x;positive", "label=x;scale=2"} {
		f := &Field{Name: "x", Type: TypeInt, ValueType: ValueInt}
		if err := f.applyTag(tag); err == nil {
			t.Errorf("%s on an int field accepted", tag)
		}
	}
	m := New(Spec{Service: "t", Name: "d", Table: "d", Label: i18n.T("小数", "Decimal")}, Hooks[decRow]{}).Meta()
	b, _ := json.Marshal(m.Field("price"))
	for _, want := range []string{`"type":"decimal"`, `"valueType":"decimal"`, `"scale":4`, `"precision":18`, `"minValue":"0.0000"`, `"maxValue":"1000.0000"`, `"filter":"equal"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("price metadata lacks %s: %s", want, b)
		}
	}
	if b, _ := json.Marshal(m.Field("rate")); !bytes.Contains(b, []byte(`"positive":true`)) || !bytes.Contains(b, []byte(`"scale":9`)) || bytes.Contains(b, []byte("minValue")) {
		t.Errorf("rate metadata: %s", b)
	}
	if b, _ := json.Marshal(m.Field("name")); bytes.Contains(b, []byte("scale")) {
		t.Errorf("a text field has a scale: %s", b)
	}
}

// BenchmarkScanDecimals reads 1,000 rows with two decimal columns through
// the engine's plan and through bun's scanner.
func BenchmarkScanDecimals(b *testing.B) {
	ctx := context.Background()
	d, err := db.OpenSQLite(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	if _, err := d.ExecContext(ctx, decDDL("dec_bench", false)); err != nil {
		b.Fatal(err)
	}
	rows := make([]decRow, 1000)
	for i := range rows {
		rows[i] = decRow{Base: Base{ID: wire.ID(i + 1), TenantID: "100001", Version: 1}, Name: fmt.Sprint("row", i),
			Qty: wire.NewDecimal(int64(i)*1234567, 6), Price: wire.MustParseDecimal("99999999999999.9999").Sub(wire.NewDecimal(int64(i), 4))}
	}
	if _, err := d.NewInsert().Model(&rows).ModelTableExpr("dec_bench").Exec(ctx); err != nil {
		b.Fatal(err)
	}
	p := buildPlan(d.Dialect(), reflect.TypeFor[decRow](), (*decRow)(nil))
	query := p.prepare(d.NewSelect().Model((*decRow)(nil)).ModelTableExpr("dec_bench AS dec_row")).String()
	b.Run("plan", func(b *testing.B) {
		for b.Loop() {
			got, err := scanInto(ctx, p, rawConn(d), query, make([]decRow, 0, 1000))
			if err != nil || len(got) != 1000 {
				b.Fatal(len(got), err)
			}
		}
	})
	b.Run("bun", func(b *testing.B) {
		for b.Loop() {
			var got []decRow
			if err := d.NewSelect().Model(&got).ModelTableExpr("dec_bench AS dec_row").Scan(ctx); err != nil || len(got) != 1000 {
				b.Fatal(len(got), err)
			}
		}
	})
}
