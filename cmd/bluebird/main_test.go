package main

import (
	"context"
	"os"
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
	// An uploaded file (the store keeps them under <data>/files) goes along.
	upload := filepath.Join(dir, "files", "2026", "11", "a.png")
	if err := os.MkdirAll(filepath.Dir(upload), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(upload, []byte("png bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "copy")
	if err := run([]string{"backup", "--data", dir, "--out", out}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "files", "2026", "11", "a.png")); err != nil || string(b) != "png bytes" {
		t.Fatalf("uploaded file in the backup: %q, %v", b, err)
	}
	if err := run([]string{"backup", "--data", dir, "--out", out}); err == nil {
		t.Fatal("backup over an existing file must fail")
	}
	d, err := db.OpenSQLite(filepath.Join(out, "bluebird.db"))
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
