package app_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bluebird/console/internal/apptest"
)

const codePath = "/api/blade-develop/code"

// sampleTable is a table the generator reads: one column of each kind it maps.
const sampleTable = `CREATE TABLE bb_sample_widget (
  id BIGINT PRIMARY KEY, tenant_id VARCHAR(12) NOT NULL DEFAULT '000000', create_user BIGINT NOT NULL DEFAULT 0,
  create_dept BIGINT NOT NULL DEFAULT 0, create_time TIMESTAMP, update_user BIGINT NOT NULL DEFAULT 0, update_time TIMESTAMP,
  status INTEGER NOT NULL DEFAULT 1, is_deleted INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 1,
  widget_name VARCHAR(50) NOT NULL, note TEXT, qty INTEGER NOT NULL DEFAULT 0, price NUMERIC(18,4),
  owner_id BIGINT NOT NULL DEFAULT 0, due_date DATE, active BOOLEAN NOT NULL DEFAULT FALSE)`

// generate makes the sample table, saves a definition of it and answers the
// generated zip's files.
func generate(t *testing.T, h *apptest.H) (string, map[string]string) {
	t.Helper()
	if _, err := h.App.DB.ExecContext(context.Background(), sampleTable); err != nil {
		t.Fatal(err)
	}
	super := h.Admin()
	var saved map[string]any
	super.PostJSON(codePath+"/submit", map[string]any{"codeName": "样例部件", "tableName": "bb_sample_widget", "tablePrefix": "bb_",
		"serviceName": "bluebird-sample", "packageName": "samplegen", "parentMenu": "basic"}).OK(t, &saved)
	id := saved["id"].(string)
	r := super.Post(codePath+"/gen-code", apptest.Q("ids", id, "system", "bluebird"))
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/zip" {
		t.Fatalf("gen-code: %d %s", r.Status, r.Body)
	}
	z, err := zip.NewReader(bytes.NewReader(r.Body), int64(len(r.Body)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range z.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	return id, files
}

// TestCodeGenerator: definitions, the schema reader and gen-code's zip.
func TestCodeGenerator(t *testing.T) {
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		id, files := generate(t, h)
		super := h.Admin()
		var migration string
		for name, body := range files {
			if strings.HasPrefix(name, "migrations/") {
				migration = body
			}
		}
		goFile := files["internal/samplegen/sample_widget.go"]
		for _, want := range []string{"type SampleWidget struct", "resource.Base", `WidgetName string`, `f:"label=widget_name|Widget name;max=50;search;sort;req"`,
			"Price      wire.Decimal", "scale=4;precision=18", "OwnerID    wire.ID", "DueDate    wire.Time", "type=date", "Active     bool",
			"Note       string", "type=text", `Service: "bluebird-sample", Name: "sample-widget"`, `MenuCode: "sample_widget", DataScope: true`} {
			if !strings.Contains(goFile, want) {
				t.Errorf("the Go file lacks %q:\n%s", want, goFile)
			}
		}
		for _, want := range []string{"-- +goose Up", "CREATE TABLE IF NOT EXISTS bb_sample_widget", "widget_name VARCHAR(50) NOT NULL DEFAULT ''",
			"{{base}},", "price {{decimal 18 4}}", "-- +goose Down"} {
			if !strings.Contains(migration, want) {
				t.Errorf("the migration lacks %q:\n%s", want, migration)
			}
		}
		if !strings.Contains(files["internal/seed/seeddata/sample_widget_menu.txt"], `leaf("sample_widget", "样例部件", "Sample widget", "/basic/sample-widget", "AppstoreOutlined", crud()),`) ||
			!strings.Contains(files["README.md"], "generic metadata page") || len(files) != 4 {
			t.Errorf("zip: %v", files)
		}

		// the schema reader
		var tables []string
		super.Get(codePath+"/tables", nil).OK(t, &tables)
		if !strings.Contains(","+strings.Join(tables, ",")+",", ",bb_sample_widget,") {
			t.Errorf("tables: %v", tables)
		}
		var cols []map[string]any
		super.Get(codePath+"/columns", apptest.Q("tableName", "bb_sample_widget")).OK(t, &cols)
		if len(cols) != 17 || cols[10]["name"] != "widget_name" || cols[10]["notNull"] != true {
			t.Errorf("columns: %v", cols)
		}
		super.Get(codePath+"/columns", apptest.Q("tableName", "no_such_table")).Fail(t, 400)
		super.Get(codePath+"/columns", apptest.Q("tableName", "x; DROP TABLE blade_user")).Fail(t, 400)
		super.Get(codePath+"/columns", apptest.Q("tableName", "blade_user", "datasourceId", "42")).Fail(t, 400)

		// detail, copy, list, a bad definition, gen-code's refusals
		var detail map[string]any
		super.Get(codePath+"/detail", apptest.Q("id", id)).OK(t, &detail)
		if detail["tableName"] != "bb_sample_widget" {
			t.Fatalf("detail: %v", detail)
		}
		super.Post(codePath+"/copy", apptest.Q("id", id)).OK(t, nil)
		var page apptest.Page[map[string]any]
		super.Get(codePath+"/list", apptest.Q("codeName", "样例部件")).OK(t, &page)
		if page.Total != 2 {
			t.Fatalf("after copy: %v", page.Records)
		}
		for _, bad := range []map[string]any{
			{"codeName": "x", "tableName": "no such table", "serviceName": "s", "packageName": "p"},
			{"codeName": "x", "tableName": "bb_sample_widget", "serviceName": "s", "packageName": "Bad-Name"},
			{"codeName": "x", "tableName": "bb_sample_widget", "serviceName": "s", "packageName": "p", "datasourceId": "42"},
		} {
			super.PostJSON(codePath+"/submit", bad).Fail(t, 400)
		}
		super.Post(codePath+"/gen-code", apptest.Q("ids", id, "system", "saber")).Fail(t, 400)
		super.Post(codePath+"/gen-code", nil).Fail(t, 400)
		super.Post(codePath+"/gen-code", apptest.Q("ids", "42")).Fail(t, 404)
		_, tenantAdmin := h.NewTenant("Gen Co")
		tenantAdmin.Post(codePath+"/gen-code", apptest.Q("ids", id)).Fail(t, 403)
		tenantAdmin.Get(codePath+"/columns", apptest.Q("tableName", "blade_user")).Fail(t, 403)
	})
}

