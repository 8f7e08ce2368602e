package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/bluebird/console/internal/platform/db"
)

// TestMigrateAndBackup drives the commands as a user would: migrate an empty
// data directory, back it up, and open the copy.
func TestMigrateAndBackup(t *testing.T) {
	dir := t.TempDir()
	if err := run([]string{"migrate", "--data", dir, "--log-level", "error"}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "copy.db")
	if err := run([]string{"backup", "--data", dir, "--out", out}); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"backup", "--data", dir, "--out", out}); err == nil {
		t.Fatal("backup over an existing file must fail")
	}
	d, err := db.OpenSQLite(out)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	n, err := d.NewSelect().Table("blade_region").Count(context.Background())
	if err != nil || n < 40000 {
		t.Fatalf("backup has %d regions (%v)", n, err)
	}
	if err := run([]string{"bogus"}); err == nil {
		t.Fatal("unknown command must fail")
	}
}
