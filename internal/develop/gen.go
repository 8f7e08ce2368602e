package develop

import (
	"archive/zip"
	"bytes"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/bluebird/console/migrations"
)

// The generator writes this project's own pattern (docs/adding-a-resource.md):
// one Go struct embedding resource.Base and one resource.New declaration,
// a portable goose migration, the menu and button seed lines, and a README
// saying where each goes. No page: the generic metadata page serves a menu
// whose code is the resource's MenuCode, which the generated seed line makes so.

// baseColumns are resource.Base's: the generated struct embeds it.
var baseColumns = map[string]bool{"id": true, "tenant_id": true, "create_user": true, "create_dept": true, "create_time": true,
	"update_user": true, "update_time": true, "status": true, "is_deleted": true, "version": true}

// unit is one definition ready to render.
type unit struct {
	Code                       *Code
	Package, Model, Name, Base string // Go package, Go type, URL segment, table minus prefix
	Table, Service, MenuCode   string
	LabelZh, LabelEn, MenuPath string
	ParentMenu                 string
	Migration                  string // file name
	Fields                     []genField
	UsesWire                   bool
}

// genField is one generated struct field and its column.
type genField struct {
	GoName, GoType, Column, JSON, Tag string
	SQLType                           string
}

func newUnit(c *Code, cols []Column, migration int) *unit {
	base := strings.TrimPrefix(strings.ToLower(c.TableName), c.TablePrefix)
	u := &unit{Code: c, Package: c.PackageName, Model: pascal(base), Name: strings.ReplaceAll(base, "_", "-"), Base: base,
		Table: c.TableName, Service: c.ServiceName, MenuCode: base, LabelZh: c.CodeName, LabelEn: words(base),
		ParentMenu: c.ParentMenu}
	u.MenuPath = "/" + u.Name
	if c.ParentMenu != "" {
		u.MenuPath = "/" + strings.ReplaceAll(c.ParentMenu, "_", "-") + u.MenuPath
	}
	u.Migration = fmt.Sprintf("%05d_%s.sql", migration, base)
	searched := false
	for _, col := range cols {
		name := strings.ToLower(col.Name)
		if baseColumns[name] {
			continue
		}
		f := genField{GoName: pascal(name), Column: name, JSON: camel(name)}
		label := col.Comment
		if label == "" {
			label = name
		}
		tag := []string{"label=" + tagSafe.Replace(label) + "|" + words(name)}
		switch kind := columnKind(col); kind {
		case "string", "text":
			f.GoType = "string"
			if kind == "text" {
				tag = append(tag, "type=text")
				f.SQLType = "TEXT NOT NULL DEFAULT ''"
			} else {
				size := col.Length
				if size <= 0 {
					size = 255
				}
				tag = append(tag, "max="+strconv.Itoa(size))
				f.SQLType = fmt.Sprintf("VARCHAR(%d) NOT NULL DEFAULT ''", size)
				if !searched {
					tag, searched = append(tag, "search", "sort"), true
				}
			}
			if col.NotNull && kind == "string" {
				tag = append(tag, "req")
			}
		case "id":
			f.GoType, u.UsesWire = "wire.ID", true
			tag = append(tag, "type=id")
			f.SQLType = "BIGINT NOT NULL DEFAULT 0"
		case "int64":
			f.GoType, f.SQLType = "int64", "BIGINT NOT NULL DEFAULT 0"
		case "int":
			f.GoType, f.SQLType = "int", "INTEGER NOT NULL DEFAULT 0"
		case "bool":
			f.GoType, f.SQLType = "bool", "BOOLEAN NOT NULL DEFAULT FALSE"
		case "date", "datetime":
			f.GoType, u.UsesWire = "wire.Time", true
			if kind == "date" {
				tag = append(tag, "type=date")
			}
			f.SQLType = "TIMESTAMP"
		case "decimal":
			f.GoType, u.UsesWire = "wire.Decimal", true
			p, s := col.Precision, col.Scale
			if p <= 0 || p > 38 {
				p, s = 20, 6
			}
			tag = append(tag, fmt.Sprintf("scale=%d", s), fmt.Sprintf("precision=%d", p))
			f.SQLType = fmt.Sprintf("{{decimal %d %d}}", p, s)
		}
		f.Tag = strings.Join(tag, ";")
		u.Fields = append(u.Fields, f)
	}
	return u
}

// columnKind maps a database type to the Go type family the project uses:
// ids as wire.ID, money and quantities as exact decimals (floats too: the
// project has none), times as wire.Time.
func columnKind(c Column) string {
	t := c.Type
	switch {
	case t == "bigint" || t == "int8":
		if strings.HasSuffix(strings.ToLower(c.Name), "_id") {
			return "id"
		}
		return "int64"
	case strings.Contains(t, "int"):
		return "int"
	case strings.HasPrefix(t, "bool"):
		return "bool"
	case t == "date":
		return "date"
	case strings.HasPrefix(t, "timestamp") || t == "datetime":
		return "datetime"
	case t == "numeric" || t == "decimal" || t == "real" || strings.HasPrefix(t, "double") || strings.HasPrefix(t, "float"):
		return "decimal"
	case t == "text" || t == "clob":
		return "text"
	}
	return "string"
}

