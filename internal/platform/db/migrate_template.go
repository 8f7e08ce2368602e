package db

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"testing/fstest"
	"text/template"
)

// Migrations are one SQL set for both databases. What every table repeats,
// and what the two databases spell differently, is written once here and
// called from the SQL as a template:
//
//	CREATE TABLE bb_brand (
//	  {{base}},
//	  brand_code VARCHAR(32) NOT NULL,
//	  ratio {{decimal 20 9}} NOT NULL
//	);
//	{{unique "bb_brand" "brand_code"}}
//
// A file without "{{" is passed through untouched, so the migrations that
// shipped before the template existed keep their exact text.

// baseColumns are the columns of every table (architecture.md §4), in the
// order the first migrations wrote them out by hand.
const baseColumns = `id BIGINT PRIMARY KEY,
  tenant_id VARCHAR(12) NOT NULL DEFAULT '000000',
  create_user BIGINT NOT NULL DEFAULT 0,
  create_dept BIGINT NOT NULL DEFAULT 0,
  create_time TIMESTAMP,
  update_user BIGINT NOT NULL DEFAULT 0,
  update_time TIMESTAMP,
  status INTEGER NOT NULL DEFAULT 1,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1`

// migrationFuncs are the template's words for one database.
func migrationFuncs(postgres bool) template.FuncMap {
	return template.FuncMap{
		"base": func() string { return baseColumns },
		"decimal": func(precision, scale int) (string, error) {
			if precision < 1 || precision > 38 || scale < 0 || scale > precision {
				return "", fmt.Errorf("decimal %d %d: precision 1..38, scale 0..precision", precision, scale)
			}
			return DecimalColumnType(postgres, precision, scale), nil
		},
		// unique is a tenant's unique key among live rows: every business
		// unique key starts with tenant_id and ignores soft-deleted rows.
		"unique": func(table string, columns ...string) (string, error) {
			if table == "" || len(columns) == 0 {
				return "", fmt.Errorf("unique needs a table and columns")
			}
			return fmt.Sprintf("CREATE UNIQUE INDEX ux_%s_%s ON %s (tenant_id, %s) WHERE is_deleted = 0;",
				strings.TrimPrefix(table, "bb_"), strings.Join(columns, "_"), table, strings.Join(columns, ", ")), nil
		},
	}
}

// renderMigrations returns fsys's top-level .sql files with their templates
// expanded for one database.
func renderMigrations(fsys fs.FS, postgres bool) (fs.FS, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	out := fstest.MapFS{}
	for _, name := range names {
		text, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		if bytes.Contains(text, []byte("{{")) {
			tmpl, err := template.New(name).Funcs(migrationFuncs(postgres)).Option("missingkey=error").Parse(string(text))
			if err != nil {
				return nil, fmt.Errorf("migration %s: %w", name, err)
			}
			var buf bytes.Buffer
			if err := tmpl.Execute(&buf, nil); err != nil {
				return nil, fmt.Errorf("migration %s: %w", name, err)
			}
			text = buf.Bytes()
		}
		out[name] = &fstest.MapFile{Data: text, Mode: 0o444}
	}
	return out, nil
}
