package db

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestMigrationTemplate(t *testing.T) {
	src := fstest.MapFS{
		"00001_old.sql": {Data: []byte("-- +goose Up\nCREATE TABLE a (id BIGINT PRIMARY KEY);\n")},
		"00002_new.sql": {Data: []byte("-- +goose Up\nCREATE TABLE bb_x (\n  {{base}},\n  qty {{decimal 20 6}} NOT NULL\n);\n{{unique \"bb_x\" \"code\" \"kind\"}}\n")},
		"README.md":     {Data: []byte("not a migration {{")},
	}
	for _, tc := range []struct {
		postgres bool
		decimal  string
	}{{false, "qty TEXT COLLATE DECIMAL NOT NULL"}, {true, "qty NUMERIC(20,6) NOT NULL"}} {
		out, err := renderMigrations(src, tc.postgres)
		if err != nil {
			t.Fatal(err)
		}
		old, _ := fs.ReadFile(out, "00001_old.sql")
		if string(old) != string(src["00001_old.sql"].Data) {
			t.Errorf("a file without a template changed: %q", old)
		}
		got, _ := fs.ReadFile(out, "00002_new.sql")
		for _, want := range []string{"id BIGINT PRIMARY KEY,\n  tenant_id VARCHAR(12)", "version INTEGER NOT NULL DEFAULT 1,\n  qty", tc.decimal,
			"CREATE UNIQUE INDEX ux_x_code_kind ON bb_x (tenant_id, code, kind) WHERE is_deleted = 0;"} {
			if !strings.Contains(string(got), want) {
				t.Errorf("postgres=%v: %q lacks %q", tc.postgres, got, want)
			}
		}
		if _, err := fs.Stat(out, "README.md"); err == nil {
			t.Error("a file that is not a migration was passed on")
		}
	}
	bad := fstest.MapFS{"00003_bad.sql": {Data: []byte("{{decimal 5 9}}")}}
	if _, err := renderMigrations(bad, false); err == nil || !strings.Contains(err.Error(), "00003_bad.sql") {
		t.Errorf("a bad decimal declaration: %v", err)
	}
}