// generatedTest runs in the generated package: the resource mounted in a
// real console (app.ExtraResources), its migration applied, then the
// conformance checks of TestTenantIsolation on it.
const generatedTest = `package samplegen_test

import (
	"context"
	"net/url"
	"os"
	"testing"
	"testing/fstest"

	"github.com/bluebird/console/internal/app"
	"github.com/bluebird/console/internal/apptest"
	"github.com/bluebird/console/internal/resource"
	"github.com/bluebird/console/internal/GENDIR/samplegen"
)

func TestMain(m *testing.M) {
	app.ExtraResources = append(app.ExtraResources, func() resource.Registered { return samplegen.NewSampleWidget() })
	apptest.Main(m)
}

func TestGeneratedResource(t *testing.T) {
	sql, err := os.ReadFile("migration.sql")
	if err != nil {
		t.Fatal(err)
	}
	apptest.Each(t, func(t *testing.T, h *apptest.H) {
		if err := h.App.DB.Migrate(context.Background(), fstest.MapFS{"99999_generated.sql": {Data: sql}}); err != nil {
			t.Fatal(err)
		}
		h.Admin().Get("/api/meta/resource", url.Values{"name": {"bluebird-sample/sample-widget"}}).OK(t, nil)
		_, a := h.NewTenant("Tenant A")
		_, b := h.NewTenant("Tenant B")
		const base = "/api/bluebird-sample/sample-widget"
		body := map[string]any{"widgetName": "w1", "qty": 2, "price": "1.5", "ownerId": "0", "dueDate": "2030-01-01 00:00:00", "active": true, "note": "n"}
		var created map[string]any
		a.PostJSON(base+"/submit", body).OK(t, &created)
		id := created["id"].(string)
		if created["price"] != "1.5000" {
			t.Fatalf("the decimal keeps its scale: %v", created)
		}
		has := func(c *apptest.Client) bool {
			var page apptest.Page[map[string]any]
			c.Get(base+"/list", url.Values{"size": {"1000"}}).OK(t, &page)
			for _, r := range page.Records {
				if r["id"] == id {
					return true
				}
			}
			return false
		}
		if !has(a) || has(b) {
			t.Fatal("tenant A sees its row, tenant B does not")
		}
		b.Get(base+"/detail", url.Values{"id": {id}}).Fail(t, 404)
		body["id"] = id
		b.PostJSON(base+"/submit", body).Fail(t, 404)
		b.Post(base+"/remove", url.Values{"ids": {id}}).Fail(t, 404)
		a.Get(base+"/detail", url.Values{"id": {id}}).OK(t, nil)
	})
}
`

// TestGeneratedCodeRuns writes the generated files into a package of this
// module, builds it with the app and runs the conformance checks on the
// generated resource in a real console (go test in a child process, on the
// same databases as this test).
func TestGeneratedCodeRuns(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	h := apptest.New(t, "sqlite")
	_, files := generate(t, h)
	dirName := fmt.Sprintf("zzgen%d", time.Now().UnixNano())
	dir := filepath.Join("..", dirName, "samplegen")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(filepath.Join("..", dirName)) })
	for name, body := range files {
		switch {
		case strings.HasSuffix(name, ".go"):
			os.WriteFile(filepath.Join(dir, filepath.Base(name)), []byte(body), 0o644)
		case strings.HasPrefix(name, "migrations/"):
			os.WriteFile(filepath.Join(dir, "migration.sql"), []byte(body), 0o644)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "generated_test.go"), []byte(strings.ReplaceAll(generatedTest, "GENDIR", dirName)), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd := exec.Command("go", "test", "-count=1", "./"+dirName+"/samplegen/")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the generated code does not build or pass: %v\n%s", err, out)
	}
	t.Logf("generated package built and tested in %s", time.Since(start).Round(time.Millisecond))
}