// tagSafe keeps a column comment from ending the struct tag or its lists.
var tagSafe = strings.NewReplacer("`", "", `"`, "", `\`, "", ";", ",", "|", "/")

var wordSplit = regexp.MustCompile(`[_\-\s]+`)

// pascal is a column's Go name: sample_widget_id → SampleWidgetID.
func pascal(s string) string {
	var b strings.Builder
	for _, w := range wordSplit.Split(strings.ToLower(s), -1) {
		switch {
		case w == "":
		case w == "id" || w == "url" || w == "ip":
			b.WriteString(strings.ToUpper(w))
		default:
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	out := b.String()
	if out == "" || out[0] >= '0' && out[0] <= '9' {
		out = "X" + out
	}
	return out
}

// camel is a column's JSON name: sample_widget_id → sampleWidgetId.
func camel(s string) string {
	parts := wordSplit.Split(strings.ToLower(s), -1)
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// words is an English label: sample_widget → Sample widget.
func words(s string) string {
	w := strings.TrimSpace(wordSplit.ReplaceAllString(strings.ToLower(s), " "))
	if w == "" {
		return s
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// nextMigration is the number after the console's last migration.
func nextMigration() int {
	n := 0
	entries, _ := fs.ReadDir(migrations.FS, ".")
	for _, e := range entries {
		if v, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0]); err == nil && v > n {
			n = v
		}
	}
	return n + 1
}

var templates = template.Must(template.New("gen").Parse(`
{{define "go"}}package {{.Package}}

import (
	"github.com/uptrace/bun"

	"github.com/bluebird/console/internal/platform/i18n"
{{- if .UsesWire}}
	"github.com/bluebird/console/internal/platform/wire"
{{- end}}
	"github.com/bluebird/console/internal/resource"
)

// {{.Model}} is one row of {{.Table}} ({{.LabelZh}}), generated by the code generator.
type {{.Model}} struct {
	bun.BaseModel ` + "`" + `bun:"table:{{.Table}}"` + "`" + `
	resource.Base
{{- range .Fields}}
	{{.GoName}} {{.GoType}} ` + "`" + `bun:"{{.Column}}" json:"{{.JSON}}" f:"{{.Tag}}"` + "`" + `
{{- end}}
}

// New{{.Model}} declares the {{.LabelEn}} resource: register it in the area's
// Mount and the app registry (internal/app/app.go).
func New{{.Model}}() *resource.Resource[{{.Model}}] {
	return resource.New(resource.Spec{
		Service: {{printf "%q" .Service}}, Name: {{printf "%q" .Name}}, Table: {{printf "%q" .Table}},
		Label: i18n.T({{printf "%q" .LabelZh}}, {{printf "%q" .LabelEn}}), MenuCode: {{printf "%q" .MenuCode}}, DataScope: true,
	}, resource.Hooks[{{.Model}}]{})
}
{{end}}
{{define "sql"}}-- +goose Up
-- {{.LabelZh}} ({{.LabelEn}}), generated by the code generator from {{.Table}}.
CREATE TABLE IF NOT EXISTS {{.Table}} (
  {{"{{base}}"}}{{range .Fields}},
  {{.Column}} {{.SQLType}}{{end}}
);
CREATE INDEX IF NOT EXISTS ix_{{.Base}}_tenant ON {{.Table}} (tenant_id, is_deleted);

-- +goose Down
DROP TABLE {{.Table}};
{{end}}
{{define "menu"}}// {{.LabelZh}}: the menu and its buttons, for internal/seed/seeddata/menus.go
// (under group("{{if .ParentMenu}}{{.ParentMenu}}{{else}}<parent>{{end}}", ...)); a database seeded before needs an
// upgrade in internal/seed/upgrade.go: s.addMenu(ctx, "{{.MenuCode}}").
leaf({{printf "%q" .MenuCode}}, {{printf "%q" .LabelZh}}, {{printf "%q" .LabelEn}}, {{printf "%q" .MenuPath}}, "AppstoreOutlined", crud()),
{{end}}
{{define "readme"}}# Generated by the Bluebird code generator
{{range .}}
## {{.LabelZh}} ({{.Table}})

- internal/{{.Package}}/{{.Base}}.go: the resource. Register it: in the area's Mount (or internal/app/app.go)
  ` + "`" + `res := {{.Package}}.New{{.Model}}(); res.Mount(api, env); a.Registry.Add(res)` + "`" + `.
- migrations/{{.Migration}}: the table (renumber it to the next free number if another landed first).
- internal/seed/seeddata/{{.Base}}_menu.txt: the menu line {{.MenuPath}} with buttons {{.MenuCode}}_add, _edit, _delete, _view, _export.
- Page: none. The menu's code is the resource's MenuCode, so the generic metadata page serves {{.MenuPath}}.
{{end}}{{end}}
`))

// render makes every file of the units, Go formatted by go/format.
func render(units []*unit) (map[string][]byte, error) {
	files := map[string][]byte{}
	exec := func(name string, data any) ([]byte, error) {
		var b bytes.Buffer
		err := templates.ExecuteTemplate(&b, name, data)
		return b.Bytes(), err
	}
	for _, u := range units {
		src, err := exec("go", u)
		if err != nil {
			return nil, err
		}
		if src, err = format.Source(src); err != nil {
			return nil, fmt.Errorf("generated %s does not parse: %w", u.Model, err)
		}
		files["internal/"+u.Package+"/"+u.Base+".go"] = src
		if files["migrations/"+u.Migration], err = exec("sql", u); err != nil {
			return nil, err
		}
		if files["internal/seed/seeddata/"+u.Base+"_menu.txt"], err = exec("menu", u); err != nil {
			return nil, err
		}
	}
	readme, err := exec("readme", units)
	if err != nil {
		return nil, err
	}
	files["README.md"] = readme
	return files, nil
}

// writeZip writes the files, in name order.
func writeZip(w io.Writer, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	z := zip.NewWriter(w)
	for _, n := range names {
		f, err := z.Create(n)
		if err != nil {
			return err
		}
		if _, err := f.Write(files[n]); err != nil {
			return err
		}
	}
	return z.Close()
}
