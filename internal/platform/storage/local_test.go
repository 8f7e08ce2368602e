package storage_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bluebird/console/internal/platform/storage"
)

func TestValidKey(t *testing.T) {
	good := []string{"a", "000000/2025/01/0123abcd.png", "x_y-z.tar.gz"}
	bad := []string{"", "/abs", "a//b", "a/", "../x", "a/../b", "./a", ".hidden", "a/.x.meta", `a\b`, "a b", "a/ü", "a?b",
		strings.Repeat("a", storage.MaxKeyLen+1)}
	for _, k := range good {
		if !storage.ValidKey(k) {
			t.Errorf("ValidKey(%q) = false", k)
		}
	}
	for _, k := range bad {
		if storage.ValidKey(k) {
			t.Errorf("ValidKey(%q) = true", k)
		}
	}
}

func TestLocalRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "files") // created on the first Put
	s := storage.NewLocal(dir)
	if _, _, err := s.Open(ctx, "t/a.txt"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("open before any put: %v", err)
	}
	if err := s.Delete(ctx, "t/a.txt"); err != nil {
		t.Fatalf("delete before any put: %v", err)
	}
	body := []byte("hello, files")
	if err := s.Put(ctx, "t/2025/01/a.txt", bytes.NewReader(body), int64(len(body)), "text/plain; charset=utf-8"); err != nil {
		t.Fatal(err)
	}
	rc, info, err := s.Open(ctx, "t/2025/01/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, body) || info.Size != int64(len(body)) || info.ContentType != "text/plain; charset=utf-8" {
		t.Fatalf("got %q %+v", got, info)
	}
	// a reader shorter or longer than announced leaves nothing behind
	if err := s.Put(ctx, "t/short.bin", bytes.NewReader(body), 100, "application/pdf"); !errors.Is(err, storage.ErrShortWrite) {
		t.Fatalf("short put: %v", err)
	}
	if err := s.Put(ctx, "t/long.bin", bytes.NewReader(body), 3, "application/pdf"); !errors.Is(err, storage.ErrShortWrite) {
		t.Fatalf("long put: %v", err)
	}
	if _, _, err := s.Open(ctx, "t/short.bin"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("short object visible: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "t"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if err := s.Delete(ctx, "t/2025/01/a.txt"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Open(ctx, "t/2025/01/a.txt"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("open after delete: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "t/2025/01/.a.txt.meta")); !os.IsNotExist(err) {
		t.Fatalf("sidecar left after delete: %v", err)
	}
}

func TestLocalStaysInsideRoot(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	dir := filepath.Join(base, "files")
	s := storage.NewLocal(dir)
	for _, k := range []string{"../secret", "/etc/passwd", "a/../../secret"} {
		if err := s.Put(ctx, k, strings.NewReader("x"), 1, "text/plain"); !errors.Is(err, storage.ErrInvalidKey) {
			t.Errorf("put %q: %v", k, err)
		}
		if _, _, err := s.Open(ctx, k); !errors.Is(err, storage.ErrInvalidKey) {
			t.Errorf("open %q: %v", k, err)
		}
	}
	// a symlink planted inside the tree cannot lead outside it
	if err := os.WriteFile(filepath.Join(base, "secret"), []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, "t/x.txt", strings.NewReader("x"), 1, "text/plain"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "secret"), filepath.Join(dir, "t", "link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if rc, _, err := s.Open(ctx, "t/link"); err == nil {
		rc.Close()
		t.Fatal("opened a symlink that escapes the root")
	}
}
